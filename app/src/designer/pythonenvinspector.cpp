#include "designer/pythonenvinspector.h"

#include <QLocale>
#include <QtConcurrent>

#include "convert.h"
#include "spindle/client/python_env.h"
#include "spindle/core/python_env_path.h"

namespace spindle::gui {

PythonEnvInspector::PythonEnvInspector(QObject* parent) : QObject(parent) {
  settle_.setSingleShot(true);
  settle_.setInterval(400);
  connect(&settle_, &QTimer::timeout, this, &PythonEnvInspector::start);
  connect(&watcher_, &QFutureWatcherBase::finished, this, [this] {
    const Finding finding = watcher_.result();
    if (finding.choice == choice_) emit inspected(finding);
    if (again_) {
      again_ = false;
      start();
    }
  });
}

PythonEnvInspector::~PythonEnvInspector() {
  watcher_.waitForFinished();
}

void PythonEnvInspector::setSetup(const HadoopSetup& setup) {
  setup_ = setup;
  haveSetup_ = true;
  if (!choice_.isEmpty()) settle_.start();
}

void PythonEnvInspector::inspect(const QString& choice) {
  choice_ = choice.trimmed();
  if (choice_.isEmpty()) {
    settle_.stop();
    emit inspected(Finding{});
    return;
  }
  settle_.start();
}

void PythonEnvInspector::start() {
  if (watcher_.isRunning()) {
    again_ = true;
    return;
  }
  watcher_.setFuture(QtConcurrent::run(&PythonEnvInspector::look, choice_, setup_, haveSetup_));
}

PythonEnvInspector::Finding PythonEnvInspector::look(const QString& choice, const HadoopSetup& setup, bool askCluster) {
  Finding finding{choice, {}, true};
  if (auto installed = python_env_on_nodes(ss(choice))) {
    finding.problem = false;
    finding.summary = tr("installed on every node at %1; nothing is shipped").arg(qs(*installed));
    return finding;
  }
  auto located = client::locate_python_env(ss(choice));
  if (!located) {
    finding.summary = qs(located.error().message);
    return finding;
  }
  auto summary = client::summarize_python_env(*located);
  if (!summary) {
    finding.summary = qs(summary.error().message);
    return finding;
  }
  finding.problem = false;
  const QString size = formatBytes(summary->bytes);
  finding.summary = summary->files > 1
                        ? tr("%1 in %2 files").arg(size, QLocale().toString(static_cast<qulonglong>(summary->files)))
                        : size;
  finding.summary = qs(located->path.string()) + QStringLiteral(": ") + finding.summary + QStringLiteral("; ");
  if (!askCluster) return finding.summary += tr("no cluster to ask whether it holds it"), finding;
  auto service = setup.service();
  if (!service) return finding.summary += tr("no cluster is set up to ask whether it holds it"), finding;
  auto found = (*service)->holds_python_env(summary->name);
  if (!found) {
    finding.summary += tr("could not ask the cluster whether it holds it (%1)").arg(qs(found.error().message));
  } else if (!found->has_value()) {
    finding.summary += tr("the Spindle server packs and ships it from its own machine at submit");
  } else if (**found) {
    finding.summary += tr("the cluster holds it as %1; a submit uploads nothing").arg(qs(summary->name));
  } else {
    finding.summary +=
        tr("the cluster does not hold it yet; the first submit packs and uploads it as %1").arg(qs(summary->name));
  }
  return finding;
}

}  // namespace spindle::gui
