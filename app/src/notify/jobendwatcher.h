#pragma once

#include <QMap>
#include <QObject>
#include <QString>

namespace spindle::gui {

class JobsModel;

// A job of this user that ended while the app ran.
struct JobEndNotice {
  QString applicationId;
  QString name;
  QString state;  // succeeded, failed, killed; or stalled, for a task of a running job
  QString diagnostics;
};

// Watches the jobs the history holds (JobsModel, refreshed every few
// seconds) and reports each job of `user` that reaches a final state once;
// jobs that had ended before the first look are not reported. Also counts
// the user's jobs that still run, for the tray icon.
class JobEndWatcher : public QObject {
  Q_OBJECT

 public:
  JobEndWatcher(JobsModel* model, QString user, QObject* parent = nullptr);

  int runningJobs() const { return running_; }
  // Whose jobs count from now on: the name the cluster knows the user by,
  // once the cluster said it (a Kerberos principal's short name may differ
  // from the login name the watcher starts with).
  void setUser(const QString& user);

 signals:
  void jobEnded(const spindle::gui::JobEndNotice& notice);
  void runningJobsChanged(int count);

 private:
  void look();

  JobsModel* model_;
  QString user_;
  bool firstLook_ = true;
  QMap<QString, QString> states_;  // application id -> last state seen
  int running_ = -1;
};

}  // namespace spindle::gui
Q_DECLARE_METATYPE(spindle::gui::JobEndNotice)
