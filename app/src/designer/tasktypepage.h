#pragma once

#include <QWidget>
#include <nlohmann/json.hpp>

#include "cluster/clusterinfo.h"
#include "spindle/core/job_spec.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace spindle::gui {

class FieldMessages;
class KeyValueTable;
class LimitedSpinBox;

// One task type of the job (chief, worker, ps, evaluator, tensorboard or a
// custom one): how many, how large, where, and what it runs.
class TaskTypePage : public QWidget {
  Q_OBJECT

 public:
  TaskTypePage(const QString& type, FieldMessages& messages, QWidget* parent = nullptr);

  const QString& type() const { return type_; }
  void load(const TaskSpec& task);
  // Adds this type's entry, as typed, under the document's `tasks`.
  void write(nlohmann::ordered_json& tasks) const;
  void setClusterInfo(const ClusterInfo& info);

  // A sentence on what the type does in a job, for people.
  static QString describe(const QString& type);

 signals:
  void changed();

 private:
  QString type_;
  LimitedSpinBox* instances_;
  QLineEdit* memory_;
  LimitedSpinBox* vcores_;
  LimitedSpinBox* gpus_;
  QSpinBox* processes_;
  QComboBox* nodeLabel_;
  QLineEdit* command_;
  KeyValueTable* env_;
  QSpinBox* maxRestarts_;
  QComboBox* role_;
  QCheckBox* failsJob_;
  QLabel* memoryHint_;
  QLabel* vcoresHint_;
  QLabel* gpusHint_;
};

}  // namespace spindle::gui
