#include "notify/desktopnotifications.h"

#include <QDBusConnection>
#include <QDBusInterface>
#include <QDBusReply>
#include <QVariantMap>

namespace spindle::gui {
namespace {

const QString service = QStringLiteral("org.freedesktop.Notifications");
const QString path = QStringLiteral("/org/freedesktop/Notifications");

}  // namespace

DesktopNotifications::DesktopNotifications(QObject* parent) : QObject(parent) {}

QString DesktopNotifications::summary(const JobEndNotice& notice) {
  const QString name = notice.name.isEmpty() ? notice.applicationId : notice.name;
  if (notice.state == QLatin1String("succeeded")) return tr("%1 succeeded").arg(name);
  if (notice.state == QLatin1String("killed")) return tr("%1 was killed").arg(name);
  if (notice.state == QLatin1String("stalled")) return tr("%1 has a stalled task").arg(name);
  return tr("%1 failed").arg(name);
}

bool DesktopNotifications::show(const JobEndNotice& notice) {
  QDBusConnection bus = QDBusConnection::sessionBus();
  if (!bus.isConnected()) {
    why_ = tr("there is no session bus (DBUS_SESSION_BUS_ADDRESS), so no notification service");
    return false;
  }
  if (!connected_) {
    connected_ =
        bus.connect(service, path, service, QStringLiteral("ActionInvoked"), this, SLOT(actionInvoked(uint, QString)));
  }
  QDBusInterface notifications(service, path, service, bus);
  QVariantMap hints;
  hints.insert(QStringLiteral("desktop-entry"), QStringLiteral("spindle-gui"));
  hints.insert(QStringLiteral("urgency"), QVariant::fromValue<uchar>(notice.state == QLatin1String("failed") ? 2 : 1));
  const QString body =
      notice.applicationId + (notice.diagnostics.isEmpty() ? QString() : QStringLiteral("\n") + notice.diagnostics);
  const QDBusReply<uint> reply =
      notifications.call(QStringLiteral("Notify"), QStringLiteral("Spindle"), 0u, QStringLiteral("spindle-gui"),
                         summary(notice), body, QStringList{QStringLiteral("default"), tr("Open job")}, hints, -1);
  if (!reply.isValid()) {
    why_ = tr("the notification service did not answer: %1").arg(reply.error().message());
    return false;
  }
  shown_.insert(reply.value(), notice.applicationId);
  return true;
}

void DesktopNotifications::actionInvoked(uint id, const QString& action) {
  const auto found = shown_.constFind(id);
  if (found == shown_.constEnd() || action != QLatin1String("default")) return;
  emit openJobRequested(found.value());
}

}  // namespace spindle::gui
