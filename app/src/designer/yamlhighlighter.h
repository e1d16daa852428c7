#pragma once

#include <QSyntaxHighlighter>

namespace spindle::gui {

// Keys, comments and quoted values of the YAML preview, in colours that
// read on light and dark palettes alike.
class YamlHighlighter : public QSyntaxHighlighter {
  Q_OBJECT

 public:
  explicit YamlHighlighter(QTextDocument* document);

 protected:
  void highlightBlock(const QString& text) override;
};

}  // namespace spindle::gui
