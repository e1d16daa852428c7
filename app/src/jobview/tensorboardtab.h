#pragma once

#include <QUrl>
#include <QWidget>

class QLabel;
class QProgressBar;
class QToolButton;
class QWebEngineView;

namespace spindle::gui {

// A job's TensorBoard inside the window: a web view on the app's local
// proxy (http://127.0.0.1:PORT/tb/<application id>/). Built only with
// SPINDLE_WEBENGINE, in its own library, so nothing else links WebEngine.
class TensorBoardTab : public QWidget {
  Q_OBJECT

 public:
  explicit TensorBoardTab(const QUrl& url, QWidget* parent = nullptr);

  QWebEngineView* view() const { return view_; }
  QUrl url() const { return url_; }
  bool hasLoaded() const { return loaded_; }
  bool lastLoadOk() const { return lastOk_; }

 public slots:
  void load();
  void reload();

 signals:
  void loadFinished(bool ok);

 private:
  QUrl url_;
  QWebEngineView* view_;
  QLabel* address_;
  QProgressBar* progress_;
  QToolButton* reload_;
  QToolButton* external_;
  bool loaded_ = false;
  bool lastOk_ = false;
};

}  // namespace spindle::gui
