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

// A task's stdout or stderr from its NodeManager (what `spindle logs`
// reads). In follow mode it asks again every two seconds and appends only
// the bytes that are new; the view keeps the last lines up to a bound.
class LogViewer : public QWidget {
  Q_OBJECT

 public:
  // Reads a whole log file of a container: (NodeManager web address,
  // container id, "stdout" or "stderr") -> its text. Called off the UI thread.
  using Fetcher = std::function<Result<std::string>(const std::string& nodeHttpAddress, const std::string& container,
                                                    const std::string& file)>;

  explicit LogViewer(QWidget* parent = nullptr);
  ~LogViewer() override;

  // Reads through the NodeManagers of this Hadoop set-up.
  void setSetup(const HadoopSetup& setup);
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
  // Lines the view keeps at most; older ones leave from the top.
  static constexpr int maximumLines = 20000;

 public slots:
  void refresh();

 signals:
  void fetched();

 private:
  struct Place {
    std::string container;
    std::string nodeHttpAddress;
  };
  void restart();
  void taken(const QString& problem, const std::string& text, const std::string& key);
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
  struct Fetch {
    QString problem;
    std::string text;
    std::string key;
  };
  QFutureWatcher<Fetch> watcher_;
  bool pending_ = false;
};

}  // namespace spindle::gui
