#include "designer/jobdesignerwidget.h"

#include <QAction>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyle>
#include <QTabWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include "appsettings.h"
#include "convert.h"
#include "designer/applicationpage.h"
#include "designer/environmentpreview.h"
#include "designer/fieldmessages.h"
#include "designer/tasktypepage.h"
#include "designer/yamlhighlighter.h"
#include "spindle/core/spec_writer.h"

namespace spindle::gui {
namespace {

constexpr int typeRole = Qt::UserRole;
const char* const knownTypes[] = {"chief", "worker", "ps", "evaluator", "tensorboard"};

QScrollArea* scrolled(QWidget* page) {
  auto* area = new QScrollArea;
  area->setWidget(page);
  area->setWidgetResizable(true);
  area->setFrameShape(QFrame::NoFrame);
  return area;
}

// The page a diagnostic's field is on: a task type, or "" for the application.
QString pageOf(const QString& field) {
  if (!field.startsWith(QLatin1String("tasks."))) return {};
  const QString rest = field.mid(6);
  const int end = rest.indexOf(QLatin1Char('.'));
  return end < 0 ? rest : rest.left(end);
}

}  // namespace

JobDesignerWidget::JobDesignerWidget(QWidget* parent) : QWidget(parent) {
  messages_ = new FieldMessages(this);
  validationTimer_ = new QTimer(this);
  validationTimer_->setSingleShot(true);
  validationTimer_->setInterval(150);
  connect(validationTimer_, &QTimer::timeout, this, &JobDesignerWidget::validateNow);

  // Left: the pages of the job.
  navigation_ = new QListWidget;
  navigation_->setAccessibleName(tr("Pages of the job"));
  navigation_->setMinimumWidth(150);
  addTask_ = new QToolButton;
  addTask_->setText(tr("&Add task type"));
  addTask_->setToolButtonStyle(Qt::ToolButtonTextOnly);
  addTask_->setPopupMode(QToolButton::InstantPopup);
  addTask_->setMenu(new QMenu(addTask_));
  addTask_->setToolTip(tr("Add chief, worker, ps, evaluator, tensorboard or a task type of your own"));
  removeTask_ = new QPushButton(tr("Re&move"));
  removeTask_->setToolTip(tr("Remove the selected task type from the job"));
  auto* left = new QWidget;
  auto* leftLayout = new QVBoxLayout(left);
  leftLayout->setContentsMargins(0, 0, 0, 0);
  auto* pagesLabel = new QLabel(tr("&Pages:"));
  pagesLabel->setBuddy(navigation_);
  leftLayout->addWidget(pagesLabel);
  leftLayout->addWidget(navigation_, 1);
  auto* taskButtons = new QHBoxLayout;
  taskButtons->addWidget(addTask_);
  taskButtons->addWidget(removeTask_);
  leftLayout->addLayout(taskButtons);

  // Centre: the pages.
  pages_ = new QStackedWidget;
  applicationPage_ = new ApplicationPage(*messages_);
  pages_->addWidget(scrolled(applicationPage_));
  auto* applicationItem = new QListWidgetItem(tr("Application"), navigation_);
  applicationItem->setData(typeRole, QString());
  connect(applicationPage_, &ApplicationPage::changed, this, &JobDesignerWidget::scheduleValidation);

  // Right: what core makes of it.
  yaml_ = new QPlainTextEdit;
  yaml_->setReadOnly(true);
  yaml_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  yaml_->setLineWrapMode(QPlainTextEdit::NoWrap);
  yaml_->setAccessibleName(tr("Normalized YAML"));
  new YamlHighlighter(yaml_->document());
  yamlState_ = new QLabel;
  yamlState_->setWordWrap(true);
  auto* yamlPage = new QWidget;
  auto* yamlLayout = new QVBoxLayout(yamlPage);
  yamlLayout->addWidget(yamlState_);
  yamlLayout->addWidget(yaml_, 1);
  environment_ = new EnvironmentPreview;
  problems_ = new QListWidget;
  problems_->setWordWrap(true);
  problems_->setAccessibleName(tr("Problems"));
  problems_->setProperty("spindleDynamicText", true);  // core's sentences
  side_ = new QTabWidget;
  side_->addTab(yamlPage, tr("&YAML"));
  side_->addTab(environment_, tr("E&nvironment"));
  side_->addTab(problems_, tr("Pro&blems"));
  fit_ = new QListWidget;
  fit_->setWordWrap(true);
  fit_->setAccessibleName(tr("Will it fit now"));
  fit_->setProperty("spindleDynamicText", true);  // core's sentences
  fitState_ = new QLabel;
  fitState_->setWordWrap(true);
  auto* checkAgain = new QPushButton(tr("Check &again"));
  checkAgain->setToolTip(tr("Ask the cluster for its nodes and queues again"));
  connect(checkAgain, &QPushButton::clicked, this, &JobDesignerWidget::clusterRefreshRequested);
  auto* fitPage = new QWidget;
  auto* fitLayout = new QVBoxLayout(fitPage);
  auto* fitHeader = new QHBoxLayout;
  fitHeader->addWidget(fitState_, 1);
  fitHeader->addWidget(checkAgain);
  fitLayout->addLayout(fitHeader);
  fitLayout->addWidget(fit_, 1);
  side_->addTab(fitPage, tr("F&it now"));

  auto* splitter = new QSplitter(Qt::Horizontal);
  splitter->addWidget(left);
  splitter->addWidget(pages_);
  splitter->addWidget(side_);
  splitter->setStretchFactor(0, 0);
  splitter->setStretchFactor(1, 3);
  splitter->setStretchFactor(2, 2);
  splitter->setSizes({170, 560, 420});
  splitter->setChildrenCollapsible(false);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(splitter);

  connect(navigation_, &QListWidget::currentRowChanged, this, [this](int row) {
    if (row >= 0) pages_->setCurrentIndex(row);
    removeTask_->setEnabled(row > 0);
  });
  connect(removeTask_, &QPushButton::clicked, this, &JobDesignerWidget::removeCurrentTaskType);
  connect(problems_, &QListWidget::itemActivated, this,
          [this](QListWidgetItem* item) { goToField(item->data(typeRole).toString()); });

  setTabOrder(navigation_, addTask_);
  setTabOrder(addTask_, removeTask_);
  setTabOrder(removeTask_, pages_);
  newSpec();
}

JobDesignerWidget::~JobDesignerWidget() = default;

void JobDesignerWidget::newSpec() {
  JobSpec spec;
  TaskSpec worker = default_task("worker");
  worker.instances = 2;
  worker.memory_mib = 2048;
  worker.command = "python train.py";
  spec.tasks.push_back(worker);
  loadSpec(spec);
}

void JobDesignerWidget::clearTaskPages() {
  for (auto it = taskPages_.begin(); it != taskPages_.end(); ++it) {
    messages_->removeUnder(QStringLiteral("tasks.") + it.key());
  }
  while (pages_->count() > 1) {
    QWidget* page = pages_->widget(1);
    pages_->removeWidget(page);
    page->deleteLater();
  }
  while (navigation_->count() > 1) delete navigation_->takeItem(1);
  taskPages_.clear();
}

void JobDesignerWidget::loadSpec(const JobSpec& spec, const QString& path) {
  loading_ = true;
  clearTaskPages();
  applicationPage_->load(spec);
  for (const auto& task : spec.tasks) addTaskType(qs(task.type))->load(task);
  loading_ = false;
  setFilePath(path);
  navigation_->setCurrentRow(0);
  validateNow();
  markSaved();
}

bool JobDesignerWidget::openFile(const QString& path, QString* error) {
  auto spec = loadSpecFile(path);
  if (!spec) {
    if (error) *error = qs(format_diagnostics(spec.error()));
    return false;
  }
  loadSpec(*spec, QFileInfo(path).absoluteFilePath());
  emit statusMessage(tr("Opened %1").arg(QDir::toNativeSeparators(path)));
  return true;
}

bool JobDesignerWidget::saveTo(const QString& path, QString* error) {
  validateNow();
  QSaveFile file(path);
  const std::string text = specFileText(check_);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Text) ||
      file.write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size()) || !file.commit()) {
    if (error) *error = tr("Could not write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
    return false;
  }
  setFilePath(QFileInfo(path).absoluteFilePath());
  validateNow();
  markSaved();
  emit statusMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
  return true;
}

