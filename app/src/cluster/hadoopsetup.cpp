#include "cluster/hadoopsetup.h"

#include <QCoreApplication>
#include <QFile>
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
const QString serverKey = QStringLiteral("cluster/spindleServer");
const QString serverCertificateKey = QStringLiteral("cluster/spindleServerCertificate");

}  // namespace

HadoopSetup HadoopSetup::fromSettings() {
  auto settings = store();
  return HadoopSetup{AppSettings::hadoopConfDir(), settings.value(principalKey).toString(),
                     settings.value(keytabKey).toString(), settings.value(serverKey).toString(),
                     settings.value(serverCertificateKey).toString()};
}

void HadoopSetup::save() const {
  AppSettings::setHadoopConfDir(directory);
  auto settings = store();
  settings.setValue(principalKey, principal);
  settings.setValue(keytabKey, keytab);
  settings.setValue(serverKey, server);
  settings.setValue(serverCertificateKey, serverCertificate);
  settings.sync();
  // The server's address holds its token, which acts as the user on the cluster.
  QFile::setPermissions(settings.fileName(), QFileDevice::ReadOwner | QFileDevice::WriteOwner);
}

Result<client::DashboardClient> HadoopSetup::dashboard() const {
  auto address = client::parse_dashboard_address(ss(server));
  if (!address) return address.error();
  if (!serverCertificate.isEmpty()) {
    QFile file(serverCertificate);
    if (!file.open(QIODevice::ReadOnly)) {
      return make_error("cannot read the Spindle server's certificate " + ss(serverCertificate) + ": " +
                        ss(file.errorString()) + "; choose its certificate.pem again in Settings");
    }
    address->certificate_pem = file.readAll().toStdString();
  }
  return client::DashboardClient(std::move(*address));
}

Result<std::shared_ptr<client::JobService>> HadoopSetup::service() const {
  // The one place that tells the two apart; every view asks the service.
  if (!server.isEmpty()) {
    auto reached = dashboard();
    if (!reached) return reached.error();
    return std::shared_ptr<client::JobService>(client::server_job_service(std::move(*reached)));
  }
  return std::shared_ptr<client::JobService>(client::direct_job_service([setup = *this] { return setup.load(); }));
}

QString HadoopSetup::describe() const {
  if (!server.isEmpty()) {
    auto address = client::parse_dashboard_address(ss(server));
    return QCoreApplication::translate("HadoopSetup", "the Spindle server at %1")
        .arg(address ? qs(address->url) : server.section(QLatin1Char('?'), 0, 0));
  }
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
