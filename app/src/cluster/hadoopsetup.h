#pragma once

#include <QString>
#include <memory>
#include <optional>

#include "spindle/client/dashboard_client.h"
#include "spindle/client/job_service.h"
#include "spindle/yarn/hadoop_configuration.h"

namespace spindle::gui {

// The Hadoop configuration the app talks to: the directory chosen in the
// settings, else HADOOP_CONF_DIR (or $HADOOP_HOME/etc/hadoop), and on a
// Kerberos cluster who logs in.
struct HadoopSetup {
  QString directory;  // empty: from the environment
  // A login with this principal's keytab instead of the ticket from kinit;
  // used only when both are set (the settings dialog allows both or neither).
  // The braces let HadoopSetup{directory} leave them out without a warning.
  QString principal{};
  QString keytab{};
  // "Connect through a Spindle server": the address `spindle serve` printed,
  // with its token, and the PEM file of its certificate for https. When set,
  // every view asks that server instead of the cluster.
  QString server{};
  QString serverCertificate{};

  // What the settings hold (the directory, the principal and the keytab).
  static HadoopSetup fromSettings();
  // Writes all three where fromSettings() reads them.
  void save() const;
  bool usesKeytab() const { return !principal.isEmpty() && !keytab.isEmpty(); }
  // The server's client, or the sentence for why the address or the
  // certificate file cannot be used.
  Result<client::DashboardClient> dashboard() const;
  // What the views ask of the cluster, chosen here and nowhere else: the
  // Spindle server's answers when `server` is set, else the cluster's own;
  // or the sentence for why neither can be reached.
  Result<std::shared_ptr<client::JobService>> service() const;
  // The directory it reads, for people ("" when none is known).
  QString describe() const;
  // The configuration, or the sentence core gives for why there is none. A
  // keytab login from the settings goes into it as spindle.kerberos.principal
  // and spindle.kerberos.keytab, which every client of the library reads.
  Result<yarn::HadoopConfiguration> load() const;
  // An error of the cluster as the app shows it: core's sentence speaks of
  // kinit and configuration keys, so a refused login also says where the app
  // takes a keytab.
  QString explain(const Error& error) const;
};

}  // namespace spindle::gui
