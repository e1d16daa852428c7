#include "cli/serve_command.h"

#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>

#include <cstdlib>
#include <iostream>
#include <memory>

#include "cli/exit_codes.h"
#include "cli/serve_identity.h"
#include "spindle/serve/dashboard.h"
#include "spindle/yarn/cluster_identity.h"
#include "spindle/yarn/hadoop_configuration.h"
#include "spindle/yarn/negotiate_acceptor.h"

namespace spindle::cli {
namespace {

struct ServeOptions {
  std::string bind = "127.0.0.1";
  std::uint16_t port = 0;
  bool token_from_environment = false;
  std::string tls_certificate_file;
  std::string tls_key_file;
  std::string keytab;
  std::string principal;
};

// Every browser holds a long poll open, so the soft limit of open files
// (often 1,024) is raised to the hard one.
void allow_many_connections() {
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
    files.rlim_cur = files.rlim_max;
    (void)setrlimit(RLIMIT_NOFILE, &files);
  }
}

// Kerberos logins with the keys of the server's HTTP principal, for the one
// user whose ticket the server holds.
// A login's short name is the one the cluster's auth_to_local rules give its
// principal, so that a principal the rules map to the served user gets in.
Result<std::shared_ptr<const tbproxy::KerberosLogins>> kerberos_logins(const ServeOptions& options,
                                                                       const std::string& served_user,
                                                                       const yarn::HadoopConfiguration& configuration) {
  if (options.keytab.empty()) {
    if (!options.principal.empty()) {
      return make_error(
          "--principal names whose key accepts Kerberos logins; give the keytab that holds it with "
          "--keytab");
    }
    return std::shared_ptr<const tbproxy::KerberosLogins>();
  }
  auto acceptor = yarn::NegotiateAcceptor::open(options.keytab, options.principal);
  if (!acceptor) return make_error("spindle serve cannot take Kerberos logins: " + acceptor.error().message);
  auto logins = std::make_shared<tbproxy::KerberosLogins>();
  logins->served_user = served_user;
  logins->accept = [acceptor = *acceptor, configuration](std::string_view token) -> Result<tbproxy::KerberosUser> {
    auto login = acceptor->accept(token);
    if (!login) return login.error();
    // A principal no rule maps has no short name here: it is refused as somebody else.
    auto short_name = yarn::short_name_of(configuration, login->principal);
    return tbproxy::KerberosUser{login->principal, short_name ? *short_name : std::string(), login->lifetime};
  };
  return std::shared_ptr<const tbproxy::KerberosLogins>(std::move(logins));
}

int run_serve(const ServeOptions& options) {
  allow_many_connections();
  auto configuration = yarn::HadoopConfiguration::from_environment();
  if (!configuration) {
    std::cerr << configuration.error().message << '\n';
    return exit_bad_input;
  }
  auto identity = serve_identity(options.bind, options.tls_certificate_file, options.tls_key_file);
  if (!identity) {
    std::cerr << identity.error().message << '\n';
    return exit_bad_input;
  }
  // On a Kerberos cluster, the short name of the ticket's principal.
  auto served_user = yarn::cluster_user(*configuration);
  if (!served_user && !options.keytab.empty()) {
    std::cerr << "spindle serve takes Kerberos logins for the user whose ticket it holds, and it holds none: "
              << served_user.error().message << '\n';
    return exit_code_for_cluster_error(served_user.error());
  }
  if (!served_user) served_user = yarn::hadoop_user_name();
  auto kerberos = kerberos_logins(options, *served_user, *configuration);
  if (!kerberos) {
    std::cerr << kerberos.error().message << '\n';
    return exit_bad_input;
  }
  serve::DashboardOptions dashboard;
  dashboard.bind_address = options.bind;
  dashboard.kerberos = *kerberos;
  if (*identity) {
    dashboard.tls_certificate_pem = (*identity)->certificate_pem;
    dashboard.tls_key_pem = (*identity)->key_pem;
  }
  dashboard.port = options.port;
  if (options.token_from_environment) {
    const char* token = std::getenv("SPINDLE_SERVE_TOKEN");
    if (!token || std::string_view(token).size() < 32) {
      std::cerr << "--token-from-env needs SPINDLE_SERVE_TOKEN set to a token of at least 32 characters\n";
      return exit_bad_input;
    }
    dashboard.access_token = token;
  }
  // Blocked before the server's threads start, so only sigwait below sees them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  auto access = serve::yarn_cluster_access(
      [configuration = std::move(*configuration)]() { return Result<yarn::HadoopConfiguration>(configuration); });
  auto server = serve::Dashboard::start(dashboard, access);
  if (!server) {
    std::cerr << server.error().message << '\n';
    return exit_bad_input;
  }
  const auto name = serve_host_name(options.bind);
  const auto host = name.find(':') != std::string::npos ? "[" + name + "]" : name;
  const auto port = std::to_string((*server)->port());
  std::cout << (*identity ? "https://" : "http://") << host << ":" << port << "/?token=" << (*server)->access_token()
            << '\n';
  if (!*identity) {
    std::cout << "The Spindle dashboard is served there until Ctrl-C. From another machine: ssh -L " << port
              << ":127.0.0.1:" << port << " this-host, then open the same address there." << std::endl;
  } else {
    std::cout
        << "The Spindle dashboard is served there over TLS until Ctrl-C. Its certificate's SHA-256 fingerprint is "
        << (*identity)->fingerprint << '\n';
    if (!(*identity)->made_in.empty()) {
      std::cout << "The certificate was made for this server and is kept in " << (*identity)->made_in
                << "; the browser will warn that it does not know it: compare the fingerprint it shows with this one "
                   "before going on."
                << '\n';
    }
    std::cout << "Whoever has the token acts on the cluster as " << *served_user
              << ", the user this server runs as; give it to nobody else." << std::endl;
  }
  if (*kerberos) {
    std::cout << "Kerberos logins are taken with the keys of " << options.keytab << ", for " << *served_user
              << " alone: a browser with " << *served_user
              << "'s ticket signs in without the token where its policy allows this host." << std::endl;
  }
  int received = 0;
  sigwait(&stop_signals, &received);
  (*server)->stop();
  return exit_done;
}

}  // namespace

void add_serve_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ServeOptions>();
  CLI::App* command = app.add_subcommand(
      "serve", "The dashboard in a browser, and its JSON API, for the cluster of HADOOP_CONF_DIR (prints its URL)");
  command->add_option("--port", options->port, "Port to listen on (default: any free one)");
  command->add_option("--bind", options->bind,
                      "Address to listen on (default 127.0.0.1); any other address is served over TLS only");
  command->add_option(
      "--tls-certificate", options->tls_certificate_file,
      "PEM certificate to serve HTTPS with (default for a non-loopback address: one made and kept here)");
  command->add_option("--tls-key", options->tls_key_file, "The unencrypted PEM private key of --tls-certificate");
  command->add_option("--keytab", options->keytab,
                      "Take Kerberos logins (SPNEGO) with this keytab's key of the server's HTTP principal");
  command->add_option("--principal", options->principal,
                      "The principal of --keytab to accept logins as (default: any whose key it holds)");
  command->add_flag("--token-from-env", options->token_from_environment,
                    "Take the access token from SPINDLE_SERVE_TOKEN instead of making one");
  command->callback([options, &exit_code] { exit_code = run_serve(*options); });
}

}  // namespace spindle::cli
