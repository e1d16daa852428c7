#pragma once

#include <QString>
#include <QStringList>

class QCoreApplication;

namespace spindle::gui {

// Where the .qm files are looked for: next to the binary, the installed
// share/spindle/translations, then the build tree.
QStringList translationDirectories();

// Installs the translation for `language` ("" follows the system's locale),
// Qt's own for the same language where it is present. Returns whether a
// Spindle translation was loaded (English when the language has none).
bool installTranslations(QCoreApplication& application, const QString& language);

// The languages the app is translated into, as codes and native names.
QStringList availableLanguages();
QString languageName(const QString& code);

}  // namespace spindle::gui
