#include "submit/submitcontroller.h"

#include <QCoreApplication>
#include <QFileInfo>

#include "appsettings.h"
#include "convert.h"
#include "spindle/client/submit.h"
#include "spindle/core/container_contract.h"
#include "spindle/core/spec_writer.h"

namespace spindle::gui {

SubmitController::SubmitController(QObject* parent) : QObject(parent) {}

SubmitController::~SubmitController() {
  stop();
}

QString SubmitController::containerBinary() {
  const QString fromEnvironment = qEnvironmentVariable("SPINDLE_CONTAINER_BINARY");
  if (!fromEnvironment.isEmpty()) return fromEnvironment;
  const QString besides = QCoreApplication::applicationDirPath() + QLatin1Char('/') +
                          QLatin1String(spindle::container_contract::binary_name);
  if (QFileInfo(besides).isExecutable()) return besides;
  return QStringLiteral(SPINDLE_BUILD_CONTAINER);
}

bool SubmitController::submit(const JobSpec& spec, const HadoopSetup& setup, bool follow) {
  if (busy_) return false;
  if (worker_.joinable()) worker_.join();
  busy_ = true;
  stop_ = false;
  applicationId_.clear();
  mlflowTrackingUri_ = AppSettings::mlflowTrackingUri();
  worker_ = std::thread([this, spec, setup, follow] { run(spec, setup, follow); });
  return true;
}

void SubmitController::stop() {
  stop_ = true;
  if (worker_.joinable()) worker_.join();
}

void SubmitController::run(JobSpec spec, HadoopSetup setup, bool follow) {
  const auto over = [this] {
    busy_ = false;
    emit idle();
  };
  auto service = setup.service();
  if (!service) {
    emit failed(qs(service.error().message), false);
    return over();
  }
  client::SubmitOptions options;
  options.container_binary = ss(containerBinary());
  options.mlflow_tracking_uri = ss(mlflowTrackingUri_);
  options.progress = [this](const std::string& line) { emit progress(qs(line)); };
  options.staged_bytes = [this](std::uint64_t staged, std::uint64_t total) {
    emit bytesStaged(static_cast<qint64>(staged), static_cast<qint64>(total));
  };
  // Packing reads thousands of files: a signal per 1 % is plenty.
  options.packed_bytes = [this, shown = std::uint64_t{101}](std::uint64_t done, std::uint64_t total) mutable {
    const std::uint64_t percent = total == 0 ? 100 : done * 100 / total;
    if (percent == shown) return;
    shown = percent;
    emit environmentPacked(static_cast<qint64>(done), static_cast<qint64>(total));
  };
  options.environment_uploaded = [this](std::uint64_t done, std::uint64_t total) {
    emit environmentUploaded(static_cast<qint64>(done), static_cast<qint64>(total));
  };
  auto result = (*service)->submit(spec, options);
  if (!result) {
    emit failed(qs(result.error().message), result.error().kind == client::SubmitError::Kind::bad_input);
    return over();
  }
  const QString id = qs(result->application_id);
  // Read by the owning thread only after `submitted` arrives there.
  QMetaObject::invokeMethod(
      this, [this, id] { applicationId_ = id; }, Qt::QueuedConnection);
  if (const auto& shipped = result->environment) {
    emit environmentShipped(qs(shipped->name), static_cast<qint64>(shipped->uploaded_bytes), shipped->packed_now);
  }
  emit submitted(id, qs(result->staging));
  if (!follow) return over();
  const int total = spec.total_instances();
  client::FollowReport report;
  report.state_changed = [this](const std::string& state) { emit stateChanged(qs(state)); };
  report.event = [this](const JobEvent& event) { emit jobEvent(qs(event.task), qs(event.kind), qs(event.message)); };
  report.containers = [this, total](int allocated, int registered) {
    emit containersChanged(allocated, registered, total);
  };
  auto ended = (*service)->follow(spec, result->application_id, report, stop_);
  if (ended) {
    emit finished(qs(ended->final_status), qs(ended->diagnostics));
  } else if (!stop_) {
    emit failed(qs(ended.error().message), false);
  }
  over();
}

}  // namespace spindle::gui