bool JobDesignerWidget::maybeDiscardChanges() {
  if (!isModified()) return true;
  const auto answer = QMessageBox::warning(
      this, tr("Unsaved changes"), tr("The job spec has changes that are not saved. Save them first?"),
      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
  if (answer == QMessageBox::Save) return save();
  return answer == QMessageBox::Discard;
}

void JobDesignerWidget::open() {
  if (!maybeDiscardChanges()) return;
  const QString path = QFileDialog::getOpenFileName(this, tr("Open job spec"), AppSettings::lastSpecDirectory(),
                                                    tr("Job specs (*.yaml *.yml *.json);;All files (*)"));
  if (path.isEmpty()) return;
  AppSettings::setLastSpecDirectory(QFileInfo(path).absolutePath());
  QString error;
  if (!openFile(path, &error)) {
    QMessageBox::warning(this, tr("Cannot open the job spec"),
                         tr("%1 cannot be opened in the designer:").arg(QDir::toNativeSeparators(path)) +
                             QStringLiteral("\n\n") + error);
  }
}

bool JobDesignerWidget::save() {
  if (filePath_.isEmpty()) return saveAs();
  validateNow();
  if (!check_.valid()) {
    const auto answer = QMessageBox::question(
        this, tr("Save a spec with problems?"),
        tr("The spec has %n problem(s). Save it as typed? spindle will refuse it until they are fixed.", nullptr,
           static_cast<int>(check_.diagnostics.size())),
        QMessageBox::Save | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer != QMessageBox::Save) return false;
  }
  QString error;
  if (!saveTo(filePath_, &error)) {
    QMessageBox::warning(this, tr("Cannot save the job spec"), error);
    return false;
  }
  return true;
}

bool JobDesignerWidget::saveAs() {
  QString suggestion = filePath_;
  if (suggestion.isEmpty()) {
    const QString name = check_.spec ? qs(check_.spec->name) : QStringLiteral("job");
    suggestion = QDir(AppSettings::lastSpecDirectory()).filePath(name + QStringLiteral(".yaml"));
  }
  QString path =
      QFileDialog::getSaveFileName(this, tr("Save job spec"), suggestion, tr("YAML job specs (*.yaml *.yml)"));
  if (path.isEmpty()) return false;
  if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".yaml");
  AppSettings::setLastSpecDirectory(QFileInfo(path).absolutePath());
  const QString previous = filePath_;
  filePath_ = path;
  if (!save()) {
    filePath_ = previous;
    return false;
  }
  return true;
}

