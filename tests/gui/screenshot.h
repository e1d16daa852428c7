#pragma once

#include <QApplication>
#include <QDebug>
#include <QDir>
#include <QImage>
#include <QSet>
#include <QTest>
#include <QWidget>

namespace spindle::gui {

// Saves `widget` as SPINDLE_SCREENSHOT_DIR/<name>.png, after checking that
// it is a real picture: large enough and not blank (many colours in it).
inline void saveScreenshot(QWidget* widget, const QString& name) {
  QDir().mkpath(QStringLiteral(SPINDLE_SCREENSHOT_DIR));
  QApplication::processEvents();
  const QImage image = widget->grab().toImage();
  QVERIFY(!image.isNull());
  QVERIFY(image.width() >= 800 && image.height() >= 500);
  QSet<QRgb> colours;
  for (int y = 0; y < image.height(); y += 7) {
    for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
  }
  QVERIFY2(colours.size() > 20, qPrintable(name));
  // A real window (xcb, under Xvfb) and the offscreen platform keep their pictures apart.
  const QString prefix = QGuiApplication::platformName() == QLatin1String("offscreen")
                             ? QString()
                             : QGuiApplication::platformName() + QLatin1Char('-');
  const QString path = QDir(QStringLiteral(SPINDLE_SCREENSHOT_DIR)).filePath(prefix + name + QStringLiteral(".png"));
  QVERIFY(image.save(path));
  qInfo().noquote() << "saved" << path;
}

}  // namespace spindle::gui
