#pragma once

#include <QLabel>
#include <QTimer>

namespace spindle::gui {

// The status bar's message field: a message too long for the room left
// beside the permanent fields is elided, never drawn over them, and its
// whole text is the tooltip. QStatusBar's own message does neither.
class StatusMessage : public QLabel {
  Q_OBJECT

 public:
  explicit StatusMessage(QWidget* parent = nullptr);

  // Shows `text` for `timeoutMs` (0: until the next message).
  void showMessage(const QString& text, int timeoutMs = 0);
  const QString& message() const { return message_; }

  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  QString message_;
  QTimer clear_;
};

}  // namespace spindle::gui
