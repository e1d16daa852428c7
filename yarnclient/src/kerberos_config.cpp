#include "spindle/yarn/kerberos_config.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "spindle/core/text.h"

namespace spindle::yarn {
namespace {

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == '\r')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

// "tcp/kdc.example.com:88" -> "kdc.example.com:88"; "kdc" -> "kdc:88";
// empty for what a TCP client cannot use (an https:// proxy).
std::string kdc_address(std::string_view value) {
  if (value.starts_with("tcp/") || value.starts_with("udp/")) value.remove_prefix(4);
  if (value.find("://") != std::string_view::npos) return "";
  if (value.starts_with('[')) {
    const auto close = value.find(']');
    if (close == std::string_view::npos) return "";
    return std::string(value.substr(0, close + 1)) +
           (close + 1 < value.size() && value[close + 1] == ':' ? std::string(value.substr(close + 1)) : ":88");
  }
  if (value.empty() || value.find_first_of(" \t{}=") != std::string_view::npos) return "";
  return value.find(':') == std::string_view::npos ? std::string(value) + ":88" : std::string(value);
}

}  // namespace

Result<KerberosRealm> realm_from_krb5_conf(std::string_view text, const std::string& source, const std::string& realm) {
  std::string section;
  std::string default_realm;
  std::string current;  // the realm whose { } we are in, under [realms]
  int depth = 0;
  std::vector<std::pair<std::string, std::string>> kdcs;  // realm, address
  int line_number = 0;
  for (const auto raw : split(text, '\n')) {
    ++line_number;
    const auto line = trimmed(raw);
    if (line.empty() || line.starts_with('#') || line.starts_with(';')) continue;
    const auto where = source + ", line " + std::to_string(line_number);
    if (line.starts_with('[')) {
      if (depth != 0 || !line.ends_with(']')) {
        return make_error(where + ": \"" + std::string(line) + "\" is not a [section] header where it stands");
      }
      section = std::string(trimmed(line.substr(1, line.size() - 2)));
      continue;
    }
    if (line.starts_with("include")) continue;  // included files are not followed; what matters is named here
    if (line == "}") {
      if (depth == 0) return make_error(where + ": a \"}\" closes nothing");
      if (--depth == 0) current.clear();
      continue;
    }
    const auto equals = line.find('=');
    if (equals == std::string_view::npos) {
      return make_error(where + ": \"" + std::string(line) + "\" is not \"name = value\", a section or a brace");
    }
    const auto name = trimmed(line.substr(0, equals));
    auto value = trimmed(line.substr(equals + 1));
    if (value == "{") {
      if (depth == 0 && section == "realms") current = std::string(name);
      ++depth;
      continue;
    }
    if (value.ends_with('*')) value = trimmed(value.substr(0, value.size() - 1));
    if (depth == 0 && section == "libdefaults" && name == "default_realm") default_realm = std::string(value);
    if (depth == 1 && !current.empty() && name == "kdc") {
      if (auto address = kdc_address(value); !address.empty()) kdcs.emplace_back(current, std::move(address));
    }
  }
  if (depth != 0) return make_error(source + " ends inside a { } block; close it with \"}\"");
  KerberosRealm found;
  found.name = realm.empty() ? default_realm : realm;
  if (found.name.empty()) {
    return make_error(source + " names no default_realm under [libdefaults]; give the principal with its realm (" +
                      "alice@EXAMPLE.COM)");
  }
  for (auto& [owner, address] : kdcs) {
    if (owner == found.name) found.kdcs.push_back(std::move(address));
  }
  if (found.kdcs.empty()) {
    return make_error(source + " names no KDC for the realm " + found.name +
                      " under [realms]; the job's application master logs in on a node from what the submitting "
                      "machine names, so add \"" +
                      found.name + " = { kdc = <host>:88 }\" there");
  }
  return found;
}

Result<KerberosRealm> realm_from_local_krb5_conf(const std::string& realm) {
  std::string path = "/etc/krb5.conf";
  if (const char* configured = std::getenv("KRB5_CONFIG"); configured && *configured) {
    path = std::string(split(configured, ':').front());
  }
  std::ifstream in(path);
  if (!in) return make_error(path + " cannot be read; set KRB5_CONFIG to the krb5.conf that names your realm's KDCs");
  std::ostringstream text;
  text << in.rdbuf();
  return realm_from_krb5_conf(text.str(), path, realm);
}

std::string container_krb5_conf(const std::string& realm, const std::vector<std::string>& addresses) {
  std::string text = "[libdefaults]\n  default_realm = " + realm +
                     "\n  dns_lookup_kdc = false\n  dns_lookup_realm = false\n  dns_canonicalize_hostname = false\n"
                     "  rdns = false\n\n[realms]\n  " +
                     realm + " = {\n";
  for (const auto& address : addresses) text += "    kdc = tcp/" + address + "\n";
  text += "  }\n";
  return text;
}

}  // namespace spindle::yarn
