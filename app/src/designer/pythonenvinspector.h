#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QTimer>

#include "cluster/hadoopsetup.h"

namespace spindle::gui {

// What the designer says about the chosen python_env: its size here and
// whether the cluster holds it already (so a submit uploads nothing).
// Looks in a worker thread, a moment after the last change.
class PythonEnvInspector : public QObject {
  Q_OBJECT

 public:
  struct Finding {
    QString choice;   // as typed
    QString summary;  // "venv, 2.1 GiB in 33,873 files; the cluster holds it (venv-….tar.gz)"
    bool problem = false;
  };

  explicit PythonEnvInspector(QObject* parent = nullptr);
  ~PythonEnvInspector() override;

  void setSetup(const HadoopSetup& setup);
  // Empty: no environment, nothing to say.
  void inspect(const QString& choice);

  static Finding look(const QString& choice, const HadoopSetup& setup, bool askCluster);

 signals:
  void inspected(const spindle::gui::PythonEnvInspector::Finding& finding);

 private:
  void start();

  HadoopSetup setup_;
  bool haveSetup_ = false;
  QString choice_;
  QTimer settle_;
  QFutureWatcher<Finding> watcher_;
  bool again_ = false;
};

}  // namespace spindle::gui
