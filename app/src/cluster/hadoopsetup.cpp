#include "cluster/hadoopsetup.h"

#include <QCoreApplication>
#include <QSettings>

#include "appsettings.h"
#include "convert.h"
#include "spindle/yarn/cluster_identity.h"

namespace spindle::gui {
namespace {

// The store AppSettings keeps the configuration directory in, so the login
// sits next to it under "cluster/".
QSettings store() {
  return QSettings(QStringLiteral("Spindle"), QStringLiteral("spindle-gui"));
}

const QString principalKey = QStringLiteral("cluster/kerberosPrincipal");
const QString keytabKey = QStringLiteral("cluster/kerberosKeytab");

}  // namespace

HadoopSetup HadoopSetup::fromSettings() {
  auto settings = store();
  return HadoopSetup{AppSettings::hadoopConfDir(), settings.value(principalKey).toString(),
                     settings.value(keytabKey).toString()};
}

void HadoopSetup::save() const {
  AppSettings::setHadoopConfDir(directory);
  auto settings = store();
  settings.setValue(principalKey, principal);
  settings.setValue(keytabKey, keytab);
}

QString HadoopSetup::describe() const {
  if (!directory.isEmpty()) return directory;
  const QString fromEnvironment = qEnvironmentVariable("HADOOP_CONF_DIR");
  if (!fromEnvironment.isEmpty()) return fromEnvironment;
  const QString home = qEnvironmentVariable("HADOOP_HOME");
  return home.isEmpty() ? QString() : home + QStringLiteral("/etc/hadoop");
}

Result<yarn::HadoopConfiguration> HadoopSetup::load() const {
  auto loaded = directory.isEmpty() ? yarn::HadoopConfiguration::from_environment()
                                    : yarn::HadoopConfiguration::load_directory(ss(directory));
  // The person at this desktop chose the keytab, so it wins over one the
  // cluster's files may name; without one the files (or kinit) decide.
  if (loaded && usesKeytab()) {
    yarn::set_keytab_login(*loaded, {ss(principal), ss(keytab)});
  }
  return loaded;
}

QString HadoopSetup::explain(const Error& error) const {
  const QString message = qs(error.message);
  if (error.kind != Error::Kind::authentication) return message;
  // Called from worker threads too; translate() is thread-safe.
  return usesKeytab()
             ? QCoreApplication::translate("HadoopSetup", "%1; the keytab and principal are in Settings").arg(message)
             : QCoreApplication::translate("HadoopSetup", "%1, or set a keytab in Settings").arg(message);
}

}  // namespace spindle::gui
