#pragma once

#include <optional>

#include <QWidget>
#include <nlohmann/json.hpp>

#include "cluster/clusterinfo.h"
#include "cluster/hadoopsetup.h"
#include "spindle/core/job_spec.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace spindle::gui {

class FieldMessages;
class PythonEnvInspector;
class KeyValueTable;
class LimitedSpinBox;

// The application's own settings: name, queue, priority, framework, files,
// archives, environment, output, and the rarer ones under "Advanced".
class ApplicationPage : public QWidget {
  Q_OBJECT

 public:
  ApplicationPage(FieldMessages& messages, QWidget* parent = nullptr);

  void load(const JobSpec& spec);
  // Writes the keys as typed into a spec document for core to parse.
  void write(nlohmann::ordered_json& document) const;
  void setClusterInfo(const ClusterInfo& info);
  void setHadoopSetup(const HadoopSetup& setup);

 signals:
  void changed();

 private:
  QLineEdit* name_;
  QComboBox* queue_;
  QSpinBox* priority_;
  QComboBox* framework_;
  QLineEdit* output_;
  QLineEdit* input_;
  QLineEdit* script_;
  KeyValueTable* files_;
  KeyValueTable* archives_;
  KeyValueTable* env_;
  QLineEdit* pythonEnv_;
  QLabel* pythonEnvHint_;
  PythonEnvInspector* pythonEnvInspector_;
  QLineEdit* tags_;
  QSpinBox* maxAttempts_;
  QLineEdit* timeout_;
  QLineEdit* heartbeatTimeout_;
  QLineEdit* replacementTimeout_;
  QLineEdit* allocationTimeout_;
  QComboBox* onAllocationTimeout_;
  QLineEdit* stallTimeout_;
  QComboBox* onStall_;
  QLineEdit* dockerImage_;
  QLineEdit* fileSystems_;
  QLineEdit* amMemory_;
  LimitedSpinBox* amVcores_;
  QLabel* queueHint_;
  QLabel* amHint_;
  // The job's own Kerberos login (the spec's kerberos keys): its keytab goes
  // to the application master, which renews the job's tokens from it.
  QLineEdit* principal_;
  QLineEdit* keytab_;
};

}  // namespace spindle::gui
