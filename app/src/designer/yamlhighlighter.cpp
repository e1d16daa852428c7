#include "designer/yamlhighlighter.h"

#include <QRegularExpression>

#include "theme.h"

namespace spindle::gui {

YamlHighlighter::YamlHighlighter(QTextDocument* document) : QSyntaxHighlighter(document) {}

void YamlHighlighter::highlightBlock(const QString& text) {
  const bool dark = isDarkPalette();
  QTextCharFormat key;
  key.setForeground(dark ? QColor(0x8a, 0xb4, 0xf8) : QColor(0x1a, 0x4f, 0xa0));
  key.setFontWeight(QFont::DemiBold);
  QTextCharFormat quoted;
  quoted.setForeground(dark ? QColor(0xa5, 0xd6, 0xa7) : QColor(0x2e, 0x7d, 0x32));
  QTextCharFormat comment;
  comment.setForeground(dark ? QColor(0x9e, 0x9e, 0x9e) : QColor(0x75, 0x75, 0x75));
  comment.setFontItalic(true);

  static const QRegularExpression keyPattern(QStringLiteral(R"(^\s*(- )?("[^"]*"|[^\s:#][^:#]*?):(\s|$))"));
  static const QRegularExpression quotedPattern(QStringLiteral(R"("(?:[^"\\]|\\.)*")"));
  if (const auto match = keyPattern.match(text); match.hasMatch()) {
    setFormat(match.capturedStart(2), match.capturedLength(2), key);
  }
  auto quotes = quotedPattern.globalMatch(text);
  while (quotes.hasNext()) {
    const auto match = quotes.next();
    if (format(match.capturedStart()).fontWeight() != QFont::DemiBold) {
      setFormat(match.capturedStart(), match.capturedLength(), quoted);
    }
  }
  if (text.trimmed().startsWith(QLatin1Char('#'))) setFormat(0, text.size(), comment);
}

}  // namespace spindle::gui
