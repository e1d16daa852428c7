#include "convert.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QLocale>

namespace spindle::gui {

QStringList toStringList(const std::vector<std::string>& items) {
  QStringList list;
  list.reserve(static_cast<int>(items.size()));
  for (const auto& item : items) list << qs(item);
  return list;
}

QString formatMemory(quint64 mib) {
  if (mib >= 1024 && mib % 1024 == 0) return QCoreApplication::translate("Units", "%1 GiB").arg(mib / 1024);
  if (mib >= 1024) {
    return QCoreApplication::translate("Units", "%1 GiB")
        .arg(QLocale().toString(static_cast<double>(mib) / 1024.0, 'f', 1));
  }
  return QCoreApplication::translate("Units", "%1 MiB").arg(mib);
}

QString formatTime(qint64 ms) {
  if (ms <= 0) return {};
  const QDateTime time = QDateTime::fromMSecsSinceEpoch(ms);
  const bool today = time.date() == QDate::currentDate();
  return QLocale().toString(time, today ? QStringLiteral("HH:mm:ss") : QLocale().dateTimeFormat(QLocale::ShortFormat));
}

QString formatDuration(qint64 fromMs, qint64 toMs) {
  if (fromMs <= 0 || toMs <= 0 || toMs < fromMs) return {};
  const qint64 seconds = (toMs - fromMs) / 1000;
  if (seconds < 60) return QCoreApplication::translate("Units", "%1 s").arg(seconds);
  if (seconds < 3600) {
    return QCoreApplication::translate("Units", "%1 min %2 s")
        .arg(seconds / 60)
        .arg(seconds % 60, 2, 10, QLatin1Char('0'));
  }
  return QCoreApplication::translate("Units", "%1 h %2 min")
      .arg(seconds / 3600)
      .arg((seconds % 3600) / 60, 2, 10, QLatin1Char('0'));
}

QString formatBytes(quint64 bytes) {
  const double value = static_cast<double>(bytes);
  if (bytes >= 1024ull * 1024 * 1024) {
    return QCoreApplication::translate("Units", "%1 GiB").arg(QString::number(value / 1073741824.0, 'f', 1));
  }
  if (bytes >= 1024 * 1024) {
    return QCoreApplication::translate("Units", "%1 MiB").arg(QString::number(value / 1048576.0, 'f', 1));
  }
  return QCoreApplication::translate("Units", "%1 KiB").arg(QString::number(value / 1024.0, 'f', 1));
}

}  // namespace spindle::gui
