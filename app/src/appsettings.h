#pragma once

#include <QByteArray>
#include <QString>

namespace spindle::gui {

// What spindle-gui remembers between runs (QSettings, organization
// "Spindle", application "spindle-gui").
class AppSettings {
 public:
  // The Hadoop configuration directory; empty means HADOOP_CONF_DIR of the environment.
  static QString hadoopConfDir();
  static void setHadoopConfDir(const QString& directory);

  // Where jobs whose spec names no MLflow server are recorded; empty:
  // MLFLOW_TRACKING_URI of the environment, if set.
  static QString mlflowTrackingUri();
  static void setMlflowTrackingUri(const QString& uri);

  // Desktop notifications when this user's jobs end (default on), and
  // whether closing the window keeps the app in the tray (default on).
  static bool notifyJobEnds();
  static void setNotifyJobEnds(bool notify);
  static bool closeToTray();
  static void setCloseToTray(bool keep);

  static bool darkPalette();
  static void setDarkPalette(bool dark);

  // "" follows the system, else "en" or "de".
  static QString language();
  static void setLanguage(const QString& language);

  // Whether the first-run dialog has been answered.
  static bool firstRunDone();
  static void setFirstRunDone(bool done);

  static QString lastSpecDirectory();
  static void setLastSpecDirectory(const QString& directory);

  static QByteArray windowGeometry();
  static QByteArray windowState();
  static void setWindow(const QByteArray& geometry, const QByteArray& state);
};

}  // namespace spindle::gui
