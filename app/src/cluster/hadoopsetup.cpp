#include "cluster/hadoopsetup.h"

#include "appsettings.h"
#include "convert.h"

namespace spindle::gui {

HadoopSetup HadoopSetup::fromSettings() {
  return HadoopSetup{AppSettings::hadoopConfDir()};
}

QString HadoopSetup::describe() const {
  if (!directory.isEmpty()) return directory;
  const QString fromEnvironment = qEnvironmentVariable("HADOOP_CONF_DIR");
  if (!fromEnvironment.isEmpty()) return fromEnvironment;
  const QString home = qEnvironmentVariable("HADOOP_HOME");
  return home.isEmpty() ? QString() : home + QStringLiteral("/etc/hadoop");
}

Result<yarn::HadoopConfiguration> HadoopSetup::load() const {
  if (directory.isEmpty()) return yarn::HadoopConfiguration::from_environment();
  return yarn::HadoopConfiguration::load_directory(ss(directory));
}

}  // namespace spindle::gui
