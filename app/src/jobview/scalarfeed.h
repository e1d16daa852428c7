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

// A job's training scalars, off the UI thread: each poll brings what the
// writers added since the last one. A job's come through the service
// (HadoopSetup::service), which keeps them in the history as `spindle
// metrics` does; a bare log directory is read here, over the local file
// system or, for hdfs:// ones, WebHDFS as HADOOP_CONF_DIR says.
class ScalarFeed : public QObject {
  Q_OBJECT

 public:
  explicit ScalarFeed(QObject* parent = nullptr);
  ~ScalarFeed() override;

  // A log directory of no job; an empty one reads nothing.
  void setDirectory(const QString& directory);
  // A job's scalars, under its output location, through `service` (or the
  // sentence for why there is none, told at each poll).
  void setJob(const QString& applicationId, const QString& outputLocation,
              Result<std::shared_ptr<client::JobService>> service);
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
