#include "submit/submitcontroller.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <chrono>
#include <set>

#include "appsettings.h"
#include "convert.h"
#include "spindle/client/job_connection.h"
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

bool SubmitController::sleepUnlessStopped(int milliseconds) {
  for (int waited = 0; waited < milliseconds && !stop_; waited += 50) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return !stop_;
}

void SubmitController::run(JobSpec spec, HadoopSetup setup, bool follow) {
  if (setup.throughServer()) {
    runThroughServer(spec, setup, follow);
    busy_ = false;
    emit idle();
    return;
  }
  auto configuration = setup.load();
  if (!configuration) {
    emit failed(qs(configuration.error().message), false);
    busy_ = false;
    emit idle();
    return;
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
  auto result = client::submit_job(spec, *configuration, options);
  if (!result) {
    emit failed(qs(result.error().message), result.error().kind == client::SubmitError::Kind::bad_input);
    busy_ = false;
    emit idle();
    return;
  }
  const QString id = qs(result->application_id);
  // Read by the owning thread only after `submitted` arrives there.
  QMetaObject::invokeMethod(
      this, [this, id] { applicationId_ = id; }, Qt::QueuedConnection);
  if (const auto& shipped = result->environment) {
    emit environmentShipped(qs(shipped->name), static_cast<qint64>(shipped->uploaded_bytes), shipped->packed_now);
  }
  emit submitted(id, qs(result->staging));
  if (follow) this->follow(client::with_login(*configuration, spec), result->application_id, spec.total_instances());
  busy_ = false;
  emit idle();
}

void SubmitController::runThroughServer(const JobSpec& spec, const HadoopSetup& setup, bool follow) {
  auto server = setup.dashboard();
  if (!server) {
    emit failed(qs(server.error().message), false);
    return;
  }
  // The server's machine has not got this one's files: they go along with the spec.
  auto files = client::read_files_to_send(spec);
  if (!files) {
    emit failed(qs(files.error().message), true);
    return;
  }
  emit progress(tr("submitting through the Spindle server at %1").arg(qs(server->address().url)));
  auto accepted = server->submit(to_yaml(spec), *files);
  if (!accepted) {
    emit failed(qs(accepted.error().message), accepted.error().kind == client::SubmitError::Kind::bad_input);
    return;
  }
  const QString id = qs(*accepted);
  QMetaObject::invokeMethod(
      this, [this, id] { applicationId_ = id; }, Qt::QueuedConnection);
  emit submitted(id, QString());
  if (!follow) return;
  const int total = spec.total_instances();
  std::string lastState;
  std::set<std::string> allocated;
  std::set<std::string> registered;
  int unreachable = 0;
  emit containersChanged(0, 0, total);
  while (!stop_) {
    auto job = server->job(*accepted);
    if (!job) {
      // The server rides out a ResourceManager restart; a minute of silence is too long.
      if (++unreachable > 60) {
        emit failed(qs(job.error().message), false);
        return;
      }
      sleepUnlessStopped(1000);
      continue;
    }
    unreachable = 0;
    if (job->yarn_state != lastState) {
      lastState = job->yarn_state;
      emit stateChanged(qs(lastState));
    }
    bool changed = false;
    if (job->status) {
      for (const auto& task : job->status->tasks) {
        if (!task.container.empty()) changed |= allocated.insert(task.task).second;
        if (!task.address.empty()) changed |= registered.insert(task.task).second;
      }
    }
    if (changed) emit containersChanged(static_cast<int>(allocated.size()), static_cast<int>(registered.size()), total);
    if (job->finished) {
      emit finished(qs(job->final_status), qs(job->entry.diagnostics));
      return;
    }
    sleepUnlessStopped(1000);
  }
}

void SubmitController::follow(const yarn::HadoopConfiguration& configuration, const std::string& applicationId,
                              int total) {
  auto opened = client::JobConnection::open(configuration, applicationId);
  if (!opened) {
    emit failed(qs(opened.error().message), false);
    return;
  }
  auto& job = *opened;
  std::set<std::string> allocated;
  std::set<std::string> registered;
  std::uint64_t seen = 0;
  std::string lastState;
  int unreachable = 0;
  emit containersChanged(0, 0, total);
  while (!stop_) {
    auto report = job.report();
    if (!report) {
      // A ResourceManager restart is survivable; a minute of silence is not.
      if (++unreachable > 60) {
        emit failed(qs(report.error().message), false);
        return;
      }
      sleepUnlessStopped(1000);
      continue;
    }
    unreachable = 0;
    if (report->state != lastState) {
      lastState = report->state;
      emit stateChanged(qs(report->state));
    }
    if (report->finished()) break;
    const auto events = job.events_after(seen, std::chrono::seconds(1));
    for (const auto& event : events) {
      seen = event.sequence;
      emit jobEvent(qs(event.task), qs(event.kind), qs(event.message));
      if (event.kind == "allocated") allocated.insert(event.task);
      if (event.kind == "registered") registered.insert(event.task);
    }
    if (!events.empty()) {
      emit containersChanged(static_cast<int>(allocated.size()), static_cast<int>(registered.size()), total);
      (void)job.live_status();
    } else {
      sleepUnlessStopped(300);
    }
  }
  if (stop_) return;
  // The application master answers for a moment after unregistering.
  for (const auto& event : job.events_after(seen, std::chrono::milliseconds(0))) {
    emit jobEvent(qs(event.task), qs(event.kind), qs(event.message));
  }
  (void)job.live_status();
  job.remember_final_status();
  auto final = job.report();
  if (!final) {
    emit failed(qs(final.error().message), false);
    return;
  }
  emit finished(qs(final->final_status), qs(final->diagnostics));
}

}  // namespace spindle::gui
