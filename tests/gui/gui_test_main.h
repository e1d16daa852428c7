#pragma once

#include <QApplication>
#include <QTemporaryDir>
#include <QtTest>
#include <cstdlib>

// A QtTest main that keeps the app away from the user's settings, history
// and job records: XDG directories, SPINDLE_DATA_DIR and SPINDLE_STATE_DIR
// point into a temporary directory unless the test's environment sets
// them. Runs offscreen unless told otherwise.
#define SPINDLE_GUI_TEST_MAIN(TestObject)                                                               \
  int main(int argc, char** argv) {                                                                     \
    QTemporaryDir home;                                                                                 \
    const auto setDefault = [&](const char* name, const char* sub) {                                    \
      if (qEnvironmentVariableIsEmpty(name)) qputenv(name, home.filePath(QLatin1String(sub)).toUtf8()); \
    };                                                                                                  \
    setDefault("XDG_CONFIG_HOME", "config");                                                            \
    setDefault("XDG_DATA_HOME", "data");                                                                \
    setDefault("XDG_STATE_HOME", "state");                                                              \
    setDefault("SPINDLE_DATA_DIR", "spindle-data");                                                     \
    setDefault("SPINDLE_STATE_DIR", "spindle-state");                                                   \
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");        \
    QCoreApplication::setAttribute(Qt::AA_EnableHighDpiScaling);                                        \
    QCoreApplication::setAttribute(Qt::AA_UseHighDpiPixmaps);                                           \
    QApplication app(argc, argv);                                                                       \
    QApplication::setOrganizationName(QStringLiteral("Spindle"));                                       \
    QApplication::setApplicationName(QStringLiteral("spindle-gui-test"));                               \
    QStandardPaths::setTestModeEnabled(true);                                                           \
    app.setAttribute(Qt::AA_Use96Dpi, true);                                                            \
    TestObject test;                                                                                    \
    QTEST_SET_MAIN_SOURCE_PATH                                                                          \
    return QTest::qExec(&test, argc, argv);                                                             \
  }
