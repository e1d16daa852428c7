#include "designer/tasktypepage.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

#include "convert.h"
#include "designer/fieldmessages.h"
#include "designer/formrows.h"
#include "designer/keyvaluetable.h"
#include "designer/limitedspinbox.h"
#include "spindle/core/quantities.h"

namespace spindle::gui {

QString TaskTypePage::describe(const QString& type) {
  if (type == QLatin1String("chief")) {
    return tr("Coordinates training and writes checkpoints. Its success ends the job.");
  }
  if (type == QLatin1String("worker")) {
    return tr(
        "Computes the training steps. Without a chief, worker 0 leads and the job succeeds once every worker has.");
  }
  if (type == QLatin1String("ps")) {
    return tr("Holds the model's variables for ParameterServerStrategy. A service: stopped when the job ends.");
  }
  if (type == QLatin1String("evaluator")) {
    return tr("Scores checkpoints as they appear. Outside the training cluster; may finish after the chief.");
  }
  if (type == QLatin1String("tensorboard")) {
    return tr("Serves TensorBoard over the job's output directory; with no command it runs TensorBoard itself.");
  }
  return tr(
      "A task type of your own. It sees the cluster's addresses but is not part of TensorFlow's training "
      "cluster.");
}

TaskTypePage::TaskTypePage(const QString& type, FieldMessages& messages, QWidget* parent)
    : QWidget(parent), type_(type) {
  const QString path = QStringLiteral("tasks.") + type;
  auto field = [&](const char* key) { return path + QLatin1Char('.') + QLatin1String(key); };

  auto* title = new QLabel(type);
  QFont titleFont = title->font();
  titleFont.setPointSizeF(titleFont.pointSizeF() * 1.4);
  titleFont.setBold(true);
  title->setFont(titleFont);
  auto* description = new QLabel(describe(type));
  description->setWordWrap(true);
  auto* header = new QWidget;
  auto* headerLayout = new QVBoxLayout(header);
  headerLayout->setContentsMargins(0, 0, 0, 0);
  headerLayout->addWidget(title);
  headerLayout->addWidget(description);
  headerLayout->addWidget(messages.add(path, header, header));

  instances_ = new LimitedSpinBox(1, 10000);
  memory_ = new QLineEdit;
  memory_->setPlaceholderText(tr("e.g. 2 GiB, 512 MiB or 2048"));
  memory_->setToolTip(tr("Bare numbers are MiB; units are binary (KiB, MiB, GiB, TiB)"));
  memoryHint_ = hintLabel();
  vcores_ = new LimitedSpinBox(1, 1024);
  vcoresHint_ = hintLabel();
  gpus_ = new LimitedSpinBox(0, 64);
  gpus_->setToolTip(tr("yarn.io/gpu per container"));
  gpusHint_ = hintLabel();
  processes_ = new QSpinBox;
  processes_->setRange(1, 64);
  processes_->setToolTip(
      tr("Copies of the command in each container, each a rank of PyTorch's group (torchrun's --nproc-per-node)"));
  nodeLabel_ = new QComboBox;
  nodeLabel_->setEditable(true);
  nodeLabel_->setInsertPolicy(QComboBox::NoInsert);
  nodeLabel_->lineEdit()->setPlaceholderText(tr("any node without an exclusive label"));
  command_ = new QLineEdit;
  command_->setPlaceholderText(type == QLatin1String("tensorboard")
                                   ? tr("empty: run TensorBoard on the output directory")
                                   : tr("e.g. python train.py"));
  command_->setToolTip(tr("Run by /bin/sh in the container's working directory, with the task's environment"));
  env_ = new KeyValueTable(KeyValueTable::Kind::variables);
  maxRestarts_ = new QSpinBox;
  maxRestarts_->setRange(0, 1000);
  maxRestarts_->setToolTip(tr("How often a failed task is started again before it counts as failed"));
  role_ = new QComboBox;
  role_->addItem(tr("Tracked: the job waits for it"), QStringLiteral("tracked"));
  role_->addItem(tr("Service: stopped when the job ends"), QStringLiteral("service"));
  failsJob_ = new QCheckBox(tr("Its failure fails the &job"));

  auto* resources = new QGroupBox(tr("Containers"));
  auto* resourcesForm = new QFormLayout(resources);
  resourcesForm->addRow(tr("&Instances:"), fieldWithMessage(messages, field("instances"), instances_));
  resourcesForm->addRow(tr("&Memory:"), fieldWithMessage(messages, field("memory"), memory_, memoryHint_));
  resourcesForm->addRow(tr("&Vcores:"), fieldWithMessage(messages, field("vcores"), vcores_, vcoresHint_));
  resourcesForm->addRow(tr("&GPUs:"), fieldWithMessage(messages, field("gpus"), gpus_, gpusHint_));
  if (type == QLatin1String("chief") || type == QLatin1String("worker")) {
    resourcesForm->addRow(tr("&Processes (PyTorch):"), fieldWithMessage(messages, field("processes"), processes_));
  } else {
    processes_->hide();
  }
  resourcesForm->addRow(tr("Node &label:"), fieldWithMessage(messages, field("node_label"), nodeLabel_));

  auto* running = new QGroupBox(tr("What it runs"));
  auto* runningForm = new QFormLayout(running);
  runningForm->addRow(tr("&Command:"), fieldWithMessage(messages, field("command"), command_));
  runningForm->addRow(tr("&Environment:"), fieldWithMessage(messages, field("env"), env_));
  runningForm->addRow(tr("Max &restarts:"), fieldWithMessage(messages, field("max_restarts"), maxRestarts_));
  runningForm->addRow(tr("R&ole:"), fieldWithMessage(messages, field("role"), role_));
  runningForm->addRow(QString(), fieldWithMessage(messages, field("fails_job"), failsJob_));

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(header);
  layout->addWidget(resources);
  layout->addWidget(running);
  layout->addStretch();

  load(default_task(ss(type)));
  connect(memory_, &QLineEdit::textChanged, this, &TaskTypePage::changed);
  connect(command_, &QLineEdit::textChanged, this, &TaskTypePage::changed);
  connect(nodeLabel_, &QComboBox::currentTextChanged, this, &TaskTypePage::changed);
  connect(role_, qOverload<int>(&QComboBox::currentIndexChanged), this, &TaskTypePage::changed);
  connect(failsJob_, &QCheckBox::toggled, this, &TaskTypePage::changed);
  connect(env_, &KeyValueTable::changed, this, &TaskTypePage::changed);
  for (QSpinBox* spin : {static_cast<QSpinBox*>(instances_), static_cast<QSpinBox*>(vcores_),
                         static_cast<QSpinBox*>(gpus_), processes_, maxRestarts_}) {
    connect(spin, qOverload<int>(&QSpinBox::valueChanged), this, &TaskTypePage::changed);
  }
}

void TaskTypePage::load(const TaskSpec& task) {
  const QSignalBlocker blockers[] = {QSignalBlocker(instances_), QSignalBlocker(memory_),      QSignalBlocker(vcores_),
                                     QSignalBlocker(gpus_),      QSignalBlocker(nodeLabel_),   QSignalBlocker(command_),
                                     QSignalBlocker(env_),       QSignalBlocker(maxRestarts_), QSignalBlocker(role_),
                                     QSignalBlocker(failsJob_),  QSignalBlocker(processes_)};
  instances_->setValueKeepingRange(task.instances);
  memory_->setText(qs(format_memory_mib(task.memory_mib)));
  vcores_->setValueKeepingRange(task.vcores);
  gpus_->setValueKeepingRange(task.gpus);
  processes_->setValue(task.processes);
  nodeLabel_->setCurrentText(qs(task.node_label));
  command_->setText(qs(task.command));
  KeyValueTable::Pairs env;
  for (const auto& [key, value] : task.env) env.append({qs(key), qs(value)});
  env_->setPairs(env);
  maxRestarts_->setValue(task.max_restarts);
  role_->setCurrentIndex(role_->findData(qs(std::string(to_string(task.role)))));
  failsJob_->setChecked(task.fails_job);
}

void TaskTypePage::write(nlohmann::ordered_json& tasks) const {
  auto entry = nlohmann::ordered_json::object();
  entry["instances"] = instances_->value();
  if (const QString memory = memory_->text().trimmed(); !memory.isEmpty()) entry["memory"] = ss(memory);
  entry["vcores"] = vcores_->value();
  entry["gpus"] = gpus_->value();
  if (processes_->value() != 1) entry["processes"] = processes_->value();
  if (const QString label = nodeLabel_->currentText().trimmed(); !label.isEmpty()) entry["node_label"] = ss(label);
  if (const QString command = command_->text().trimmed(); !command.isEmpty()) entry["command"] = ss(command);
  if (const auto env = env_->pairs(); !env.isEmpty()) {
    auto object = nlohmann::ordered_json::object();
    for (const auto& [key, value] : env) object[ss(key)] = ss(value);
    entry["env"] = object;
  }
  entry["max_restarts"] = maxRestarts_->value();
  entry["role"] = ss(role_->currentData().toString());
  entry["fails_job"] = failsJob_->isChecked();
  tasks[ss(type_)] = entry;
}

void TaskTypePage::setClusterInfo(const ClusterInfo& info) {
  const QString label = nodeLabel_->currentText();
  {
    QSignalBlocker blocker(nodeLabel_);
    nodeLabel_->clear();
    nodeLabel_->addItem(QString());
    nodeLabel_->addItems(info.nodeLabels);
    nodeLabel_->setCurrentText(label);
  }
  vcores_->setClusterLimit(info.known ? info.maxVcores : -1);
  gpus_->setClusterLimit(info.known ? info.maxGpus : -1);
  if (info.known) {
    memoryHint_->setText(tr("at most %1").arg(formatMemory(static_cast<quint64>(info.maxMemoryMib))));
    vcoresHint_->setText(tr("at most %1").arg(info.maxVcores));
    gpusHint_->setText(tr("at most %1").arg(info.maxGpus));
  } else {
    memoryHint_->clear();
    vcoresHint_->clear();
    gpusHint_->clear();
  }
}

}  // namespace spindle::gui
