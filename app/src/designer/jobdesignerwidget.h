#pragma once

#include <QMap>
#include <QWidget>
#include <nlohmann/json.hpp>
#include <optional>

#include "cluster/clusterinfo.h"
#include "cluster/hadoopsetup.h"
#include "designer/specbuilder.h"

class QListWidget;
class QListWidgetItem;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QTabWidget;
class QTimer;
class QToolButton;
class QLabel;

namespace spindle::gui {

class ApplicationPage;
class EnvironmentPreview;
class FieldMessages;
class TaskTypePage;

// The job designer: a page for the application and one per task type, each
// field validated by core while typing, with the normalized YAML and the
// environment of any task beside them. Opens and saves spec files the CLI
// reads.
class JobDesignerWidget : public QWidget {
  Q_OBJECT

 public:
  explicit JobDesignerWidget(QWidget* parent = nullptr);
  ~JobDesignerWidget() override;

  // Without dialogs, for the main window's actions and for tests.
  void newSpec();
  void loadSpec(const JobSpec& spec, const QString& path = {});
  bool openFile(const QString& path, QString* error = nullptr);
  bool saveTo(const QString& path, QString* error = nullptr);

  // With dialogs: asks before losing changes, picks files.
  bool maybeDiscardChanges();
  void open();
  bool save();
  bool saveAs();

  const QString& filePath() const { return filePath_; }
  bool isModified() const;
  // Validates what the fields hold now instead of after the typing pause.
  void validateNow();
  const SpecCheck& check() const { return check_; }
  // The spec, when core and the cluster find nothing wrong with it.
  std::optional<JobSpec> validSpec() const;
  QString yamlPreview() const;

  void setClusterInfo(const ClusterInfo& info);
  // Where the Application page asks whether the cluster holds the python_env.
  void setHadoopSetup(const HadoopSetup& setup);
  const ClusterInfo& clusterInfo() const { return cluster_; }
  // The fit tab's lines, as shown ("worker: fits now (...)"), warnings first.
  QStringList fitLines() const;

  QStringList taskTypes() const;
  TaskTypePage* taskPage(const QString& type) const;
  ApplicationPage* applicationPage() const { return applicationPage_; }
  EnvironmentPreview* environmentPreview() const { return environment_; }
  FieldMessages& fieldMessages() const { return *messages_; }
  // What is shown beside a field ("tasks.worker.memory"), and the field.
  QString messageFor(const QString& field) const;
  QWidget* fieldWidget(const QString& field) const;
  // Shows the page a field is on and puts the cursor in the field.
  void goToField(const QString& field);
  void showPage(const QString& type);  // "" for the application page

  // Adds a task type page (or shows it when the job has it); returns it.
  TaskTypePage* addTaskType(const QString& type);
  void removeTaskType(const QString& type);

 signals:
  void modifiedChanged(bool modified);
  void validityChanged(bool valid, int problems);
  void filePathChanged(const QString& path);
  void statusMessage(const QString& message);
  // The fit tab asks for the cluster's state anew.
  void clusterRefreshRequested();

 private:
  nlohmann::ordered_json document() const;
  void scheduleValidation();
  void showCheck();
  void showFit();
  void setFilePath(const QString& path);
  void markSaved();
  void clearTaskPages();
  void updateAddMenu();
  void addCustomTaskType();
  void removeCurrentTaskType();
  QListWidgetItem* itemFor(const QString& type) const;

  FieldMessages* messages_;
  ApplicationPage* applicationPage_;
  QMap<QString, TaskTypePage*> taskPages_;
  QListWidget* navigation_;
  QStackedWidget* pages_;
  QToolButton* addTask_;
  QPushButton* removeTask_;
  QTabWidget* side_;
  QPlainTextEdit* yaml_;
  QLabel* yamlState_;
  EnvironmentPreview* environment_;
  QListWidget* problems_;
  QListWidget* fit_;
  QLabel* fitState_;
  QTimer* validationTimer_;

  ClusterInfo cluster_;
  SpecCheck check_;
  std::optional<JobSpec> lastValid_;
  QString filePath_;
  std::string savedDocument_;
  bool wasModified_ = false;
  bool loading_ = false;
};

}  // namespace spindle::gui
