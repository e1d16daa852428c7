// The job view under load, offscreen:
//  1. a job of N simulated containers (default 1,000), a new status every
//     second for S seconds (default 30): phases move on, ports and exit codes
//     appear, a few tasks restart, every running task's memory and CPU
//     change. CPU time of the whole process (getrusage) over the run, as a
//     percentage of one core; once with the Containers tab in front, once
//     with the Resources chart (memory of every container) in front.
//  2. a chart of 100,000 points: time to hand them over and draw them the
//     first time, then 20 resizes and repaints.
//
//     gui_jobview_bench [--containers N] [--seconds S] [--points P]
#include <sys/resource.h>

#include <QApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QTabWidget>
#include <QTimer>
#include <QtCharts/QChartView>
#include <cmath>
#include <cstdio>
#include <random>

#include "jobview/containertablemodel.h"
#include "jobview/jobview.h"
#include "jobview/scalarchartview.h"
#include "jobview/usagechartview.h"

using namespace spindle;
using namespace spindle::gui;

namespace {

double cpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

// A job whose tasks go requested -> launching -> registered -> running ->
// succeeded at their own pace; some fail and are restarted.
class SimulatedJob {
 public:
  explicit SimulatedJob(int containers) : random_(42) {
    status_.application_id = "application_1795288567147_4242";
    status_.name = "simulated";
    status_.state = "running";
    for (int i = 0; i < containers; ++i) {
      TaskStatus task;
      task.task = (i == 0 ? "chief:" : "worker:") + std::to_string(i == 0 ? 0 : i - 1);
      task.phase = "requested";
      status_.tasks.push_back(task);
    }
  }

  const JobStatus& next() {
    std::uniform_real_distribution<double> chance(0, 1);
    int index = 0;
    for (auto& task : status_.tasks) {
      ++index;
      const double p = chance(random_);
      const std::string host = "node-" + std::to_string(index % 40) + ".example.com";
      if (task.phase == "requested" && p < 0.3) {
        task.phase = "launching";
        task.container = "container_1795288567147_4242_01_" + std::to_string(100000 + index + 1000 * task.restarts);
        task.node = host + ":45454";
        task.node_http_address = host + ":8042";
        task.log_url = "http://" + task.node_http_address + "/node/containerlogs/" + task.container + "/bench";
      } else if (task.phase == "launching" && p < 0.5) {
        task.phase = "registered";
        task.address = host + ":" + std::to_string(30000 + index);
      } else if (task.phase == "registered" && p < 0.6) {
        task.phase = "running";
      } else if (task.phase == "running") {
        task.rss_bytes =
            static_cast<std::uint64_t>((400 + index % 300 + 50 * std::sin(tick_ / 10.0 + index)) * 1048576);
        task.cpu_seconds += 0.5 + chance(random_);
        if (p < 0.002) {
          task.phase = "failed";
          task.exit_code = 1;
        } else if (p < 0.006 && tick_ > 20) {
          task.phase = "succeeded";
          task.exit_code = 0;
        }
      } else if (task.phase == "failed" && p < 0.5) {
        task.phase = "requested";
        task.exit_code.reset();
        task.address.clear();
        ++task.restarts;
      }
    }
    ++tick_;
    return status_;
  }

 private:
  JobStatus status_;
  std::mt19937 random_;
  int tick_ = 0;
};

struct Load {
  double percent = 0;
  double seconds = 0;
  long long cellsChanged = 0;
};

Load runJob(int containers, int seconds, bool resources) {
  JobViewOptions options;
  options.monitor = false;
  JobView view(QStringLiteral("application_1795288567147_4242"), options);
  view.resize(1280, 800);
  view.show();
  view.tabs()->setCurrentIndex(resources ? JobView::ResourcesPage : JobView::ContainersPage);
  SimulatedJob job(containers);
  QApplication::processEvents();

  Load load;
  int ticks = 0;
  QEventLoop loop;
  QTimer timer;
  timer.setInterval(1000);
  const double cpuStart = cpuSeconds();
  QElapsedTimer wall;
  wall.start();
  QObject::connect(&timer, &QTimer::timeout, [&] {
    view.applyStatus(job.next(), QDateTime::currentMSecsSinceEpoch());
    load.cellsChanged += view.model()->lastChangedCells();
    if (++ticks >= seconds) loop.quit();
  });
  timer.start();
  loop.exec();
  // Let the last update be drawn.
  QApplication::processEvents();
  load.seconds = static_cast<double>(wall.nsecsElapsed()) / 1e9;
  load.percent = 100.0 * (cpuSeconds() - cpuStart) / load.seconds;
  return load;
}

}  // namespace

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  int containers = 1000, seconds = 30, points = 100000;
  const QStringList args = QApplication::arguments();
  for (int i = 1; i + 1 < args.size(); ++i) {
    if (args[i] == QLatin1String("--containers")) containers = args[i + 1].toInt();
    if (args[i] == QLatin1String("--seconds")) seconds = args[i + 1].toInt();
    if (args[i] == QLatin1String("--points")) points = args[i + 1].toInt();
  }

  std::printf("job view, %d simulated containers, a new status every second for %d s:\n", containers, seconds);
  for (const bool resources : {false, true}) {
    const Load load = runJob(containers, seconds, resources);
    std::printf("  %-24s %5.2f %% of one core (%.1f s, %lld cells changed)\n",
                resources ? "Resources tab in front:" : "Containers tab in front:", load.percent, load.seconds,
                load.cellsChanged);
    std::fflush(stdout);
  }

  std::printf("chart of %d points:\n", points);
  ScalarChartView chart;
  chart.resize(1200, 700);
  chart.show();
  QApplication::processEvents();
  QVector<QPointF> series;
  series.reserve(points);
  for (int i = 0; i < points; ++i) series.append(QPointF(i, 2.0 * std::exp(-i / (points / 5.0)) + 0.1 * std::sin(i)));
  QElapsedTimer timer;
  timer.start();
  chart.setPoints(QStringLiteral("loss"), QStringLiteral("train"), series);
  chart.flush();
  chart.chartView()->viewport()->repaint();
  std::printf("  set and first draw: %.1f ms\n", static_cast<double>(timer.nsecsElapsed()) / 1e6);
  timer.restart();
  for (int i = 0; i < 20; ++i) {
    chart.resize(1200 - (i % 2) * 300, 700 - (i % 2) * 150);
    QApplication::processEvents();
    chart.flush();
    chart.chartView()->viewport()->repaint();
  }
  std::printf("  20 resizes and repaints: %.1f ms (%.1f ms each)\n", static_cast<double>(timer.nsecsElapsed()) / 1e6,
              static_cast<double>(timer.nsecsElapsed()) / 1e6 / 20);
  timer.restart();
  for (int i = 0; i < 20; ++i) chart.chartView()->viewport()->repaint();
  std::printf("  20 repaints: %.1f ms (%.1f ms each)\n", static_cast<double>(timer.nsecsElapsed()) / 1e6,
              static_cast<double>(timer.nsecsElapsed()) / 1e6 / 20);
  return 0;
}
