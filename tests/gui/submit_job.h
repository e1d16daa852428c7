#pragma once

#include <QSignalSpy>
#include <QtTest>

#include "submit/submitcontroller.h"

// Submits a job through the app's own submit path and waits until it is
// accepted. Sets *applicationId; on failure the test has failed (check
// QTest::currentTestFailed()).
inline void submitThroughTheApp(const spindle::JobSpec& spec, const spindle::gui::HadoopSetup& setup,
                                QString* applicationId) {
  spindle::gui::SubmitController controller;
  QSignalSpy submitted(&controller, &spindle::gui::SubmitController::submitted);
  QSignalSpy failed(&controller, &spindle::gui::SubmitController::failed);
  QSignalSpy idle(&controller, &spindle::gui::SubmitController::idle);
  QVERIFY(controller.submit(spec, setup, false));
  QVERIFY(idle.wait(300000));
  QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.front().front().toString()));
  QCOMPARE(submitted.count(), 1);
  *applicationId = submitted.front().front().toString();
}
