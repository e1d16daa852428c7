#include "designer/environmentpreview.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include "convert.h"
#include "spindle/core/cluster_spec.h"
#include "spindle/core/shell_quote.h"

namespace spindle::gui {

EnvironmentPreview::EnvironmentPreview(QWidget* parent) : QWidget(parent) {
  task_ = new QComboBox;
  task_->setToolTip(tr("The task whose environment is shown"));
  hosts_ = new QLineEdit;
  hosts_->setToolTip(
      tr("Every task's address as task=host:port, separated by commas; made-up ones until you "
         "enter real ones"));
  applicationId_ = new QLineEdit(QStringLiteral("application_0000000000000_0000"));
  table_ = new QTableWidget(0, 2);
  table_->setHorizontalHeaderLabels({tr("Variable"), tr("Value")});
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->verticalHeader()->setVisible(false);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setAlternatingRowColors(true);
  table_->setWordWrap(false);
  table_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  problem_ = new QLabel;
  problem_->setWordWrap(true);
  problem_->setVisible(false);
  problem_->setProperty("spindleDynamicText", true);  // core's sentence
  auto* copy = new QPushButton(tr("&Copy as shell exports"));
  copy->setToolTip(tr("Copy export NAME='value' lines that a shell can source"));

  auto* form = new QFormLayout;
  form->addRow(tr("&Task:"), task_);
  form->addRow(tr("&Hosts:"), hosts_);
  form->addRow(tr("Application &ID:"), applicationId_);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(problem_);
  layout->addWidget(table_, 1);
  layout->addWidget(copy, 0, Qt::AlignLeft);

  connect(task_, &QComboBox::currentTextChanged, this, &EnvironmentPreview::render);
  connect(hosts_, &QLineEdit::textChanged, this, &EnvironmentPreview::render);
  connect(applicationId_, &QLineEdit::textChanged, this, &EnvironmentPreview::render);
  connect(copy, &QPushButton::clicked, this, &EnvironmentPreview::copyAsShell);
  render();
}

QString EnvironmentPreview::placeholderHosts(const JobSpec& spec) {
  QStringList parts;
  for (const auto& task : spec.tasks) {
    for (int index = 0; index < task.instances; ++index) {
      const QString type = qs(task.type);
      parts << QStringLiteral("%1:%2=%1-%2:2222").arg(type).arg(index);
    }
  }
  return parts.join(QLatin1Char(','));
}

void EnvironmentPreview::setSpec(const std::optional<JobSpec>& spec) {
  spec_ = spec;
  if (spec_) {
    // Placeholders follow the job's tasks until the user types real addresses.
    const QString placeholder = placeholderHosts(*spec_);
    if (hosts_->text().isEmpty() || hosts_->text() == lastPlaceholder_) {
      QSignalBlocker blocker(hosts_);
      hosts_->setText(placeholder);
    }
    lastPlaceholder_ = placeholder;
    const QString current = task_->currentText();
    QStringList tasks;
    for (const auto& task : spec_->tasks) {
      for (int index = 0; index < task.instances; ++index)
        tasks << QStringLiteral("%1:%2").arg(qs(task.type)).arg(index);
    }
    QSignalBlocker blocker(task_);
    if (tasks != [this] {
          QStringList items;
          for (int i = 0; i < task_->count(); ++i) items << task_->itemText(i);
          return items;
        }()) {
      task_->clear();
      task_->addItems(tasks);
    }
    const int keep = task_->findText(current);
    task_->setCurrentIndex(keep >= 0 ? keep : 0);
  }
  render();
}

QString EnvironmentPreview::hosts() const {
  return hosts_->text();
}

void EnvironmentPreview::setHosts(const QString& hosts) {
  hosts_->setText(hosts);
}

QString EnvironmentPreview::task() const {
  return task_->currentText();
}

void EnvironmentPreview::setTask(const QString& task) {
  task_->setCurrentIndex(task_->findText(task));
}

QString EnvironmentPreview::applicationId() const {
  return applicationId_->text();
}

QString EnvironmentPreview::problem() const {
  return problem_->isHidden() ? QString() : problem_->text();
}

void EnvironmentPreview::render() {
  environment_.clear();
  QString problem;
  if (!spec_) {
    problem = tr("The environment is shown once the spec has no problems.");
  } else {
    auto addresses = parse_address_list(ss(hosts_->text()));
    auto task = parse_task_id(ss(task_->currentText()));
    if (!addresses) {
      problem = qs(addresses.error().message);
    } else if (!task) {
      problem = qs(task.error().message);
    } else if (auto cluster = ClusterAddresses::create(*spec_, std::move(*addresses)); !cluster) {
      problem = qs(cluster.error().message);
    } else {
      environment_ = task_environment(*spec_, *cluster, TaskContext{ss(applicationId_->text()), *task, 0});
    }
  }
  problem_->setText(problem);
  problem_->setVisible(!problem.isEmpty());
  table_->setRowCount(static_cast<int>(environment_.size()));
  int row = 0;
  for (const auto& [name, value] : environment_) {
    table_->setItem(row, 0, new QTableWidgetItem(qs(name)));
    auto* item = new QTableWidgetItem(qs(value));
    item->setToolTip(qs(value));
    table_->setItem(row, 1, item);
    ++row;
  }
  table_->resizeColumnToContents(0);
}

void EnvironmentPreview::copyAsShell() {
  QString text;
  for (const auto& [name, value] : environment_) {
    text += QStringLiteral("export %1=%2\n").arg(qs(name), qs(shell_quote(value)));
  }
  QApplication::clipboard()->setText(text);
}

}  // namespace spindle::gui
