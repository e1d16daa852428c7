#include "appsettings.h"

#include <QDir>
#include <QSettings>

namespace spindle::gui {
namespace {

QSettings store() {
  return QSettings(QStringLiteral("Spindle"), QStringLiteral("spindle-gui"));
}

}  // namespace

QString AppSettings::hadoopConfDir() {
  return store().value(QStringLiteral("cluster/hadoopConfDir")).toString();
}

void AppSettings::setHadoopConfDir(const QString& directory) {
  store().setValue(QStringLiteral("cluster/hadoopConfDir"), directory);
}

QString AppSettings::mlflowTrackingUri() {
  return store().value(QStringLiteral("tracking/mlflowUri")).toString();
}

void AppSettings::setMlflowTrackingUri(const QString& uri) {
  store().setValue(QStringLiteral("tracking/mlflowUri"), uri);
}

bool AppSettings::notifyJobEnds() {
  return store().value(QStringLiteral("notifications/jobEnds"), true).toBool();
}

void AppSettings::setNotifyJobEnds(bool notify) {
  store().setValue(QStringLiteral("notifications/jobEnds"), notify);
}

bool AppSettings::closeToTray() {
  return store().value(QStringLiteral("notifications/closeToTray"), true).toBool();
}

void AppSettings::setCloseToTray(bool keep) {
  store().setValue(QStringLiteral("notifications/closeToTray"), keep);
}

bool AppSettings::darkPalette() {
  return store().value(QStringLiteral("appearance/dark"), false).toBool();
}

void AppSettings::setDarkPalette(bool dark) {
  store().setValue(QStringLiteral("appearance/dark"), dark);
}

QString AppSettings::language() {
  return store().value(QStringLiteral("appearance/language")).toString();
}

void AppSettings::setLanguage(const QString& language) {
  store().setValue(QStringLiteral("appearance/language"), language);
}

bool AppSettings::firstRunDone() {
  return store().value(QStringLiteral("firstRun/done"), false).toBool();
}

void AppSettings::setFirstRunDone(bool done) {
  store().setValue(QStringLiteral("firstRun/done"), done);
}

QString AppSettings::lastSpecDirectory() {
  return store().value(QStringLiteral("designer/lastDirectory"), QDir::homePath()).toString();
}

void AppSettings::setLastSpecDirectory(const QString& directory) {
  store().setValue(QStringLiteral("designer/lastDirectory"), directory);
}

QByteArray AppSettings::windowGeometry() {
  return store().value(QStringLiteral("window/geometry")).toByteArray();
}

QByteArray AppSettings::windowState() {
  return store().value(QStringLiteral("window/state")).toByteArray();
}

void AppSettings::setWindow(const QByteArray& geometry, const QByteArray& state) {
  auto settings = store();
  settings.setValue(QStringLiteral("window/geometry"), geometry);
  settings.setValue(QStringLiteral("window/state"), state);
}

}  // namespace spindle::gui
