#pragma once

class QApplication;

namespace spindle::gui {

// The Fusion style with a dark palette, or the style's own light one.
void applyPalette(QApplication& application, bool dark);
bool isDarkPalette();

}  // namespace spindle::gui