bool JobDesignerWidget::isModified() const {
  return document().dump() != savedDocument_;
}

void JobDesignerWidget::markSaved() {
  savedDocument_ = document().dump();
  if (wasModified_) {
    wasModified_ = false;
    emit modifiedChanged(false);
  }
}

void JobDesignerWidget::setFilePath(const QString& path) {
  if (filePath_ == path) return;
  filePath_ = path;
  emit filePathChanged(path);
}

nlohmann::ordered_json JobDesignerWidget::document() const {
  auto document = nlohmann::ordered_json::object();
  applicationPage_->write(document);
  auto tasks = nlohmann::ordered_json::object();
  for (int row = 1; row < navigation_->count(); ++row) {
    if (auto* page = taskPages_.value(navigation_->item(row)->data(typeRole).toString())) page->write(tasks);
  }
  document["tasks"] = tasks;
  return document;
}

void JobDesignerWidget::scheduleValidation() {
  if (loading_) return;
  validationTimer_->start();
  const bool modified = isModified();
  if (modified != wasModified_) {
    wasModified_ = modified;
    emit modifiedChanged(modified);
  }
}

void JobDesignerWidget::validateNow() {
  validationTimer_->stop();
  check_ = checkSpecDocument(document(), filePath_, cluster_);
  if (check_.spec) lastValid_ = check_.spec;
  showCheck();
  const bool modified = isModified();
  if (modified != wasModified_) {
    wasModified_ = modified;
    emit modifiedChanged(modified);
  }
}

