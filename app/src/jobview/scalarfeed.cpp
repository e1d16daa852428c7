#include "jobview/scalarfeed.h"

#include <QtConcurrent>
#include <mutex>

#include "convert.h"
#include "spindle/client/hdfs_log_files.h"
#include "spindle/core/tfevents.h"

namespace spindle::gui {

struct ScalarFeed::Reader {
  std::string directory;
  std::string applicationId;
  HadoopSetup setup;
  std::unique_ptr<LogFileSystem> files;
  std::unique_ptr<LogDirectoryReader> reader;
  std::unique_ptr<client::HistoryStore> history;
  bool historyTried = false;
  std::uint64_t serverNext = 0;  // through a Spindle server: the points seen so far
  std::optional<Result<client::DashboardClient>> server;

  // Through a Spindle server, which reads the event files itself.
  ScalarBatch pollServer() {
    ScalarBatch batch;
    if (!server) server.emplace(setup.dashboard());
    if (!*server) {
      batch.problems << qs(server->error().message);
      return batch;
    }
    auto page = (**server).metrics(applicationId, serverNext);
    if (!page) {
      batch.problems << qs(page.error().message);
      return batch;
    }
    serverNext = page->next;
    for (auto& point : page->points) {
      if (point.source != "container") batch.points.push_back(std::move(point));
    }
    return batch;
  }

  // Opens the file system on the first poll (WebHDFS needs the configuration).
  QString open() {
    if (reader) return {};
    if (directory.starts_with("hdfs://")) {
      auto configuration = setup.load();
      if (!configuration) return qs(configuration.error().message);
      auto hdfs = yarn::WebHdfs::from_configuration(*configuration);
      if (!hdfs) return qs(hdfs.error().message);
      files = std::make_unique<client::HdfsLogFileSystem>(std::move(*hdfs));
    } else {
      files = std::make_unique<LocalLogFileSystem>();
    }
    const std::string local = directory.starts_with("file://") ? directory.substr(7) : directory;
    reader = std::make_unique<LogDirectoryReader>(*files, local);
    return {};
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

void ScalarFeed::setDirectory(const QString& directory, const HadoopSetup& setup, const QString& applicationId) {
  watcher_.waitForFinished();
  directory_ = directory;
  reader_.reset();
  if (directory.isEmpty() && !setup.throughServer()) return;
  reader_ = std::make_shared<Reader>();
  reader_->directory = ss(directory);
  reader_->applicationId = ss(applicationId);
  reader_->setup = setup;
}

void ScalarFeed::poll() {
  if (!reader_ || watcher_.isRunning()) return;
  watcher_.setFuture(QtConcurrent::run([reader = reader_] {
    if (reader->setup.throughServer()) return reader->pollServer();
    ScalarBatch batch;
    if (const QString problem = reader->open(); !problem.isEmpty()) {
      batch.problems << problem;
      return batch;
    }
    auto update = reader->reader->poll();
    if (!update) {
      batch.problems << qs(update.error().message);
      return batch;
    }
    for (const auto& problem : update->problems) batch.problems << qs(problem.message);
    for (const auto& run : update->runs) {
      for (const auto& point : run.points) {
        batch.points.push_back({"tfevents", run.run, point.tag, point.step, point.wall_time, point.value});
      }
    }
    if (!reader->applicationId.empty() && !batch.points.empty()) {
      if (!reader->historyTried) {
        reader->historyTried = true;
        if (auto store = client::HistoryStore::open()) {
          reader->history = std::make_unique<client::HistoryStore>(std::move(*store));
        }
      }
      if (reader->history) (void)reader->history->record_metrics(reader->applicationId, batch.points);
    }
    return batch;
  }));
}

}  // namespace spindle::gui
