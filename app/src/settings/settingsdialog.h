#pragma once

#include <QDialog>

#include "cluster/hadoopsetup.h"
#include "spindle/core/diagnostic.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace spindle::gui {

class FieldMessages;

// The cluster (a HADOOP_CONF_DIR and, on a Kerberos cluster, a keytab
// login), the MLflow server, the palette and the language, kept with
// QSettings.
class SettingsDialog : public QDialog {
  Q_OBJECT

 public:
  explicit SettingsDialog(QWidget* parent = nullptr);

  QString hadoopConfDir() const;
  void setHadoopConfDir(const QString& directory);
  // Empty: the ticket from kinit.
  QString principal() const;
  QString keytab() const;
  void setKerberos(const QString& principal, const QString& keytab);
  // The cluster as chosen here.
  HadoopSetup setup() const;
  // Empty: MLFLOW_TRACKING_URI of the environment.
  QString mlflowTrackingUri() const;
  bool darkPalette() const;
  QString language() const;

  // Writes the choices to the settings.
  void save() const;

  // What is wrong with a keytab login, on the fields "kerberos.principal"
  // and "kerberos.keytab": both or neither, and a keytab that can be read.
  static Diagnostics checkKerberos(const QString& principal, const QString& keytab);
  // What is wrong with an MLflow server's address, on "mlflow.tracking_uri".
  static Diagnostics checkMlflowUri(const QString& uri);
  // What is wrong with the Spindle server's address and certificate, on
  // "server.address" and "server.certificate"; nothing when not used.
  static Diagnostics checkServer(bool used, const QString& address, const QString& certificate);
  // Whether the app goes through a Spindle server, with its address as printed.
  void setServer(bool used, const QString& address, const QString& certificate = {});
  // The sentence under a Kerberos field ("" when none).
  QString messageFor(const QString& field) const;

 private:
  void updateEffective();
  void useLocalYarn();
  void updateKerberos();  // and the MLflow server: every field with a sentence

  QLineEdit* confDir_;
  QLabel* effective_;
  QLineEdit* principal_;
  QLineEdit* keytab_;
  QLineEdit* mlflowUri_;
  QCheckBox* useServer_;
  QLineEdit* serverAddress_;
  QLineEdit* serverCertificate_;
  FieldMessages* messages_;
  QPushButton* ok_;
  QCheckBox* dark_;
  QCheckBox* notify_;
  QCheckBox* closeToTray_;
  QComboBox* language_;
};

}  // namespace spindle::gui