void JobDesignerWidget::showCheck() {
  messages_->show(check_.diagnostics);
  const int problems = static_cast<int>(check_.diagnostics.size());

  // The YAML pane shows the normalized spec; while there are problems, the
  // last good one, marked as such.
  QPalette statePalette = yamlState_->palette();
  if (check_.spec) {
    yaml_->setPlainText(qs(to_yaml(*check_.spec)));
    yaml_->setEnabled(true);
  } else if (lastValid_) {
    yaml_->setPlainText(qs(to_yaml(*lastValid_)));
    yaml_->setEnabled(false);
  } else {
    yaml_->clear();
  }
  if (problems == 0) {
    yamlState_->setText(tr("Valid. This is the spec as spindle reads it."));
  } else if (check_.spec) {
    yamlState_->setText(
        tr("Core accepts the spec, but the cluster would refuse it: %n problem(s).", nullptr, problems));
  } else {
    yamlState_->setText(tr("%n problem(s); showing the last valid spec.", nullptr, problems));
  }
  environment_->setSpec(check_.spec);

  problems_->clear();
  for (const auto& diagnostic : check_.diagnostics) {
    const QString field = qs(diagnostic.field);
    auto* item = new QListWidgetItem(
        field.isEmpty() ? qs(diagnostic.message) : field + QStringLiteral(": ") + qs(diagnostic.message), problems_);
    item->setData(typeRole, field);
    item->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
  }
  side_->setTabText(2, problems == 0 ? tr("Pro&blems") : tr("Pro&blems (%1)").arg(problems));

  for (int row = 0; row < navigation_->count(); ++row) {
    auto* item = navigation_->item(row);
    const QString type = item->data(typeRole).toString();
    int count = 0;
    for (const auto& diagnostic : check_.diagnostics) {
      if (pageOf(qs(diagnostic.field)) == type) ++count;
    }
    item->setIcon(count ? style()->standardIcon(QStyle::SP_MessageBoxWarning) : QIcon());
    item->setToolTip(count ? tr("%n problem(s) on this page", nullptr, count) : QString());
  }
  showFit();
  emit validityChanged(check_.valid(), problems);
}

void JobDesignerWidget::showFit() {
  fit_->clear();
  if (!cluster_.known) {
    fitState_->setText(tr("Connect to a cluster to see whether the job fits now."));
    return;
  }
  if (!check_.spec) {
    fitState_->setText(tr("Fix the spec's problems to see whether it fits."));
    return;
  }
  const auto fit = client::will_it_fit(*check_.spec, cluster_.state);
  const QString when = QDateTime::fromMSecsSinceEpoch(cluster_.loadedMs).toString(QStringLiteral("HH:mm:ss"));
  fitState_->setText(fit.fits_now()       ? tr("Fits now, as of %1.").arg(when)
                     : fit.can_ever_fit() ? tr("Waits for room, as of %1.").arg(when)
                                          : tr("Never fits as it stands, as of %1.").arg(when));
  for (const auto& warning : fit.warnings) {
    auto* item = new QListWidgetItem(qs(warning), fit_);
    item->setIcon(style()->standardIcon(QStyle::SP_MessageBoxInformation));
  }
  for (const auto& type : fit.types) {
    auto* item = new QListWidgetItem(qs(type.sentence), fit_);
    item->setData(typeRole, type.type == "application master" ? QString() : qs(type.type));
    const auto icon = type.verdict == client::TaskTypeFit::Verdict::fits_now ? QStyle::SP_DialogApplyButton
                      : type.verdict == client::TaskTypeFit::Verdict::waits  ? QStyle::SP_MessageBoxInformation
                                                                             : QStyle::SP_MessageBoxCritical;
    item->setIcon(style()->standardIcon(icon));
  }
}

QStringList JobDesignerWidget::fitLines() const {
  QStringList lines;
  for (int row = 0; row < fit_->count(); ++row) lines << fit_->item(row)->text();
  return lines;
}

std::optional<JobSpec> JobDesignerWidget::validSpec() const {
  if (!check_.valid()) return std::nullopt;
  return check_.spec;
}

QString JobDesignerWidget::yamlPreview() const {
  return yaml_->toPlainText();
}

void JobDesignerWidget::setHadoopSetup(const HadoopSetup& setup) {
  applicationPage_->setHadoopSetup(setup);
}

void JobDesignerWidget::setClusterInfo(const ClusterInfo& info) {
  cluster_ = info;
  applicationPage_->setClusterInfo(info);
  for (auto* page : std::as_const(taskPages_)) page->setClusterInfo(info);
  validateNow();
}

QStringList JobDesignerWidget::taskTypes() const {
  QStringList types;
  for (int row = 1; row < navigation_->count(); ++row) types << navigation_->item(row)->data(typeRole).toString();
  return types;
}

