#include "jobview/tensorboardtab.h"

#include <QDesktopServices>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWebEngineView>

namespace spindle::gui {

TensorBoardTab::TensorBoardTab(const QUrl& url, QWidget* parent) : QWidget(parent), url_(url) {
  view_ = new QWebEngineView;
  address_ = new QLabel(url.toString());
  address_->setProperty("spindleDynamicText", true);
  address_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  progress_ = new QProgressBar;
  progress_->setRange(0, 100);
  progress_->setMaximumWidth(160);
  progress_->setTextVisible(false);
  progress_->hide();
  reload_ = new QToolButton;
  reload_->setIcon(style()->standardIcon(QStyle::SP_BrowserReload));
  reload_->setToolTip(tr("Reload TensorBoard"));
  external_ = new QToolButton;
  external_->setIcon(style()->standardIcon(QStyle::SP_DirLinkIcon));
  external_->setToolTip(tr("Open TensorBoard in the web browser"));

  auto* top = new QHBoxLayout;
  top->addWidget(reload_);
  top->addWidget(external_);
  top->addWidget(address_, 1);
  top->addWidget(progress_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(top);
  layout->addWidget(view_, 1);

  connect(reload_, &QToolButton::clicked, this, &TensorBoardTab::reload);
  connect(external_, &QToolButton::clicked, this, [this] { QDesktopServices::openUrl(url_); });
  connect(view_, &QWebEngineView::loadStarted, this, [this] {
    progress_->setValue(0);
    progress_->show();
  });
  connect(view_, &QWebEngineView::loadProgress, progress_, &QProgressBar::setValue);
  connect(view_, &QWebEngineView::loadFinished, this, [this](bool ok) {
    progress_->hide();
    loaded_ = true;
    lastOk_ = ok;
    emit loadFinished(ok);
  });
}

void TensorBoardTab::load() {
  view_->load(url_);
}

void TensorBoardTab::reload() {
  if (view_->url().isEmpty()) {
    load();
  } else {
    view_->reload();
  }
}

}  // namespace spindle::gui
