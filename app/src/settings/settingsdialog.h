#pragma once

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;

namespace spindle::gui {

// The cluster (a HADOOP_CONF_DIR), the palette and the language, kept with
// QSettings.
class SettingsDialog : public QDialog {
  Q_OBJECT

 public:
  explicit SettingsDialog(QWidget* parent = nullptr);

  QString hadoopConfDir() const;
  void setHadoopConfDir(const QString& directory);
  bool darkPalette() const;
  QString language() const;

  // Writes the choices to the settings.
  void save() const;

 private:
  void updateEffective();
  void useLocalYarn();

  QLineEdit* confDir_;
  QLabel* effective_;
  QCheckBox* dark_;
  QComboBox* language_;
};

}  // namespace spindle::gui
