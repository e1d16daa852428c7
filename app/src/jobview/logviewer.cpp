#include "jobview/logviewer.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QTextCodec>
#include <QTextCursor>
#include <QVBoxLayout>
#include <QtConcurrent>
#include <mutex>
#include <optional>

#include "convert.h"
#include "spindle/client/container_logs.h"

namespace spindle::gui {

LogViewer::LogViewer(QWidget* parent) : QWidget(parent) {
  task_ = new QComboBox;
  task_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  task_->setMinimumContentsLength(12);
  task_->setProperty("spindleDynamicText", true);  // the job's task names
  file_ = new QComboBox;
  file_->addItem(QStringLiteral("stdout"), QStringLiteral("stdout"));
  file_->addItem(QStringLiteral("stderr"), QStringLiteral("stderr"));
  file_->setProperty("spindleDynamicText", true);  // file names, the same in every language
  follow_ = new QCheckBox(tr("&Follow"));
  follow_->setToolTip(tr("Ask for new output every two seconds"));
  refresh_ = new QPushButton(tr("&Reload"));
  where_ = new QLabel;
  where_->setProperty("spindleDynamicText", true);
  where_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // A long sentence (a failed read) must not widen the window; its whole text is the tooltip.
  where_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  text_ = new QPlainTextEdit;
  text_->setReadOnly(true);
  text_->setLineWrapMode(QPlainTextEdit::NoWrap);
  text_->setMaximumBlockCount(maximumLines);
  text_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  text_->setPlaceholderText(tr("Choose a task whose container has started."));

  auto* top = new QHBoxLayout;
  auto* taskLabel = new QLabel(tr("&Task:"));
  taskLabel->setBuddy(task_);
  top->addWidget(taskLabel);
  top->addWidget(task_);
  top->addWidget(file_);
  top->addWidget(follow_);
  top->addWidget(refresh_);
  top->addWidget(where_, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(top);
  layout->addWidget(text_, 1);

  timer_.setInterval(2000);
  connect(&timer_, &QTimer::timeout, this, &LogViewer::refresh);
  connect(task_, qOverload<int>(&QComboBox::currentIndexChanged), this, &LogViewer::restart);
  connect(file_, qOverload<int>(&QComboBox::currentIndexChanged), this, &LogViewer::restart);
  connect(follow_, &QCheckBox::toggled, this, [this](bool on) {
    if (on) {
      timer_.start();
      refresh();
    } else {
      timer_.stop();
    }
  });
  connect(refresh_, &QPushButton::clicked, this, &LogViewer::refresh);
  connect(&watcher_, &QFutureWatcherBase::finished, this, [this] {
    const Fetch result = watcher_.result();
    taken(result.problem, result.fetched, result.key);
    if (pending_) {
      pending_ = false;
      refresh();
    }
  });
}

LogViewer::~LogViewer() {
  timer_.stop();
  watcher_.waitForFinished();
}

void LogViewer::setSetup(const HadoopSetup& setup, const QString& applicationId) {
  auto service = std::make_shared<Result<std::shared_ptr<client::JobService>>>(setup.service());
  setFetcher([service, id = ss(applicationId)](const Place& place, const std::string& file) -> Result<Fetched> {
    if (!*service) return service->error();
    auto log = (**service)->task_log(id, {place.task, place.container, place.node, place.nodeHttpAddress}, file);
    if (!log) return log.error();
    return Fetched{std::move(log->text), log->aggregated};
  });
}

void LogViewer::setFetcher(Fetcher fetcher) {
  watcher_.waitForFinished();
  fetcher_ = std::move(fetcher);
  sharedFetcher_ = std::make_shared<Fetcher>(fetcher_);
}

void LogViewer::setTasks(const JobStatus& status) {
  bool changed = false;
  for (const auto& task : status.tasks) {
    const QString name = qs(task.task);
    Place place{task.task, task.container, task.node, task.node_http_address};
    auto found = places_.find(name);
    if (found == places_.end()) {
      places_.insert(name, place);
      const QSignalBlocker blocker(task_);
      task_->addItem(name, name);
      changed = true;
    } else if (found->container != place.container || found->nodeHttpAddress != place.nodeHttpAddress ||
               found->node != place.node) {
      *found = place;
      if (name == currentTask()) changed = true;
    }
  }
  if (!changed) return;
  updateHeader();
  // A restarted task's new container, or the first task: read it now.
  if (task_->currentIndex() >= 0) {
    const auto& place = places_.value(currentTask());
    const QString key = qs(place.container) + QLatin1Char('/') + currentFile();
    if (key != shownKey_) restart();
  }
}

void LogViewer::selectTask(const QString& task) {
  const int index = task_->findData(task);
  if (index >= 0) task_->setCurrentIndex(index);
}

QString LogViewer::currentTask() const {
  return task_->currentData().toString();
}

void LogViewer::selectFile(const QString& file) {
  const int index = file_->findData(file);
  if (index >= 0) file_->setCurrentIndex(index);
}

QString LogViewer::currentFile() const {
  return file_->currentData().toString();
}

void LogViewer::setFollow(bool follow) {
  follow_->setChecked(follow);
}

bool LogViewer::isFollowing() const {
  return follow_->isChecked();
}

void LogViewer::setFollowInterval(int milliseconds) {
  timer_.setInterval(milliseconds);
}

QString LogViewer::text() const {
  return text_->toPlainText();
}

QString LogViewer::status() const {
  return where_->text();
}

void LogViewer::updateHeader() {
  const auto place = places_.value(currentTask());
  where_->setStyleSheet({});
  where_->setToolTip({});
  if (place.container.empty()) {
    where_->clear();
  } else if (complete_) {
    where_->setText(tr("%1: complete, from the logs kept after the job").arg(qs(place.container)));
  } else {
    where_->setText(tr("%1 @ %2: live, may grow").arg(qs(place.container), qs(place.nodeHttpAddress)));
  }
  where_->setToolTip(where_->text());
}

void LogViewer::restart() {
  text_->clear();
  shown_ = 0;
  complete_ = false;
  shownKey_.clear();
  decoder_.reset(QTextCodec::codecForName("UTF-8")->makeDecoder());
  updateHeader();
  refresh();
}

void LogViewer::refresh() {
  if (watcher_.isRunning()) {
    pending_ = true;
    return;
  }
  const auto place = places_.value(currentTask());
  if (place.container.empty() || !sharedFetcher_) return;
  const std::string file = ss(currentFile());
  const std::string key = place.container + "/" + file;
  watcher_.setFuture(QtConcurrent::run([fetcher = sharedFetcher_, place, file, key] {
    Fetch fetch;
    fetch.key = key;
    auto fetched = (*fetcher)(place, file);
    if (!fetched) {
      fetch.problem = qs(fetched.error().message);
    } else {
      fetch.fetched = std::move(*fetched);
    }
    return fetch;
  }));
}

void LogViewer::taken(const QString& problem, const Fetched& answer, const std::string& key) {
  const std::string& text = answer.text;
  const auto place = places_.value(currentTask());
  // An answer for what the view no longer shows.
  if (key != place.container + "/" + ss(currentFile())) {
    emit fetched();
    return;
  }
  if (!problem.isEmpty()) {
    // Said where it is seen: the text below may be incomplete.
    where_->setText(problem);
    where_->setToolTip(problem);
    where_->setStyleSheet(QStringLiteral("color: white; background: #b3261e; padding: 1px 4px;"));
    emit fetched();
    return;
  }
  complete_ = answer.complete;
  updateHeader();
  const QString shownKey = qs(key);
  if (shownKey != shownKey_ || static_cast<qint64>(text.size()) < shown_) {
    // Another file, or the same one started over.
    text_->clear();
    shown_ = 0;
    shownKey_ = shownKey;
    decoder_.reset(QTextCodec::codecForName("UTF-8")->makeDecoder());
  }
  if (static_cast<qint64>(text.size()) > shown_) {
    QScrollBar* bar = text_->verticalScrollBar();
    const bool atEnd = bar->value() >= bar->maximum() - 2;
    const QString added =
        decoder_->toUnicode(text.data() + shown_, static_cast<int>(static_cast<qint64>(text.size()) - shown_));
    shown_ = static_cast<qint64>(text.size());
    QTextCursor cursor(text_->document());
    cursor.movePosition(QTextCursor::End);
    cursor.insertText(added);
    if (atEnd || isFollowing()) bar->setValue(bar->maximum());
  }
  emit fetched();
}

}  // namespace spindle::gui
