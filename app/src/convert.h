#pragma once

#include <QString>
#include <QStringList>
#include <string>
#include <vector>

namespace spindle::gui {

// Core speaks UTF-8 std::string; Qt speaks QString.
inline QString qs(const std::string& text) {
  return QString::fromStdString(text);
}
inline std::string ss(const QString& text) {
  return text.toStdString();
}
QStringList toStringList(const std::vector<std::string>& items);

// "2 GiB", "512 MiB": the unit a person reads best.
QString formatMemory(quint64 mib);
// "651.0 MiB", "2.1 GiB", "12.0 KiB": sizes of files.
QString formatBytes(quint64 bytes);
// Local time of a moment in ms since the epoch; empty for 0.
QString formatTime(qint64 ms);
// "1 h 05 min", "42 s"; empty when either end is missing.
QString formatDuration(qint64 fromMs, qint64 toMs);

}  // namespace spindle::gui
