#pragma once

class QApplication;
class QColor;

namespace spindle::gui {

// The Fusion style with a dark palette, or the style's own light one.
void applyPalette(QApplication& application, bool dark);
bool isDarkPalette();
// The colour of a sentence about a problem, readable on the current palette.
QColor problemColor();

}  // namespace spindle::gui
