#include "settings/localyarn.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>

namespace spindle::gui {

LocalYarn::LocalYarn(QObject* parent) : QObject(parent) {
  process_.setProcessChannelMode(QProcess::MergedChannels);
  connect(&process_, &QProcess::readyRead, this, [this] {
    while (process_.canReadLine()) emit output(QString::fromUtf8(process_.readLine()).trimmed());
  });
  connect(&process_, qOverload<int, QProcess::ExitStatus>(&QProcess::finished), this,
          [this](int code, QProcess::ExitStatus status) {
            const QString rest = QString::fromUtf8(process_.readAll()).trimmed();
            if (!rest.isEmpty()) emit output(rest);
            if (status != QProcess::NormalExit || code != 0) {
              emit failed(tr("spindle local up ended with exit code %1; its output says why.").arg(code));
              return;
            }
            const QString directory = runningConfDir();
            if (directory.isEmpty()) {
              emit failed(tr("The local YARN started, but spindle local env names no configuration."));
            } else {
              emit started(directory);
            }
          });
  connect(&process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
    if (error == QProcess::FailedToStart) emit failed(tr("%1 could not be started.").arg(cliPath()));
  });
}

LocalYarn::~LocalYarn() {
  if (process_.state() != QProcess::NotRunning) {
    process_.terminate();
    process_.waitForFinished(3000);
  }
}

QString LocalYarn::cliPath() {
  const QString fromEnvironment = qEnvironmentVariable("SPINDLE_CLI");
  if (!fromEnvironment.isEmpty()) return fromEnvironment;
  const QString besides = QCoreApplication::applicationDirPath() + QStringLiteral("/spindle");
  if (QFileInfo(besides).isExecutable()) return besides;
  if (QFileInfo(QStringLiteral(SPINDLE_BUILD_CLI)).isExecutable()) return QStringLiteral(SPINDLE_BUILD_CLI);
  const QString onPath = QStandardPaths::findExecutable(QStringLiteral("spindle"));
  return onPath.isEmpty() ? QStringLiteral("spindle") : onPath;
}

QString LocalYarn::runningConfDir() {
  QProcess env;
  env.start(cliPath(), {QStringLiteral("local"), QStringLiteral("env")});
  if (!env.waitForFinished(15000) || env.exitStatus() != QProcess::NormalExit || env.exitCode() != 0) return {};
  static const QRegularExpression line(QStringLiteral(R"(HADOOP_CONF_DIR=['"]?([^'"\n]+))"));
  const auto match = line.match(QString::fromUtf8(env.readAllStandardOutput()));
  return match.hasMatch() ? match.captured(1).trimmed() : QString();
}

void LocalYarn::start() {
  if (isRunning()) return;
  emit output(QStringLiteral("$ %1 local up").arg(cliPath()));
  process_.start(cliPath(), {QStringLiteral("local"), QStringLiteral("up")});
}

bool LocalYarn::isRunning() const {
  return process_.state() != QProcess::NotRunning;
}

}  // namespace spindle::gui
