#pragma once

#include <QDialog>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace spindle::gui {

class LocalYarn;

// Shown when the app knows no cluster: offers the local YARN (`spindle
// local up`), a Hadoop configuration directory, or to decide later.
class FirstRunDialog : public QDialog {
  Q_OBJECT

 public:
  explicit FirstRunDialog(QWidget* parent = nullptr);

  // Whether the app should ask: no answer yet and no cluster configured.
  static bool isNeeded();
  // The directory chosen, once accepted.
  const QString& confDir() const { return confDir_; }

 private:
  void startLocalYarn();
  void chooseDirectory();
  void finish(const QString& directory);

  LocalYarn* localYarn_;
  QPushButton* local_;
  QPushButton* choose_;
  QPushButton* later_;
  QLabel* state_;
  QPlainTextEdit* log_;
  QString confDir_;
};

}  // namespace spindle::gui
