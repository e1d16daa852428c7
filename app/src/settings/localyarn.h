#pragma once

#include <QObject>
#include <QProcess>
#include <QString>

namespace spindle::gui {

// The single-machine YARN of `spindle local`: starts it and finds its
// HADOOP_CONF_DIR, by running the spindle CLI.
class LocalYarn : public QObject {
  Q_OBJECT

 public:
  explicit LocalYarn(QObject* parent = nullptr);
  ~LocalYarn() override;

  // $SPINDLE_CLI, else spindle next to this program, else the build tree's,
  // else spindle on the PATH.
  static QString cliPath();
  // `spindle local env` of a running local YARN: its configuration
  // directory, or "" when it does not run.
  static QString runningConfDir();

  // `spindle local up` in the background.
  void start();
  bool isRunning() const;

 signals:
  void output(const QString& line);
  // The configuration directory once it accepts applications, or why not.
  void started(const QString& confDir);
  void failed(const QString& message);

 private:
  QProcess process_;
};

}  // namespace spindle::gui
