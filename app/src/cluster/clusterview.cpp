#include "cluster/clusterview.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent>
#include <map>

#include "convert.h"

namespace spindle::gui {
namespace {

constexpr const char* gpuResource = "yarn.io/gpu";

qint64 gpusOf(const yarn::Resources& resources) {
  const auto found = resources.others.find(gpuResource);
  return found == resources.others.end() ? 0 : found->second;
}

QString percent(float share) {
  return QString::number(static_cast<double>(share) * 100, 'f', 0) + QLatin1Char('%');
}

// A number cell that sorts as a number and reads as "used / total".
QStandardItem* usedOf(qint64 used, qint64 total, const QString& unit = {}) {
  auto* item = new QStandardItem(QStringLiteral("%1 / %2%3").arg(used).arg(total).arg(unit));
  item->setData(used, Qt::UserRole);
  item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

QStandardItem* textItem(const QString& text) {
  auto* item = new QStandardItem(text);
  item->setData(text, Qt::UserRole);
  return item;
}

void addQueue(const yarn::QueueInfo& queue, QTreeWidgetItem* parent, QTreeWidget* tree) {
  auto* item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(tree);
  QStringList labels;
  for (const auto& label : queue.accessible_labels) labels << qs(label);
  item->setText(0, qs(queue.name));
  item->setText(1, qs(queue.state));
  item->setText(2, percent(queue.capacity));
  item->setText(3, percent(queue.current_capacity));
  item->setText(4, percent(queue.maximum_capacity));
  item->setText(5, queue.apps_running < 0 ? QString() : QString::number(queue.apps_running));
  item->setText(6, queue.apps_pending < 0 ? QString() : QString::number(queue.apps_pending));
  item->setText(7, labels.join(QStringLiteral(", ")));
  item->setToolTip(0, qs(queue.path));
  for (int column = 2; column <= 6; ++column) item->setTextAlignment(column, Qt::AlignRight | Qt::AlignVCenter);
  for (const auto& child : queue.children) addQueue(child, item, tree);
}

}  // namespace

ClusterView::ClusterView(QWidget* parent) : QWidget(parent) {
  heard_ = new QLabel;
  heard_->setWordWrap(true);
  heard_->setProperty("spindleDynamicText", true);  // the cluster's own sentences
  auto* refreshButton = new QPushButton(tr("&Refresh"));
  connect(refreshButton, &QPushButton::clicked, this, &ClusterView::refresh);

  queues_ = new QTreeWidget;
  queues_->setHeaderLabels({tr("Queue"), tr("State"), tr("Capacity"), tr("Used"), tr("Maximum"), tr("Running"),
                            tr("Pending"), tr("Labels")});
  queues_->setAccessibleName(tr("Queues"));
  queues_->setSortingEnabled(true);
  queues_->sortByColumn(0, Qt::AscendingOrder);

  labels_ = new QStandardItemModel(this);
  labels_->setHorizontalHeaderLabels({tr("Label"), tr("Nodes"), tr("GPUs used"), tr("Memory used (MiB)")});
  auto* labelsView = new QTableView;
  labelsView->setModel(labels_);
  labelsView->setAccessibleName(tr("Node labels"));
  labelsView->verticalHeader()->hide();
  labelsView->horizontalHeader()->setStretchLastSection(true);

  nodes_ = new QStandardItemModel(this);
  nodes_->setHorizontalHeaderLabels({tr("Node"), tr("State"), tr("Labels"), tr("Containers"), tr("Memory (MiB)"),
                                     tr("Vcores"), tr("GPUs"), tr("Health")});
  nodesProxy_ = new QSortFilterProxyModel(this);
  nodesProxy_->setSourceModel(nodes_);
  nodesProxy_->setSortRole(Qt::UserRole);
  nodesProxy_->setFilterKeyColumn(-1);
  nodesProxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  nodesView_ = new QTableView;
  nodesView_->setModel(nodesProxy_);
  nodesView_->setSortingEnabled(true);
  nodesView_->sortByColumn(0, Qt::AscendingOrder);
  nodesView_->setAccessibleName(tr("Nodes"));
  nodesView_->verticalHeader()->hide();
  nodesView_->horizontalHeader()->setStretchLastSection(true);
  filter_ = new QLineEdit;
  filter_->setPlaceholderText(tr("Filter nodes by name, state, label or health"));
  filter_->setClearButtonEnabled(true);
  connect(filter_, &QLineEdit::textChanged, nodesProxy_, &QSortFilterProxyModel::setFilterFixedString);

  auto* header = new QHBoxLayout;
  header->addWidget(heard_, 1);
  header->addWidget(refreshButton);
  auto* nodesPane = new QWidget;
  auto* nodesLayout = new QVBoxLayout(nodesPane);
  nodesLayout->setContentsMargins(0, 0, 0, 0);
  auto* filterLabel = new QLabel(tr("&Filter:"));
  filterLabel->setBuddy(filter_);
  auto* filterRow = new QHBoxLayout;
  filterRow->addWidget(filterLabel);
  filterRow->addWidget(filter_, 1);
  nodesLayout->addLayout(filterRow);
  nodesLayout->addWidget(nodesView_, 1);
  auto* right = new QSplitter(Qt::Vertical);
  right->addWidget(labelsView);
  right->addWidget(nodesPane);
  right->setStretchFactor(1, 3);
  auto* split = new QSplitter(Qt::Horizontal);
  split->addWidget(queues_);
  split->addWidget(right);
  split->setStretchFactor(1, 2);
  split->setSizes({560, 720});
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(header);
  layout->addWidget(split, 1);
  heard_->setText(tr("Not asked yet."));

  timer_.setInterval(5000);
  connect(&timer_, &QTimer::timeout, this, &ClusterView::refresh);
  connect(&watcher_, &QFutureWatcherBase::finished, this, [this] { showAnswer(watcher_.result()); });
}

ClusterView::~ClusterView() {
  timer_.stop();
  watcher_.waitForFinished();
}

void ClusterView::setSetup(const HadoopSetup& setup) {
  setup_ = setup;
  if (isVisible()) refresh();
}

void ClusterView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  refresh();
  timer_.start();
}

void ClusterView::hideEvent(QHideEvent* event) {
  QWidget::hideEvent(event);
  timer_.stop();
}

void ClusterView::refresh() {
  if (watcher_.isRunning()) return;
  watcher_.setFuture(QtConcurrent::run([setup = setup_]() {
    Answer answer;
    auto service = setup.service();
    if (!service) {
      answer.problem = qs(service.error().message);
      return answer;
    }
    auto state = (*service)->cluster_state();
    if (!state) {
      answer.problem = setup.explain(state.error());
      return answer;
    }
    answer.ok = true;
    answer.state = std::move(*state);
    answer.atMs = QDateTime::currentMSecsSinceEpoch();
    return answer;
  }));
}

void ClusterView::showAnswer(const Answer& answer) {
  if (!answer.ok) {
    heard_->setText(lastHeardMs_ == 0
                        ? tr("The cluster did not answer: %1").arg(answer.problem)
                        : tr("Last heard from the cluster at %1; it does not answer now: %2")
                              .arg(QDateTime::fromMSecsSinceEpoch(lastHeardMs_).toString(QStringLiteral("HH:mm:ss")),
                                   answer.problem));
    emit refreshed(false);
    return;
  }
  lastHeardMs_ = answer.atMs;
  heard_->setText(tr("%n node(s), as of %1", nullptr, static_cast<int>(answer.state.nodes.size()))
                      .arg(QDateTime::fromMSecsSinceEpoch(answer.atMs).toString(QStringLiteral("HH:mm:ss"))));

  queues_->setUpdatesEnabled(false);
  queues_->clear();
  addQueue(answer.state.root, nullptr, queues_);
  queues_->expandAll();
  for (int column = 0; column < queues_->columnCount(); ++column) queues_->resizeColumnToContents(column);
  queues_->setUpdatesEnabled(true);

  struct LabelTotals {
    int nodes = 0;
    qint64 gpusUsed = 0, gpus = 0, memoryUsed = 0, memory = 0;
  };
  std::map<QString, LabelTotals> byLabel;
  nodes_->removeRows(0, nodes_->rowCount());
  for (const auto& node : answer.state.nodes) {
    QStringList labels;
    for (const auto& label : node.labels) labels << qs(label);
    for (const QString& name : labels.isEmpty() ? QStringList{tr("(no label)")} : labels) {
      auto& totals = byLabel[name];
      ++totals.nodes;
      totals.gpusUsed += gpusOf(node.used);
      totals.gpus += gpusOf(node.capability);
      totals.memoryUsed += node.used.memory_mib;
      totals.memory += node.capability.memory_mib;
    }
    auto* containers = new QStandardItem(QString::number(node.containers));
    containers->setData(node.containers, Qt::UserRole);
    containers->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    auto* health = textItem(qs(node.health_report));
    health->setToolTip(qs(node.health_report));
    nodes_->appendRow({textItem(qs(node.id)), textItem(qs(node.state)), textItem(labels.join(QStringLiteral(", "))),
                       containers, usedOf(node.used.memory_mib, node.capability.memory_mib),
                       usedOf(node.used.vcores, node.capability.vcores),
                       usedOf(gpusOf(node.used), gpusOf(node.capability)), health});
  }
  labels_->removeRows(0, labels_->rowCount());
  for (const auto& [name, totals] : byLabel) {
    auto* nodesCount = new QStandardItem(QString::number(totals.nodes));
    nodesCount->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    labels_->appendRow(
        {textItem(name), nodesCount, usedOf(totals.gpusUsed, totals.gpus), usedOf(totals.memoryUsed, totals.memory)});
  }
  nodesView_->horizontalHeader()->resizeSections(QHeaderView::ResizeToContents);
  emit refreshed(true);
}

}  // namespace spindle::gui
