#include "compare/compareview.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent>
#include <algorithm>
#include <optional>
#include <set>

#include "convert.h"
#include "jobview/scalarchartview.h"
#include "spindle/client/history_store.h"
#include "spindle/client/mlflow_tracking.h"

namespace spindle::gui {
namespace {

// Losses and errors are best when low; anything else (accuracy, AUC) when high.
bool lowerIsBetter(const QString& tag) {
  const QString lower = tag.toLower();
  return lower.contains(QLatin1String("loss")) || lower.contains(QLatin1String("error")) ||
         lower.contains(QLatin1String("mse")) || lower.contains(QLatin1String("mae"));
}

// The spec kept at submit, its parameters flattened into the job; false when it cannot be read back.
bool readParameters(const client::JobHistoryEntry& entry, CompareView::Job& job) {
  const auto spec = entry.spec();
  if (!spec) {
    job.problem = QObject::tr("its spec could not be read back");
    return false;
  }
  for (const auto& [key, value] : client::spec_parameters(*spec)) job.parameters[qs(key)] = qs(value);
  return true;
}

void nameJob(CompareView::Job& job, const std::string& name, const std::string& state) {
  job.label = qs(name) + QStringLiteral(" (") + job.applicationId.right(4) + QLatin1Char(')');
  job.state = qs(state);
}

// The job's record and scalars, wherever the service reads them.
void readJob(client::JobService& service, const QString& historyPath, CompareView::Job& job) {
  const auto id = ss(job.applicationId);
  auto record = service.job_on_record(ss(historyPath), id);
  if (!record) {
    job.problem = record.error().kind == Error::Kind::not_found ? QObject::tr("not in the job history")
                                                                : qs(record.error().message);
    return;
  }
  const auto* entry = &record->entry;
  nameJob(job, entry->name, entry->state);
  if (!entry->spec_yaml.empty() && !readParameters(*entry, job)) return;
  auto points = service.all_scalars(id, entry->output_location());
  if (!points) {
    job.problem = qs(points.error().message);
    return;
  }
  for (const auto& point : *points) {
    job.scalars[qs(point.tag)][qs(point.run)].append(QPointF(static_cast<double>(point.step), point.value));
  }
}

std::vector<CompareView::Job> loadJobs(const QStringList& ids, const QString& historyPath, const HadoopSetup& setup) {
  const auto service = setup.service();
  std::vector<CompareView::Job> jobs;
  for (const QString& id : ids) {
    CompareView::Job job;
    job.applicationId = id;
    job.label = id.right(4);
    if (service) {
      readJob(**service, historyPath, job);
    } else {
      job.problem = qs(service.error().message);
    }
    jobs.push_back(std::move(job));
  }
  return jobs;
}

}  // namespace

CompareView::CompareView(const QStringList& applicationIds, const QString& historyPath, const HadoopSetup& setup,
                         QWidget* parent)
    : QWidget(parent), ids_(applicationIds) {
  note_ = new QLabel(tr("Reading the event files of %n job(s)…", nullptr, static_cast<int>(ids_.size())));
  note_->setWordWrap(true);
  note_->setProperty("spindleDynamicText", true);
  chart_ = new ScalarChartView;
  table_ = new QTableWidget;
  table_->setAccessibleName(tr("Runs compared"));
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSortingEnabled(true);
  table_->verticalHeader()->hide();
  auto* split = new QSplitter(Qt::Vertical);
  split->addWidget(chart_);
  split->addWidget(table_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(note_);
  layout->addWidget(split, 1);
  connect(chart_, &ScalarChartView::currentKeyChanged, this, &CompareView::fillTable);
  connect(&watcher_, &QFutureWatcherBase::finished, this, [this] { showJobs(watcher_.result()); });
  watcher_.setFuture(QtConcurrent::run(loadJobs, ids_, historyPath, setup));
}

CompareView::~CompareView() {
  watcher_.waitForFinished();
}

QString CompareView::seriesName(const QString& applicationId, const QString& run) const {
  for (const auto& job : jobs_) {
    if (job.applicationId == applicationId) return job.label + QStringLiteral(" · ") + run;
  }
  return {};
}

void CompareView::showJobs(const std::vector<Job>& jobs) {
  jobs_ = jobs;
  // The keys whose values are not the same in every job (a key only some have differs too).
  std::set<QString> keys;
  for (const auto& job : jobs_) {
    for (const auto& [key, value] : job.parameters) keys.insert(key);
  }
  differingKeys_.clear();
  for (const QString& key : keys) {
    std::set<QString> values;
    for (const auto& job : jobs_) {
      const auto found = job.parameters.find(key);
      values.insert(found == job.parameters.end() ? QStringLiteral("(not set)") : found->second);
    }
    if (values.size() > 1) differingKeys_ << key;
  }
  QStringList problems;
  for (const auto& job : jobs_) {
    if (!job.problem.isEmpty()) problems << job.applicationId + QStringLiteral(": ") + job.problem;
    for (const auto& [tag, runs] : job.scalars) {
      for (const auto& [run, points] : runs) chart_->setPoints(tag, job.label + QStringLiteral(" · ") + run, points);
    }
  }
  chart_->flush();
  note_->setText(problems.isEmpty() ? tr("%n job(s); the keys of their specs that differ are in the table.", nullptr,
                                         static_cast<int>(jobs_.size()))
                                    : problems.join(QLatin1Char('\n')));
  fillTable();
  emit loaded();
}

void CompareView::fillTable() {
  const QString tag = chart_->currentKey();
  QStringList headers = {tr("Series"), tr("State"), tr("Final"), tr("Best")};
  headers << differingKeys_;
  table_->setSortingEnabled(false);
  table_->clear();
  table_->setColumnCount(static_cast<int>(headers.size()));
  table_->setHorizontalHeaderLabels(headers);
  table_->setRowCount(0);
  const bool lower = lowerIsBetter(tag);
  for (const auto& job : jobs_) {
    const auto runs = job.scalars.find(tag);
    if (runs == job.scalars.end()) continue;
    for (const auto& [run, points] : runs->second) {
      if (points.isEmpty()) continue;
      const int row = table_->rowCount();
      table_->insertRow(row);
      // The final value is the one of the highest step.
      const auto last = std::max_element(points.begin(), points.end(),
                                         [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
      const auto best = lower ? std::min_element(points.begin(), points.end(),
                                                 [](const QPointF& a, const QPointF& b) { return a.y() < b.y(); })
                              : std::max_element(points.begin(), points.end(),
                                                 [](const QPointF& a, const QPointF& b) { return a.y() < b.y(); });
      auto number = [](double value) {
        auto* item = new QTableWidgetItem;
        item->setData(Qt::DisplayRole, value);
        return item;
      };
      table_->setItem(row, 0, new QTableWidgetItem(job.label + QStringLiteral(" · ") + run));
      table_->setItem(row, 1, new QTableWidgetItem(job.state));
      table_->setItem(row, 2, number(last->y()));
      auto* bestItem = number(best->y());
      bestItem->setToolTip(tr("at step %1").arg(best->x()));
      table_->setItem(row, 3, bestItem);
      for (int column = 0; column < differingKeys_.size(); ++column) {
        const auto found = job.parameters.find(differingKeys_[column]);
        table_->setItem(row, 4 + column,
                        new QTableWidgetItem(found == job.parameters.end() ? tr("(not set)") : found->second));
      }
    }
  }
  table_->setSortingEnabled(true);
  table_->resizeColumnsToContents();
}

}  // namespace spindle::gui
