#pragma once

#include <QFutureWatcher>
#include <QHash>
#include <QTimer>
#include <QWidget>
#include <functional>
#include <memory>
#include <string>

#include "cluster/hadoopsetup.h"
#include "spindle/core/job_status.h"
#include "spindle/core/result.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTextDecoder;

namespace spindle::gui {

// A task's stdout or stderr, read as `spindle logs` reads it: from its
// NodeManager while the job runs, from the aggregated logs once it ended. In
// follow mode it asks again every two seconds and appends only the bytes that
// are new; the view keeps the last lines up to a bound. The line above the
// text says whether the file may still grow, and what went wrong, if anything.
class LogViewer : public QWidget {
  Q_OBJECT

 public:
  struct Place {
    std::string task;
    std::string container;
    std::string node;  // NodeManager id, host:port
    std::string nodeHttpAddress;
  };
  struct Fetched {
    std::string text;
    bool complete = false;  // the job ended and this is the whole file
  };
  // Reads a whole log file of a container ("stdout" or "stderr"). Called off the UI thread.
  using Fetcher = std::function<Result<Fetched>(const Place& place, const std::string& file)>;

  explicit LogViewer(QWidget* parent = nullptr);
  ~LogViewer() override;

  // Reads the logs of this application through this Hadoop set-up.
  void setSetup(const HadoopSetup& setup, const QString& applicationId);
  // Reads with this function instead (tests, the bench).
  void setFetcher(Fetcher fetcher);
  // The tasks to choose from, and where each one's container runs.
  void setTasks(const JobStatus& status);

  void selectTask(const QString& task);
  QString currentTask() const;
  // "stdout" or "stderr".
  void selectFile(const QString& file);
  QString currentFile() const;
  void setFollow(bool follow);
  bool isFollowing() const;
  void setFollowInterval(int milliseconds);
  bool isFetching() const { return watcher_.isRunning(); }

  QPlainTextEdit* textView() const { return text_; }
  QString text() const;
  // Bytes of the current file taken in so far.
  qint64 bytesShown() const { return shown_; }
  // The line above the text: where it came from, or what went wrong.
  QString status() const;
  // Whether the text is the whole file of a job that ended.
  bool isComplete() const { return complete_; }
  // Lines the view keeps at most; older ones leave from the top.
  static constexpr int maximumLines = 20000;

 public slots:
  void refresh();

 signals:
  void fetched();

 private:
  void restart();
  void taken(const QString& problem, const Fetched& answer, const std::string& key);
  void updateHeader();

  QComboBox* task_;
  QComboBox* file_;
  QCheckBox* follow_;
  QPushButton* refresh_;
  QLabel* where_;
  QPlainTextEdit* text_;
  Fetcher fetcher_;
  std::shared_ptr<Fetcher> sharedFetcher_;
  QHash<QString, Place> places_;
  QString shownKey_;  // container/file the view shows
  qint64 shown_ = 0;
  std::unique_ptr<QTextDecoder> decoder_;
  QTimer timer_;
  bool complete_ = false;
  struct Fetch {
    QString problem;
    Fetched fetched;
    std::string key;
  };
  QFutureWatcher<Fetch> watcher_;
  bool pending_ = false;
};

}  // namespace spindle::gui
