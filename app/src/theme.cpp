#include "theme.h"

#include <QApplication>
#include <QPainter>
#include <QPalette>
#include <QProxyStyle>
#include <QStyle>
#include <QStyleFactory>
#include <QStyleOption>

namespace spindle::gui {
namespace {

// Fusion outlines a tick box in the window colour made darker, which on the
// dark palette is the colour of the box and of what is around it: the box
// vanishes (tables' tick columns showed nothing). On a dark palette this
// draws Fusion's box, then an outline in the text colour at half strength.
class VisibleTickBoxes final : public QProxyStyle {
 public:
  using QProxyStyle::QProxyStyle;

  void drawPrimitive(PrimitiveElement element, const QStyleOption* option, QPainter* painter,
                     const QWidget* widget) const override {
    QProxyStyle::drawPrimitive(element, option, painter, widget);
    if ((element != PE_IndicatorCheckBox && element != PE_IndicatorItemViewItemCheck) || !isDarkPalette()) return;
    painter->save();
    QColor edge = option->palette.color(QPalette::Text);
    edge.setAlpha(150);
    painter->setPen(edge);
    painter->setBrush(Qt::NoBrush);
    painter->drawRect(option->rect.adjusted(1, 1, -2, -2));
    painter->restore();
  }
};

}  // namespace

void applyPalette(QApplication& application, bool dark) {
  application.setStyle(new VisibleTickBoxes(QStyleFactory::create(QStringLiteral("Fusion"))));
  if (!dark) {
    QPalette palette = application.style()->standardPalette();
    // Qt's own placeholder colour is the text colour at half opacity, which
    // labels drawn in it (the forms' hints) do not show at all; an opaque
    // grey halfway between text and base reads the same in line edits.
    const QColor text = palette.color(QPalette::Text);
    const QColor base = palette.color(QPalette::Base);
    palette.setColor(QPalette::PlaceholderText, QColor((text.red() + base.red()) / 2, (text.green() + base.green()) / 2,
                                                       (text.blue() + base.blue()) / 2));
    application.setPalette(palette);
    return;
  }
  QPalette palette;
  const QColor window(0x2b, 0x2d, 0x30);
  const QColor base(0x1e, 0x1f, 0x22);
  const QColor text(0xe6, 0xe6, 0xe6);
  const QColor disabled(0x80, 0x80, 0x80);
  const QColor highlight(0x3d, 0x7e, 0xd8);
  palette.setColor(QPalette::Window, window);
  palette.setColor(QPalette::WindowText, text);
  palette.setColor(QPalette::Base, base);
  palette.setColor(QPalette::AlternateBase, window);
  palette.setColor(QPalette::ToolTipBase, base);
  palette.setColor(QPalette::ToolTipText, text);
  palette.setColor(QPalette::PlaceholderText, disabled);
  palette.setColor(QPalette::Text, text);
  palette.setColor(QPalette::Button, window);
  palette.setColor(QPalette::ButtonText, text);
  palette.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
  palette.setColor(QPalette::Link, QColor(0x6c, 0xb6, 0xff));
  palette.setColor(QPalette::LinkVisited, QColor(0xb0, 0x8c, 0xff));
  palette.setColor(QPalette::Highlight, highlight);
  palette.setColor(QPalette::HighlightedText, Qt::white);
  palette.setColor(QPalette::Light, window.lighter(150));
  palette.setColor(QPalette::Midlight, window.lighter(120));
  palette.setColor(QPalette::Mid, window.darker(120));
  palette.setColor(QPalette::Dark, window.darker(160));
  palette.setColor(QPalette::Shadow, Qt::black);
  for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText, QPalette::HighlightedText}) {
    palette.setColor(QPalette::Disabled, role, disabled);
  }
  palette.setColor(QPalette::Disabled, QPalette::Highlight, window.lighter(130));
  application.setPalette(palette);
}

QColor problemColor() {
  return isDarkPalette() ? QColor(0xff, 0x8a, 0x80) : QColor(0xc6, 0x28, 0x28);
}

bool isDarkPalette() {
  const QPalette palette = QApplication::palette();
  return palette.color(QPalette::Window).lightness() < palette.color(QPalette::WindowText).lightness();
}

}  // namespace spindle::gui
