#include <QApplication>
#include <QCommandLineParser>
#include <QStatusBar>

#include "appsettings.h"
#include "designer/jobdesignerwidget.h"
#include "jobview/jobview.h"
#include "mainwindow.h"
#include "settings/firstrundialog.h"
#include "theme.h"
#include "translations.h"
#ifdef SPINDLE_WITH_WEBENGINE
#include "jobview/tensorboardtab.h"
#endif

using namespace spindle::gui;

int main(int argc, char* argv[]) {
  QCoreApplication::setAttribute(Qt::AA_EnableHighDpiScaling);
  QCoreApplication::setAttribute(Qt::AA_UseHighDpiPixmaps);
  QApplication::setHighDpiScaleFactorRoundingPolicy(Qt::HighDpiScaleFactorRoundingPolicy::PassThrough);
#ifdef SPINDLE_WITH_WEBENGINE
  // The TensorBoard tab's web view shares OpenGL contexts with the window.
  QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
#endif
  QApplication application(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("Spindle"));
  QApplication::setApplicationName(QStringLiteral("spindle-gui"));
  QApplication::setApplicationDisplayName(QStringLiteral("Spindle"));
  QApplication::setApplicationVersion(QStringLiteral(SPINDLE_VERSION));
  QApplication::setDesktopFileName(QStringLiteral("spindle-gui"));

  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral("Design, submit and follow training jobs on Hadoop YARN"));
  parser.addHelpOption();
  parser.addVersionOption();
  const QCommandLineOption dark(QStringLiteral("dark"), QStringLiteral("Use the dark palette"));
  const QCommandLineOption light(QStringLiteral("light"), QStringLiteral("Use the light palette"));
  const QCommandLineOption language(QStringLiteral("language"), QStringLiteral("Language of the interface (en, de)"),
                                    QStringLiteral("code"));
  const QCommandLineOption job(QStringLiteral("job"), QStringLiteral("Open the job with this application id"),
                               QStringLiteral("id"));
  parser.addOptions({dark, light, language, job});
  parser.addPositionalArgument(QStringLiteral("spec"), QStringLiteral("A job spec to open in the designer"),
                               QStringLiteral("[spec]"));
  parser.process(application);

  installTranslations(application, parser.isSet(language) ? parser.value(language) : AppSettings::language());
  const bool darkPalette = parser.isSet(dark) || (AppSettings::darkPalette() && !parser.isSet(light));
  applyPalette(application, darkPalette);

  if (FirstRunDialog::isNeeded()) FirstRunDialog().exec();

  MainWindow window;
#ifdef SPINDLE_WITH_WEBENGINE
  JobView::install(window, {}, [](const QUrl& url) -> QWidget* { return new TensorBoardTab(url); });
#else
  JobView::install(window);
#endif
  if (!parser.positionalArguments().isEmpty()) {
    QString error;
    if (window.designer()->openFile(parser.positionalArguments().constFirst(), &error)) {
      window.showDesigner();
    } else {
      window.statusBar()->showMessage(error, 15000);
    }
  }
  if (parser.isSet(job)) window.openJob(parser.value(job));
  window.show();
  return application.exec();
}
