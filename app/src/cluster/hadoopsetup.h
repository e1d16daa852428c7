#pragma once

#include <QString>
#include <optional>

#include "spindle/yarn/hadoop_configuration.h"

namespace spindle::gui {

// The Hadoop configuration the app talks to: the directory chosen in the
// settings, else HADOOP_CONF_DIR (or $HADOOP_HOME/etc/hadoop).
struct HadoopSetup {
  QString directory;  // empty: from the environment

  static HadoopSetup fromSettings();
  // The directory it reads, for people ("" when none is known).
  QString describe() const;
  // The configuration, or the sentence core gives for why there is none.
  Result<yarn::HadoopConfiguration> load() const;
};

}  // namespace spindle::gui
