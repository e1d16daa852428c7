#include "statusmessage.h"

#include <QPainter>
#include <QStyle>
#include <QVariant>

namespace spindle::gui {

StatusMessage::StatusMessage(QWidget* parent) : QLabel(parent) {
  setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  setTextFormat(Qt::PlainText);
  // Shows what other widgets and the cluster say, already translated where it is ours.
  setProperty("spindleDynamicText", true);
  clear_.setSingleShot(true);
  connect(&clear_, &QTimer::timeout, this, [this] { showMessage({}); });
}

void StatusMessage::showMessage(const QString& text, int timeoutMs) {
  message_ = text;
  setToolTip(text);
  clear_.stop();
  if (!text.isEmpty() && timeoutMs > 0) clear_.start(timeoutMs);
  update();
}

QSize StatusMessage::minimumSizeHint() const {
  return {0, QLabel::minimumSizeHint().height()};
}

void StatusMessage::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  const QRect room = contentsRect().adjusted(margin(), 0, -margin(), 0);
  const QString shown = fontMetrics().elidedText(message_, Qt::ElideRight, room.width());
  style()->drawItemText(&painter, room, Qt::AlignLeft | Qt::AlignVCenter, palette(), isEnabled(), shown,
                        foregroundRole());
}

}  // namespace spindle::gui
