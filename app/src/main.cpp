#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
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

namespace {

struct Options {
  QCommandLineOption dark{QStringLiteral("dark"), QStringLiteral("Use the dark palette")};
  QCommandLineOption light{QStringLiteral("light"), QStringLiteral("Use the light palette")};
  QCommandLineOption language{QStringLiteral("language"), QStringLiteral("Language of the interface (en, de)"),
                              QStringLiteral("code")};
  QCommandLineOption job{QStringLiteral("job"), QStringLiteral("Open the job with this application id"),
                         QStringLiteral("id")};
};

void describe(QCoreApplication& application, QCommandLineParser& parser, const Options& options) {
  QCoreApplication::setOrganizationName(QStringLiteral("Spindle"));
  QCoreApplication::setApplicationName(QStringLiteral("spindle-gui"));
  QCoreApplication::setApplicationVersion(QStringLiteral(SPINDLE_VERSION));
  parser.setApplicationDescription(QStringLiteral("Design, submit and follow training jobs on Hadoop YARN"));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addOptions({options.dark, options.light, options.language, options.job});
  parser.addPositionalArgument(QStringLiteral("spec"), QStringLiteral("A job spec to open in the designer"),
                               QStringLiteral("[spec]"));
  parser.process(application);
}

// --version and --help answer without a display, as on a gateway node over SSH.
bool onlyAsksForInformation(int argc, char* argv[]) {
  for (int i = 1; i < argc; ++i) {
    const QLatin1String word(argv[i]);
    if (word == QLatin1String("--version") || word == QLatin1String("-v") || word == QLatin1String("--help") ||
        word == QLatin1String("-h") || word == QLatin1String("--help-all")) {
      return true;
    }
  }
  return false;
}

// The theme's icon where one is installed, else the one built in.
QIcon applicationIcon() {
  QIcon bundled;
  for (int size : {16, 22, 24, 32, 48, 64, 128, 256}) {
    bundled.addFile(QStringLiteral(":/icons/%1/spindle-gui.png").arg(size), QSize(size, size));
  }
  return QIcon::fromTheme(QStringLiteral("spindle-gui"), bundled);
}

}  // namespace

int main(int argc, char* argv[]) {
  Options options;
  if (onlyAsksForInformation(argc, argv)) {
    QCoreApplication application(argc, argv);
    QCommandLineParser parser;
    describe(application, parser, options);  // prints and exits
    return 0;
  }
  QCoreApplication::setAttribute(Qt::AA_EnableHighDpiScaling);
  QCoreApplication::setAttribute(Qt::AA_UseHighDpiPixmaps);
  QApplication::setHighDpiScaleFactorRoundingPolicy(Qt::HighDpiScaleFactorRoundingPolicy::PassThrough);
#ifdef SPINDLE_WITH_WEBENGINE
  // The TensorBoard tab's web view shares OpenGL contexts with the window.
  QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
#endif
  QApplication application(argc, argv);
  QApplication::setApplicationDisplayName(QStringLiteral("Spindle"));
  QApplication::setDesktopFileName(QStringLiteral("spindle-gui"));
  QCommandLineParser parser;
  describe(application, parser, options);
  QApplication::setWindowIcon(applicationIcon());

  installTranslations(application,
                      parser.isSet(options.language) ? parser.value(options.language) : AppSettings::language());
  const bool darkPalette = parser.isSet(options.dark) || (AppSettings::darkPalette() && !parser.isSet(options.light));
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
      window.showStatus(error, 15000);
    }
  }
  if (parser.isSet(options.job)) window.openJob(parser.value(options.job));
  window.show();
  return application.exec();
}
