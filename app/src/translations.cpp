#include "translations.h"

#include <QCoreApplication>
#include <QDir>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace spindle::gui {

QStringList translationDirectories() {
  const QString binary = QCoreApplication::applicationDirPath();
  return {binary, QDir(binary).filePath(QStringLiteral("../share/spindle/translations")),
          QStringLiteral(SPINDLE_BUILD_TRANSLATIONS)};
}

bool installTranslations(QCoreApplication& application, const QString& language) {
  const QLocale locale = language.isEmpty() ? QLocale::system() : QLocale(language);
  if (!language.isEmpty()) QLocale::setDefault(locale);
  bool loaded = false;
  auto* ours = new QTranslator(&application);
  // A language without a translation gets English, whose .qm holds the plural forms.
  for (const QLocale& candidate : {locale, QLocale(QLocale::English)}) {
    for (const QString& directory : translationDirectories()) {
      if (ours->load(candidate, QStringLiteral("spindle_gui"), QStringLiteral("_"), directory)) {
        application.installTranslator(ours);
        loaded = true;
        break;
      }
    }
    if (loaded) break;
  }
  if (!loaded) delete ours;
  auto* qt = new QTranslator(&application);
  if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
               QLibraryInfo::location(QLibraryInfo::TranslationsPath))) {
    application.installTranslator(qt);
  } else {
    delete qt;
  }
  return loaded;
}

QStringList availableLanguages() {
  return {QStringLiteral("en"), QStringLiteral("de")};
}

QString languageName(const QString& code) {
  if (code == QLatin1String("de")) return QStringLiteral("Deutsch");
  return QStringLiteral("English");
}

}  // namespace spindle::gui
