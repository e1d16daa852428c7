#pragma once

#include <QMap>
#include <QObject>
#include <QString>

#include "notify/jobendwatcher.h"

namespace spindle::gui {

// Desktop notifications through the session bus's notification service
// (org.freedesktop.Notifications), which every Linux desktop runs. Clicking
// one asks for its job.
class DesktopNotifications : public QObject {
  Q_OBJECT

 public:
  explicit DesktopNotifications(QObject* parent = nullptr);

  // Shows the notice; false, with why(), when no notification service answers.
  bool show(const JobEndNotice& notice);
  const QString& why() const { return why_; }

  // "wine-quality succeeded", as the notification's summary says it.
  static QString summary(const JobEndNotice& notice);

 signals:
  void openJobRequested(const QString& applicationId);

 private slots:
  void actionInvoked(uint id, const QString& action);

 private:
  QMap<uint, QString> shown_;  // notification id -> application id
  QString why_;
  bool connected_ = false;
};

}  // namespace spindle::gui
