#include "cli/keytab_flags.h"

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace spindle::cli {

void KeytabFlags::add_to(CLI::App& command, std::string_view what) {
  const std::string subject(what);
  command.add_option("--principal", principal,
                     "On a Kerberos cluster: the principal the " + subject +
                         " runs as, with --keytab. The keytab goes to its application masters alone, which get new "
                         "delegation tokens from it before the old ones end, so the " +
                         subject + " may outlive their maximum lifetime");
  command.add_option("--keytab", keytab, "The keytab of --principal");
}

bool KeytabFlags::apply(JobSpec& spec, std::string_view command) const {
  if (principal.empty() != keytab.empty()) {
    std::cerr << "spindle " << command
              << ": --principal and --keytab go together; give both (--principal alice@EXAMPLE.COM "
                 "--keytab alice.keytab), or neither\n";
    return false;
  }
  if (keytab.empty()) return true;
  std::error_code ec;
  spec.kerberos = KerberosLogin{principal, std::filesystem::absolute(keytab, ec).string()};
  if (std::FILE* readable = std::fopen(spec.kerberos->keytab.c_str(), "rb")) {
    std::fclose(readable);
    return true;
  }
  std::cerr << "spindle " << command << ": --keytab " << keytab
            << " cannot be read; give the path of the principal's keytab file, readable by you\n";
  return false;
}

}  // namespace spindle::cli
