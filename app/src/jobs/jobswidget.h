#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;

namespace spindle::gui {

class JobsFilterProxy;
class JobsModel;

// The list of running and past jobs with a search field and a state filter.
// Enter or a double click opens a job.
class JobsWidget : public QWidget {
  Q_OBJECT

 public:
  explicit JobsWidget(JobsModel* model, QWidget* parent = nullptr);

  JobsModel* model() const { return model_; }
  JobsFilterProxy* proxy() const { return proxy_; }
  QTableView* view() const { return view_; }
  QLineEdit* searchField() const { return search_; }
  QComboBox* stateFilter() const { return states_; }
  // The selected job's application id, or "".
  QString selectedApplicationId() const;
  QStringList selectedApplicationIds() const;
  void selectApplication(const QString& applicationId);

 public slots:
  // Why the list may be behind the cluster (the poller's last failure); empty: it is not.
  void setUpdateProblem(const QString& problem);
  void focusSearch();
  void copySelectedId();
  void openSelected();
  // Asks for the comparison of the selected jobs (two or more).
  void compareSelected();

 signals:
  void openJobRequested(const QString& applicationId);
  void compareRequested(const QStringList& applicationIds);
  void statusMessage(const QString& message);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void applyStateFilter();
  void updateSummary();
  void colourProblem();

  JobsModel* model_;
  JobsFilterProxy* proxy_;
  QTableView* view_;
  QLineEdit* search_;
  QComboBox* states_;
  QLabel* summary_;
  QLabel* behind_;  // why the list may be behind the cluster
  QLabel* empty_;
};

}  // namespace spindle::gui
