#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QStringList>
#include <memory>
#include <vector>

#include "cluster/hadoopsetup.h"
#include "spindle/client/history_store.h"

namespace spindle::gui {

struct ScalarBatch {
  std::vector<client::MetricPoint> points;  // source "tfevents", run = log subdirectory
  QStringList problems;
};

// A job's training scalars, read from its TensorFlow event files off the UI
// thread: each poll brings what the writers added since the last one (the
// core's LogDirectoryReader), over the local file system or, for hdfs://
// directories, WebHDFS. The points also go into the history, as
// `spindle metrics` records them, when an application id is given.
class ScalarFeed : public QObject {
  Q_OBJECT

 public:
  explicit ScalarFeed(QObject* parent = nullptr);
  ~ScalarFeed() override;

  // The log directory (the job's output); an empty one reads nothing.
  void setDirectory(const QString& directory, const HadoopSetup& setup = {}, const QString& applicationId = {});
  const QString& directory() const { return directory_; }
  bool isBusy() const { return watcher_.isRunning(); }

 public slots:
  // Reads what is new; ignored while a read is under way.
  void poll();

 signals:
  void pointsArrived(const spindle::gui::ScalarBatch& batch);
  void polled();

 private:
  struct Reader;
  QString directory_;
  std::shared_ptr<Reader> reader_;
  QFutureWatcher<ScalarBatch> watcher_;
};

}  // namespace spindle::gui

Q_DECLARE_METATYPE(spindle::gui::ScalarBatch)
