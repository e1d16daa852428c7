#include "designer/keyvaluetable.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QShortcut>
#include <QTableWidget>
#include <QVBoxLayout>

#include "appsettings.h"

namespace spindle::gui {
namespace {

// The name YARN gives an archive's directory: its file name without the extension.
QString archiveName(const QString& fileName) {
  for (const char* extension : {".tar.gz", ".tgz", ".tar", ".zip", ".jar"}) {
    if (fileName.endsWith(QLatin1String(extension))) return fileName.chopped(static_cast<int>(qstrlen(extension)));
  }
  return fileName;
}

}  // namespace

KeyValueTable::KeyValueTable(Kind kind, QWidget* parent) : QWidget(parent), kind_(kind) {
  table_ = new QTableWidget(0, 2, this);
  table_->setHorizontalHeaderLabels(kind == Kind::variables ? QStringList{tr("Variable"), tr("Value")}
                                                            : QStringList{tr("Name in the container"), tr("Source")});
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Interactive);
  table_->horizontalHeader()->resizeSection(0, 180);
  table_->verticalHeader()->setVisible(false);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setTabKeyNavigation(false);
  table_->setMinimumHeight(fontMetrics().height() * 6);
  table_->setMaximumHeight(fontMetrics().height() * 12);
  table_->setAlternatingRowColors(true);

  add_ = new QPushButton(kind == Kind::variables ? tr("Add variable") : tr("Add row"), this);
  remove_ = new QPushButton(tr("Remove"), this);
  add_->setToolTip(kind == Kind::variables ? tr("Add an environment variable (Insert)") : tr("Add a row (Insert)"));
  remove_->setToolTip(tr("Remove the selected rows (Delete)"));
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(add_);
  if (kind != Kind::variables) {
    browse_ = new QPushButton(kind == Kind::archives ? tr("Choose archives…") : tr("Choose files…"), this);
    browse_->setToolTip(tr("Pick local files to ship to every container"));
    buttons->addWidget(browse_);
    connect(browse_, &QPushButton::clicked, this, &KeyValueTable::addFromDisk);
  }
  buttons->addWidget(remove_);
  buttons->addStretch();

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(table_);
  layout->addLayout(buttons);
  setFocusProxy(table_);

  connect(add_, &QPushButton::clicked, this, [this] { addRow(); });
  connect(remove_, &QPushButton::clicked, this, &KeyValueTable::removeSelected);
  auto* insert = new QShortcut(QKeySequence(Qt::Key_Insert), table_, nullptr, nullptr, Qt::WidgetShortcut);
  connect(insert, &QShortcut::activated, this, [this] { addRow(); });
  auto* remove = new QShortcut(QKeySequence::Delete, table_, nullptr, nullptr, Qt::WidgetShortcut);
  connect(remove, &QShortcut::activated, this, &KeyValueTable::removeSelected);
  connect(table_, &QTableWidget::itemChanged, this, [this] {
    if (!loading_) emit changed();
  });
  connect(table_, &QTableWidget::itemSelectionChanged, this, &KeyValueTable::updateButtons);
  updateButtons();
}

KeyValueTable::Pairs KeyValueTable::pairs() const {
  Pairs result;
  for (int row = 0; row < table_->rowCount(); ++row) {
    const auto* key = table_->item(row, 0);
    const auto* value = table_->item(row, 1);
    const QString keyText = key ? key->text().trimmed() : QString();
    if (keyText.isEmpty()) continue;
    result.append({keyText, value ? value->text() : QString()});
  }
  return result;
}

void KeyValueTable::setPairs(const Pairs& pairs) {
  loading_ = true;
  table_->setRowCount(0);
  for (const auto& [key, value] : pairs) {
    const int row = table_->rowCount();
    table_->insertRow(row);
    table_->setItem(row, 0, new QTableWidgetItem(key));
    table_->setItem(row, 1, new QTableWidgetItem(value));
  }
  loading_ = false;
  updateButtons();
}

void KeyValueTable::addRow(const QString& key, const QString& value) {
  const int row = table_->rowCount();
  loading_ = true;
  table_->insertRow(row);
  table_->setItem(row, 0, new QTableWidgetItem(key));
  table_->setItem(row, 1, new QTableWidgetItem(value));
  loading_ = false;
  table_->setCurrentCell(row, key.isEmpty() ? 0 : 1);
  if (key.isEmpty()) table_->editItem(table_->item(row, 0));
  updateButtons();
  emit changed();
}

void KeyValueTable::addFromDisk() {
  const QStringList chosen =
      kind_ == Kind::archives
          ? QFileDialog::getOpenFileNames(this, tr("Archives to ship"), AppSettings::lastSpecDirectory(),
                                          tr("Archives (*.tar.gz *.tgz *.tar *.zip *.jar)"))
          : QFileDialog::getOpenFileNames(this, tr("Files to ship"), AppSettings::lastSpecDirectory());
  for (const QString& path : chosen) {
    const QString name = QFileInfo(path).fileName();
    addRow(kind_ == Kind::archives ? archiveName(name) : name, QFileInfo(path).absoluteFilePath());
  }
}

void KeyValueTable::removeSelected() {
  QList<int> rows;
  for (const auto& range : table_->selectedRanges()) {
    for (int row = range.topRow(); row <= range.bottomRow(); ++row) rows << row;
  }
  if (rows.isEmpty() && table_->currentRow() >= 0) rows << table_->currentRow();
  std::sort(rows.begin(), rows.end(), std::greater<>());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  for (int row : rows) table_->removeRow(row);
  updateButtons();
  if (!rows.isEmpty()) emit changed();
}

void KeyValueTable::updateButtons() {
  remove_->setEnabled(table_->rowCount() > 0);
}

}  // namespace spindle::gui
