#include "jobview/scalarfeed.h"

#include <QtConcurrent>
#include <optional>

#include "convert.h"
#include "spindle/client/hdfs_log_files.h"

namespace spindle::gui {

// Used by one worker at a time: a poll starts only when the last one ended.
struct ScalarFeed::Reader {
  // A job's scalars come through the service; a bare directory is read here.
  std::string applicationId;
  std::string outputLocation;
  Result<std::shared_ptr<client::JobService>> service = make_error("no service");
  std::string directory;
  std::optional<client::JobLogDirectory> opened;

  ScalarBatch poll() {
    ScalarBatch batch;
    if (!applicationId.empty()) {
      if (!service) {
        batch.problems << qs(service.error().message);
        return batch;
      }
      auto page = (*service)->new_scalars(applicationId, outputLocation);
      if (!page) {
        batch.problems << qs(page.error().message);
        return batch;
      }
      batch.points = std::move(page->points);
      for (const auto& problem : page->problems) batch.problems << qs(problem);
      return batch;
    }
    if (!opened) {
      auto made = client::JobLogDirectory::open(directory);
      if (!made) {
        batch.problems << qs(made.error().message);
        return batch;
      }
      opened.emplace(std::move(*made));
    }
    auto update = opened->poll();
    if (!update) {
      batch.problems << qs(update.error().message);
      return batch;
    }
    for (const auto& problem : update->problems) batch.problems << qs(problem.message);
    batch.points = client::training_points(*update);
    return batch;
  }
};

ScalarFeed::ScalarFeed(QObject* parent) : QObject(parent) {
  qRegisterMetaType<spindle::gui::ScalarBatch>();
  connect(&watcher_, &QFutureWatcherBase::finished, this, [this] {
    const ScalarBatch batch = watcher_.result();
    if (!batch.points.empty() || !batch.problems.isEmpty()) emit pointsArrived(batch);
    emit polled();
  });
}

ScalarFeed::~ScalarFeed() {
  watcher_.waitForFinished();
}

void ScalarFeed::setDirectory(const QString& directory) {
  watcher_.waitForFinished();
  directory_ = directory;
  reader_.reset();
  if (directory.isEmpty()) return;
  reader_ = std::make_shared<Reader>();
  reader_->directory = ss(directory);
}

void ScalarFeed::setJob(const QString& applicationId, const QString& outputLocation,
                        Result<std::shared_ptr<client::JobService>> service) {
  watcher_.waitForFinished();
  directory_ = outputLocation;
  reader_ = std::make_shared<Reader>();
  reader_->applicationId = ss(applicationId);
  reader_->outputLocation = ss(outputLocation);
  reader_->service = std::move(service);
}

void ScalarFeed::poll() {
  if (!reader_ || watcher_.isRunning()) return;
  watcher_.setFuture(QtConcurrent::run([reader = reader_] { return reader->poll(); }));
}

}  // namespace spindle::gui
