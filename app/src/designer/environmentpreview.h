#pragma once

#include <QWidget>
#include <optional>

#include "spindle/core/environment.h"
#include "spindle/core/job_spec.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QTableWidget;

namespace spindle::gui {

// The environment one task's command would see (core's render-env), for
// addresses the user may edit; placeholders until then.
class EnvironmentPreview : public QWidget {
  Q_OBJECT

 public:
  explicit EnvironmentPreview(QWidget* parent = nullptr);

  // Nothing to show while the spec has problems.
  void setSpec(const std::optional<JobSpec>& spec);

  QString hosts() const;
  void setHosts(const QString& hosts);
  QString task() const;
  void setTask(const QString& task);
  QString applicationId() const;
  // What the table shows; empty when it shows a problem instead.
  const Environment& environment() const { return environment_; }
  QString problem() const;

  // "chief:0=chief-0:2222,worker:0=worker-0:2222,...": one made-up host per task.
  static QString placeholderHosts(const JobSpec& spec);

 private:
  void render();
  void copyAsShell();

  std::optional<JobSpec> spec_;
  Environment environment_;
  QLineEdit* hosts_;
  QLineEdit* applicationId_;
  QComboBox* task_;
  QTableWidget* table_;
  QLabel* problem_;
  QString lastPlaceholder_;
};

}  // namespace spindle::gui
