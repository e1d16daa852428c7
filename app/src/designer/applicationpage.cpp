#include "designer/applicationpage.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include "appsettings.h"
#include "convert.h"
#include "designer/formrows.h"
#include "designer/keyvaluetable.h"
#include "designer/limitedspinbox.h"
#include "designer/pythonenvinspector.h"
#include "spindle/core/quantities.h"

namespace spindle::gui {
namespace {

KeyValueTable::Pairs toPairs(const std::map<std::string, std::string>& values) {
  KeyValueTable::Pairs pairs;
  for (const auto& [key, value] : values) pairs.append({qs(key), qs(value)});
  return pairs;
}

nlohmann::ordered_json toObject(const KeyValueTable::Pairs& pairs) {
  auto object = nlohmann::ordered_json::object();
  for (const auto& [key, value] : pairs) object[ss(key)] = ss(value);
  return object;
}

// The items of a comma-separated field, without the blanks around them and
// without empty ones (a trailing comma while typing).
QStringList commaSeparated(const QString& text) {
  QStringList items;
  for (const QString& item : text.split(QLatin1Char(','))) {
    if (!item.trimmed().isEmpty()) items << item.trimmed();
  }
  return items;
}

QPushButton* browseButton(const QString& tip, QWidget* parent) {
  auto* button = new QPushButton(QStringLiteral("…"), parent);
  button->setToolTip(tip);
  button->setAccessibleName(tip);
  return button;
}

}  // namespace

ApplicationPage::ApplicationPage(FieldMessages& messages, QWidget* parent) : QWidget(parent) {
  name_ = new QLineEdit;
  name_->setPlaceholderText(tr("e.g. wine-quality (default: the file's name)"));
  queue_ = new QComboBox;
  queue_->setEditable(true);
  queue_->setInsertPolicy(QComboBox::NoInsert);
  queue_->setCurrentText(QStringLiteral("default"));
  queueHint_ = hintLabel();
  priority_ = new QSpinBox;
  priority_->setRange(0, 1000000);
  priority_->setToolTip(tr("YARN's application priority; higher runs first where the scheduler allows it"));
  framework_ = new QComboBox;
  framework_->addItem(QStringLiteral("TensorFlow"), QStringLiteral("tensorflow"));
  framework_->addItem(QStringLiteral("PyTorch"), QStringLiteral("pytorch"));
  framework_->addItem(tr("Generic (any command)"), QStringLiteral("generic"));
  output_ = new QLineEdit;
  output_->setPlaceholderText(tr("e.g. hdfs:///user/me/runs/wine"));
  output_->setToolTip(tr("DTF_OUTPUT_PATH and SPINDLE_OUTPUT; TensorBoard's log directory"));
  input_ = new QLineEdit;
  input_->setPlaceholderText(tr("optional; given to tasks as DTF_INPUT_PATH"));
  script_ = new QLineEdit;
  script_->setPlaceholderText(tr("optional; shipped and named in DTF_TASK_SCRIPT"));
  auto* browseOutput = browseButton(tr("Choose a local output directory"), this);
  auto* browseScript = browseButton(tr("Choose the script"), this);
  files_ = new KeyValueTable(KeyValueTable::Kind::files);
  archives_ = new KeyValueTable(KeyValueTable::Kind::archives);
  env_ = new KeyValueTable(KeyValueTable::Kind::variables);
  pythonEnv_ = new QLineEdit;
  pythonEnv_->setPlaceholderText(tr("none: the nodes' own Python; or current, a venv's directory, an archive"));
  pythonEnv_->setToolTip(
      tr("The Python environment every task runs with (python_env). current is the active venv; it is packed once, "
         "kept on the cluster under a name that changes with its content, and unpacked once per node"));
  pythonEnvHint_ = hintLabel();
  pythonEnvHint_->setWordWrap(true);
  pythonEnvHint_->setProperty("spindleDynamicText", true);  // paths and core's sentences
  pythonEnvInspector_ = new PythonEnvInspector(this);
  auto* useCurrent = new QPushButton(tr("C&urrent"));
  useCurrent->setToolTip(tr("Ship the environment spindle-gui runs in (VIRTUAL_ENV, or the first python3 on PATH)"));
  auto* browseEnvironment = browseButton(tr("Choose a venv's directory"), this);
  auto* environmentButtons = new QWidget;
  auto* environmentButtonsLayout = new QHBoxLayout(environmentButtons);
  environmentButtonsLayout->setContentsMargins(0, 0, 0, 0);
  environmentButtonsLayout->addWidget(useCurrent);
  environmentButtonsLayout->addWidget(browseEnvironment);

  tags_ = new QLineEdit;
  tags_->setPlaceholderText(tr("comma-separated, e.g. nightly, team-a"));
  maxAttempts_ = new QSpinBox;
  maxAttempts_->setRange(1, 100);
  maxAttempts_->setToolTip(tr("How often YARN may start the application master"));
  timeout_ = new QLineEdit;
  timeout_->setPlaceholderText(tr("no limit; e.g. 90m or 2h"));
  // Empty means core's default, so the placeholders name it.
  heartbeatTimeout_ = new QLineEdit;
  heartbeatTimeout_->setPlaceholderText(tr("60s (default); 0 turns the check off"));
  heartbeatTimeout_->setToolTip(
      tr("A running task whose executor sends no heartbeat for this long is lost; executors beat every 5 s"));
  replacementTimeout_ = new QLineEdit;
  replacementTimeout_->setPlaceholderText(tr("10m (default); 0 waits as long as it takes"));
  replacementTimeout_->setToolTip(
      tr("How long a task whose node was lost waits for a container on another node before the job fails"));
  allocationTimeout_ = new QLineEdit;
  allocationTimeout_->setPlaceholderText(tr("10m (default); 0 waits as long as it takes"));
  allocationTimeout_->setToolTip(
      tr("How long the tasks may take to get all their containers before the job gives back every one it holds"));
  onAllocationTimeout_ = new QComboBox;
  onAllocationTimeout_->addItem(tr("Fail the job"), QStringLiteral("fail"));
  onAllocationTimeout_->addItem(tr("Wait holding nothing, then try again"), QStringLiteral("retry"));
  stallTimeout_ = new QLineEdit;
  stallTimeout_->setPlaceholderText(tr("off (default); 30s or more"));
  stallTimeout_->setToolTip(
      tr("A running task that writes nothing (stdout, stderr, the output) and uses under 5% of "
         "a core for this long is stalled"));
  onStall_ = new QComboBox;
  onStall_->addItem(tr("Report it"), QStringLiteral("report"));
  onStall_->addItem(tr("Restart the task"), QStringLiteral("restart"));
  onStall_->addItem(tr("Fail the task"), QStringLiteral("fail"));
  dockerImage_ = new QLineEdit;
  dockerImage_->setPlaceholderText(tr("optional; passed on as DTF_DOCKER_IMAGE"));
  fileSystems_ = new QLineEdit;
  fileSystems_->setPlaceholderText(tr("comma-separated, e.g. hdfs://nn2:8020, webhdfs://nn3:9870"));
  fileSystems_->setToolTip(
      tr("NameNodes besides the default file system that the job uses; on a Kerberos cluster it gets delegation "
         "tokens for each"));
  principal_ = new QLineEdit;
  principal_->setPlaceholderText(tr("optional; e.g. alice@EXAMPLE.COM, with its keytab"));
  principal_->setToolTip(
      tr("On a Kerberos cluster: the principal the job runs as. With its keytab the job's application master gets "
         "new delegation tokens before the old ones end, so the job may run longer than their maximum lifetime"));
  keytab_ = new QLineEdit;
  keytab_->setPlaceholderText(tr("the principal's keytab file"));
  keytab_->setToolTip(
      tr("Goes to the job's application master alone, readable only by you, and is removed from "
         "the cluster when the job ends"));
  auto* browseKeytab = browseButton(tr("Choose the keytab"), this);
  amMemory_ = new QLineEdit;
  amMemory_->setPlaceholderText(tr("256 MiB"));
  amVcores_ = new LimitedSpinBox(1, 1024);
  amHint_ = hintLabel();

  auto* general = new QGroupBox(tr("Application"));
  auto* generalForm = new QFormLayout(general);
  generalForm->addRow(tr("&Name:"), fieldWithMessage(messages, QStringLiteral("name"), name_));
  generalForm->addRow(tr("&Queue:"), fieldWithMessage(messages, QStringLiteral("queue"), queue_, queueHint_));
  generalForm->addRow(tr("&Priority:"), fieldWithMessage(messages, QStringLiteral("priority"), priority_));
  generalForm->addRow(tr("&Framework:"), fieldWithMessage(messages, QStringLiteral("framework"), framework_));
  generalForm->addRow(tr("&Output directory:"),
                      fieldWithMessage(messages, QStringLiteral("output"), output_, browseOutput));
  generalForm->addRow(tr("&Input:"), fieldWithMessage(messages, QStringLiteral("input"), input_));
  generalForm->addRow(tr("&Script:"), fieldWithMessage(messages, QStringLiteral("script"), script_, browseScript));

  auto* shipped = new QGroupBox(tr("Shipped to every container"));
  auto* shippedForm = new QFormLayout(shipped);
  shippedForm->addRow(tr("F&iles:"), fieldWithMessage(messages, QStringLiteral("files"), files_));
  shippedForm->addRow(tr("&Archives:"), fieldWithMessage(messages, QStringLiteral("archives"), archives_));
  shippedForm->addRow(tr("&Environment:"), fieldWithMessage(messages, QStringLiteral("env"), env_));
  shippedForm->addRow(tr("P&ython environment:"),
                      fieldWithMessage(messages, QStringLiteral("python_env"), pythonEnv_, environmentButtons));
  shippedForm->addRow(QString(), pythonEnvHint_);

  auto* advanced = new QGroupBox(tr("Advanced"));
  auto* advancedForm = new QFormLayout(advanced);
  // One letter per row, so Alt+letter goes straight to its field instead of
  // cycling; the newer rows take letters the rest of the page, the designer
  // and the menu bar leave free.
  advancedForm->addRow(tr("&Tags:"), fieldWithMessage(messages, QStringLiteral("tags"), tags_));
  advancedForm->addRow(tr("Ma&x attempts:"), fieldWithMessage(messages, QStringLiteral("max_attempts"), maxAttempts_));
  advancedForm->addRow(tr("Time&out:"), fieldWithMessage(messages, QStringLiteral("timeout"), timeout_));
  advancedForm->addRow(tr("Heartbeat timeo&ut:"),
                       fieldWithMessage(messages, QStringLiteral("heartbeat_timeout"), heartbeatTimeout_));
  advancedForm->addRow(tr("&Replacement timeout:"),
                       fieldWithMessage(messages, QStringLiteral("replacement_timeout"), replacementTimeout_));
  advancedForm->addRow(tr("&Allocation timeout:"),
                       fieldWithMessage(messages, QStringLiteral("allocation_timeout"), allocationTimeout_));
  advancedForm->addRow(tr("When not all &granted:"),
                       fieldWithMessage(messages, QStringLiteral("on_allocation_timeout"), onAllocationTimeout_));
  advancedForm->addRow(tr("Stall t&imeout:"),
                       fieldWithMessage(messages, QStringLiteral("stall_timeout"), stallTimeout_));
  advancedForm->addRow(tr("When a task &stalls:"), fieldWithMessage(messages, QStringLiteral("on_stall"), onStall_));
  advancedForm->addRow(tr("&Docker image:"), fieldWithMessage(messages, QStringLiteral("docker_image"), dockerImage_));
  advancedForm->addRow(tr("Fi&le systems:"), fieldWithMessage(messages, QStringLiteral("file_systems"), fileSystems_));
  advancedForm->addRow(tr("Kerberos prin&cipal:"),
                       fieldWithMessage(messages, QStringLiteral("kerberos.principal"), principal_));
  advancedForm->addRow(tr("&Keytab:"),
                       fieldWithMessage(messages, QStringLiteral("kerberos.keytab"), keytab_, browseKeytab));
  advancedForm->addRow(tr("Application master &memory:"),
                       fieldWithMessage(messages, QStringLiteral("application_master.memory"), amMemory_, amHint_));
  advancedForm->addRow(tr("Application master &vcores:"),
                       fieldWithMessage(messages, QStringLiteral("application_master.vcores"), amVcores_));

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(general);
  layout->addWidget(shipped);
  layout->addWidget(advanced);
  layout->addStretch();

  connect(browseOutput, &QPushButton::clicked, this, [this] {
    const QString directory = QFileDialog::getExistingDirectory(this, tr("Output directory"), output_->text());
    if (!directory.isEmpty()) output_->setText(directory);
  });
  connect(browseScript, &QPushButton::clicked, this, [this] {
    const QString file = QFileDialog::getOpenFileName(this, tr("Script"), AppSettings::lastSpecDirectory());
    if (!file.isEmpty()) script_->setText(file);
  });
  connect(browseKeytab, &QPushButton::clicked, this, [this] {
    const QString file = QFileDialog::getOpenFileName(this, tr("Keytab"), keytab_->text());
    if (!file.isEmpty()) keytab_->setText(file);
  });
  connect(useCurrent, &QPushButton::clicked, this, [this] { pythonEnv_->setText(QStringLiteral("current")); });
  connect(browseEnvironment, &QPushButton::clicked, this, [this] {
    const QString directory = QFileDialog::getExistingDirectory(this, tr("Python environment"), pythonEnv_->text());
    if (!directory.isEmpty()) pythonEnv_->setText(directory);
  });
  connect(pythonEnv_, &QLineEdit::textChanged, pythonEnvInspector_, &PythonEnvInspector::inspect);
  connect(pythonEnvInspector_, &PythonEnvInspector::inspected, this, [this](const PythonEnvInspector::Finding& found) {
    pythonEnvHint_->setText(found.summary);
    pythonEnvHint_->setProperty("problem", found.problem);
  });
  for (auto* edit :
       {name_, output_, input_, script_, tags_, timeout_, heartbeatTimeout_, replacementTimeout_, allocationTimeout_,
        stallTimeout_, dockerImage_, fileSystems_, principal_, keytab_, amMemory_, pythonEnv_}) {
    connect(edit, &QLineEdit::textChanged, this, &ApplicationPage::changed);
  }
  connect(onAllocationTimeout_, qOverload<int>(&QComboBox::currentIndexChanged), this, &ApplicationPage::changed);
  connect(onStall_, qOverload<int>(&QComboBox::currentIndexChanged), this, &ApplicationPage::changed);
  connect(queue_, &QComboBox::currentTextChanged, this, &ApplicationPage::changed);
  connect(framework_, qOverload<int>(&QComboBox::currentIndexChanged), this, &ApplicationPage::changed);
  for (auto* spin : {priority_, maxAttempts_, static_cast<QSpinBox*>(amVcores_)}) {
    connect(spin, qOverload<int>(&QSpinBox::valueChanged), this, &ApplicationPage::changed);
  }
  for (auto* table : {files_, archives_, env_})
    connect(table, &KeyValueTable::changed, this, &ApplicationPage::changed);
}

void ApplicationPage::load(const JobSpec& spec) {
  QSignalBlocker blockers[] = {QSignalBlocker(name_),
                               QSignalBlocker(queue_),
                               QSignalBlocker(priority_),
                               QSignalBlocker(framework_),
                               QSignalBlocker(output_),
                               QSignalBlocker(input_),
                               QSignalBlocker(script_),
                               QSignalBlocker(files_),
                               QSignalBlocker(archives_),
                               QSignalBlocker(env_),
                               QSignalBlocker(pythonEnv_),
                               QSignalBlocker(tags_),
                               QSignalBlocker(maxAttempts_),
                               QSignalBlocker(timeout_),
                               QSignalBlocker(heartbeatTimeout_),
                               QSignalBlocker(replacementTimeout_),
                               QSignalBlocker(allocationTimeout_),
                               QSignalBlocker(onAllocationTimeout_),
                               QSignalBlocker(stallTimeout_),
                               QSignalBlocker(onStall_),
                               QSignalBlocker(dockerImage_),
                               QSignalBlocker(fileSystems_),
                               QSignalBlocker(principal_),
                               QSignalBlocker(keytab_),
                               QSignalBlocker(amMemory_),
                               QSignalBlocker(amVcores_)};
  name_->setText(qs(spec.name));
  queue_->setCurrentText(qs(spec.queue));
  priority_->setValue(spec.priority);
  framework_->setCurrentIndex(framework_->findData(qs(std::string(to_string(spec.framework)))));
  output_->setText(qs(spec.output));
  input_->setText(qs(spec.input));
  KeyValueTable::Pairs files;
  QString script;
  for (const auto& file : spec.files) {
    if (!spec.script.empty() && file.name == spec.script) {
      script = qs(file.source);
    } else {
      files.append({qs(file.name), qs(file.source)});
    }
  }
  script_->setText(script);
  files_->setPairs(files);
  KeyValueTable::Pairs archives;
  for (const auto& archive : spec.archives) archives.append({qs(archive.name), qs(archive.source)});
  archives_->setPairs(archives);
  env_->setPairs(toPairs(spec.env));
  tags_->setText(toStringList(spec.tags).join(QStringLiteral(", ")));
  maxAttempts_->setValue(spec.max_attempts);
  timeout_->setText(spec.timeout.count() > 0 ? qs(format_duration(spec.timeout)) : QString());
  // A default stays empty, so the saved spec keeps following core's default
  // instead of freezing today's value into the file.
  const JobSpec defaults;
  heartbeatTimeout_->setText(
      spec.heartbeat_timeout != defaults.heartbeat_timeout ? qs(format_duration(spec.heartbeat_timeout)) : QString());
  replacementTimeout_->setText(spec.replacement_timeout != defaults.replacement_timeout
                                   ? qs(format_duration(spec.replacement_timeout))
                                   : QString());
  allocationTimeout_->setText(spec.allocation_timeout != defaults.allocation_timeout
                                  ? qs(format_duration(spec.allocation_timeout))
                                  : QString());
  onAllocationTimeout_->setCurrentIndex(
      onAllocationTimeout_->findData(qs(std::string(to_string(spec.on_allocation_timeout)))));
  stallTimeout_->setText(spec.stall_timeout.count() > 0 ? qs(format_duration(spec.stall_timeout)) : QString());
  onStall_->setCurrentIndex(onStall_->findData(qs(std::string(to_string(spec.on_stall)))));
  dockerImage_->setText(qs(spec.docker_image));
  pythonEnv_->setText(qs(spec.python_env));
  pythonEnvInspector_->inspect(pythonEnv_->text());
  fileSystems_->setText(toStringList(spec.file_systems).join(QStringLiteral(", ")));
  principal_->setText(spec.kerberos ? qs(spec.kerberos->principal) : QString());
  keytab_->setText(spec.kerberos ? qs(spec.kerberos->keytab) : QString());
  amMemory_->setText(qs(format_memory_mib(spec.application_master.memory_mib)));
  amVcores_->setValueKeepingRange(spec.application_master.vcores);
}

void ApplicationPage::write(nlohmann::ordered_json& document) const {
  auto text = [](const QLineEdit* edit) { return edit->text().trimmed(); };
  if (!text(name_).isEmpty()) document["name"] = ss(text(name_));
  if (const QString queue = queue_->currentText().trimmed(); !queue.isEmpty()) document["queue"] = ss(queue);
  document["priority"] = priority_->value();
  if (const QStringList tags = commaSeparated(tags_->text()); !tags.isEmpty()) {
    auto list = nlohmann::ordered_json::array();
    for (const QString& tag : tags) list.push_back(ss(tag));
    document["tags"] = list;
  }
  document["max_attempts"] = maxAttempts_->value();
  if (!text(timeout_).isEmpty()) document["timeout"] = ss(text(timeout_));
  if (!text(heartbeatTimeout_).isEmpty()) document["heartbeat_timeout"] = ss(text(heartbeatTimeout_));
  if (!text(replacementTimeout_).isEmpty()) document["replacement_timeout"] = ss(text(replacementTimeout_));
  if (!text(allocationTimeout_).isEmpty()) document["allocation_timeout"] = ss(text(allocationTimeout_));
  if (const QString action = onAllocationTimeout_->currentData().toString(); action != QLatin1String("fail")) {
    document["on_allocation_timeout"] = ss(action);
  }
  if (!text(stallTimeout_).isEmpty()) document["stall_timeout"] = ss(text(stallTimeout_));
  if (const QString action = onStall_->currentData().toString(); action != QLatin1String("report")) {
    document["on_stall"] = ss(action);
  }
  document["framework"] = ss(framework_->currentData().toString());
  if (const auto files = files_->pairs(); !files.isEmpty()) document["files"] = toObject(files);
  if (const auto archives = archives_->pairs(); !archives.isEmpty()) document["archives"] = toObject(archives);
  if (!text(script_).isEmpty()) document["script"] = ss(text(script_));
  if (const auto env = env_->pairs(); !env.isEmpty()) document["env"] = toObject(env);
  if (!text(input_).isEmpty()) document["input"] = ss(text(input_));
  if (!text(output_).isEmpty()) document["output"] = ss(text(output_));
  if (!text(dockerImage_).isEmpty()) document["docker_image"] = ss(text(dockerImage_));
  if (!text(pythonEnv_).isEmpty()) document["python_env"] = ss(text(pythonEnv_));
  if (const QStringList uris = commaSeparated(fileSystems_->text()); !uris.isEmpty()) {
    auto list = nlohmann::ordered_json::array();
    for (const QString& uri : uris) list.push_back(ss(uri));
    document["file_systems"] = list;
  }
  // One without the other is written as it is, for the spec's own sentence.
  if (!text(principal_).isEmpty() || !text(keytab_).isEmpty()) {
    auto login = nlohmann::ordered_json::object();
    if (!text(principal_).isEmpty()) login["principal"] = ss(text(principal_));
    if (!text(keytab_).isEmpty()) login["keytab"] = ss(text(keytab_));
    document["kerberos"] = login;
  }
  auto master = nlohmann::ordered_json::object();
  if (!text(amMemory_).isEmpty()) master["memory"] = ss(text(amMemory_));
  master["vcores"] = amVcores_->value();
  document["application_master"] = master;
}

void ApplicationPage::setHadoopSetup(const HadoopSetup& setup) {
  pythonEnvInspector_->setSetup(setup);
}

void ApplicationPage::setClusterInfo(const ClusterInfo& info) {
  const QString current = queue_->currentText();
  QSignalBlocker blocker(queue_);
  queue_->clear();
  queue_->addItems(info.queues);
  queue_->setCurrentText(current);
  amVcores_->setClusterLimit(info.known ? info.maxVcores : -1);
  if (info.known) {
    queueHint_->setText(tr("%n queue(s) on this cluster", nullptr, static_cast<int>(info.queues.size())));
    amHint_->setText(tr("at most %1").arg(formatMemory(static_cast<quint64>(info.maxMemoryMib))));
  } else {
    queueHint_->clear();
    amHint_->clear();
  }
}

}  // namespace spindle::gui