TaskTypePage* JobDesignerWidget::taskPage(const QString& type) const {
  return taskPages_.value(type);
}

QString JobDesignerWidget::messageFor(const QString& field) const {
  return messages_->messageFor(field);
}

QWidget* JobDesignerWidget::fieldWidget(const QString& field) const {
  return messages_->field(field);
}

QListWidgetItem* JobDesignerWidget::itemFor(const QString& type) const {
  for (int row = 0; row < navigation_->count(); ++row) {
    if (navigation_->item(row)->data(typeRole).toString() == type) return navigation_->item(row);
  }
  return nullptr;
}

void JobDesignerWidget::showPage(const QString& type) {
  if (auto* item = itemFor(type)) navigation_->setCurrentItem(item);
}

void JobDesignerWidget::goToField(const QString& field) {
  showPage(pageOf(field));
  const QString place = messages_->placeOf(field);
  if (QWidget* widget = messages_->field(place)) {
    widget->setFocus(Qt::OtherFocusReason);
    if (auto* area = qobject_cast<QScrollArea*>(pages_->currentWidget())) area->ensureWidgetVisible(widget);
  }
}

TaskTypePage* JobDesignerWidget::addTaskType(const QString& type) {
  if (auto* existing = taskPages_.value(type)) {
    showPage(type);
    return existing;
  }
  auto* page = new TaskTypePage(type, *messages_);
  page->setClusterInfo(cluster_);
  connect(page, &TaskTypePage::changed, this, &JobDesignerWidget::scheduleValidation);
  taskPages_.insert(type, page);
  // Known types in their canonical order, custom ones after them.
  const int rank = canonical_rank(ss(type));
  int row = 1;
  while (row < navigation_->count() && canonical_rank(ss(navigation_->item(row)->data(typeRole).toString())) <= rank) {
    ++row;
  }
  auto* item = new QListWidgetItem(type);
  item->setData(typeRole, type);
  navigation_->insertItem(row, item);
  pages_->insertWidget(row, scrolled(page));
  updateAddMenu();
  if (!loading_) {
    navigation_->setCurrentRow(row);
    scheduleValidation();
  }
  return page;
}

void JobDesignerWidget::removeTaskType(const QString& type) {
  auto* page = taskPages_.take(type);
  if (!page) return;
  messages_->removeUnder(QStringLiteral("tasks.") + type);
  for (int row = 1; row < navigation_->count(); ++row) {
    if (navigation_->item(row)->data(typeRole).toString() != type) continue;
    QWidget* area = pages_->widget(row);
    pages_->removeWidget(area);
    area->deleteLater();
    delete navigation_->takeItem(row);
    break;
  }
  updateAddMenu();
  scheduleValidation();
}

void JobDesignerWidget::removeCurrentTaskType() {
  auto* item = navigation_->currentItem();
  if (!item || navigation_->currentRow() == 0) return;
  const QString type = item->data(typeRole).toString();
  const auto answer =
      QMessageBox::question(this, tr("Remove task type"), tr("Remove “%1” and its settings from the job?").arg(type),
                            QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
  if (answer == QMessageBox::Yes) removeTaskType(type);
}

void JobDesignerWidget::updateAddMenu() {
  QMenu* menu = addTask_->menu();
  menu->clear();
  for (const char* known : knownTypes) {
    const QString type = QString::fromLatin1(known);
    QAction* action = menu->addAction(type, this, [this, type] { addTaskType(type); });
    action->setEnabled(!taskPages_.contains(type));
  }
  menu->addSeparator();
  menu->addAction(tr("&Custom task type…"), this, &JobDesignerWidget::addCustomTaskType);
}

void JobDesignerWidget::addCustomTaskType() {
  bool ok = false;
  const QString type = QInputDialog::getText(this, tr("Custom task type"),
                                             tr("Name of the task type (lower-case letters, digits and _):"),
                                             QLineEdit::Normal, QString(), &ok)
                           .trimmed();
  if (!ok || type.isEmpty()) return;
  if (taskPages_.contains(type)) {
    showPage(type);
    emit statusMessage(tr("The job already has the task type “%1”.").arg(type));
    return;
  }
  addTaskType(type);
}

}  // namespace spindle::gui
