#include "spindle/yarn/hadoop_configuration.h"

#include "spindle/core/text.h"
#include "spindle/yarn/rpc_options.h"

#include <pwd.h>
#include <unistd.h>

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace spindle::yarn {
namespace {

struct Default {
  std::string_view key;
  std::string_view value;
};

// Hadoop's own defaults for the keys Spindle reads, so a sparse
// HADOOP_CONF_DIR behaves as it does for Hadoop's clients.
constexpr Default defaults[] = {
    {"fs.defaultFS", "file:///"},
    {"hadoop.security.authentication", "simple"},
    {"ipc.client.connect.timeout", "20000"},
    {"ipc.client.connect.max.retries", "10"},
    {"ipc.client.rpc-timeout.ms", "120000"},
    {"ipc.ping.interval", "60000"},
    {"dfs.webhdfs.enabled", "true"},
    {"dfs.namenode.http-address", "0.0.0.0:9870"},
    {"yarn.resourcemanager.hostname", "0.0.0.0"},
    {"yarn.resourcemanager.address", "${yarn.resourcemanager.hostname}:8032"},
    {"yarn.resourcemanager.scheduler.address", "${yarn.resourcemanager.hostname}:8030"},
    {"yarn.resourcemanager.admin.address", "${yarn.resourcemanager.hostname}:8033"},
    {"yarn.resourcemanager.webapp.address", "${yarn.resourcemanager.hostname}:8088"},
    {"yarn.resourcemanager.resource-tracker.address", "${yarn.resourcemanager.hostname}:8031"},
    {"yarn.resourcemanager.ha.enabled", "false"},
    {"yarn.http.policy", "HTTP_ONLY"},
    {"dfs.http.policy", "HTTP_ONLY"},
    {"dfs.namenode.https-address", "0.0.0.0:9871"},
    {"yarn.resourcemanager.webapp.https.address", "${yarn.resourcemanager.hostname}:8090"},
};

// Hadoop stops expanding after this many rounds, which also ends cycles.
constexpr int max_substitutions = 20;

struct ServiceKey {
  std::string_view address_key;
  std::string_view default_port;
};

ServiceKey service_key(RmService service) {
  switch (service) {
    case RmService::client: return {"yarn.resourcemanager.address", "8032"};
    case RmService::scheduler: return {"yarn.resourcemanager.scheduler.address", "8030"};
    case RmService::admin: return {"yarn.resourcemanager.admin.address", "8033"};
    case RmService::webapp: return {"yarn.resourcemanager.webapp.address", "8088"};
    case RmService::webapp_https: return {"yarn.resourcemanager.webapp.https.address", "8090"};
    case RmService::resource_tracker: return {"yarn.resourcemanager.resource-tracker.address", "8031"};
  }
  return {"yarn.resourcemanager.address", "8032"};
}

}  // namespace

Result<HadoopConfiguration> HadoopConfiguration::load_directory(const std::filesystem::path& directory) {
  std::error_code ec;
  if (!std::filesystem::is_directory(directory, ec)) {
    return make_error("the Hadoop configuration directory " + directory.string() +
                      " does not exist; set HADOOP_CONF_DIR to the directory holding core-site.xml and yarn-site.xml");
  }
  HadoopConfiguration configuration;
  bool found_any = false;
  for (const char* name : {"core-site.xml", "hdfs-site.xml", "yarn-site.xml"}) {
    const auto file = directory / name;
    if (!std::filesystem::exists(file, ec)) continue;
    found_any = true;
    if (auto added = configuration.add_file(file); !added) return added.error();
  }
  // The HTTPS clients' settings (truststore) live in a file of their own,
  // which hadoop.ssl.client.conf names.
  if (found_any) {
    const auto ssl_client = directory / configuration.get_or("hadoop.ssl.client.conf", "ssl-client.xml");
    if (std::filesystem::exists(ssl_client, ec)) {
      if (auto added = configuration.add_file(ssl_client); !added) return added.error();
    }
  }
  if (!found_any) {
    return make_error("the Hadoop configuration directory " + directory.string() +
                      " has none of core-site.xml, hdfs-site.xml, yarn-site.xml; point HADOOP_CONF_DIR at your "
                      "cluster's client configuration");
  }
  return configuration;
}

Result<HadoopConfiguration> HadoopConfiguration::from_environment() {
  if (const char* dir = std::getenv("HADOOP_CONF_DIR"); dir && *dir) return load_directory(dir);
  if (const char* home = std::getenv("HADOOP_HOME"); home && *home) {
    return load_directory(std::filesystem::path(home) / "etc" / "hadoop");
  }
  return make_error(
      "HADOOP_CONF_DIR is not set; export it as the directory holding your cluster's core-site.xml and "
      "yarn-site.xml (or run `spindle local up` for a local YARN)");
}

Result<void> HadoopConfiguration::add_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return make_error(file.string() + " cannot be read; check that it exists and its permissions");
  std::ostringstream text;
  text << in.rdbuf();
  return add_xml(text.str(), file.string());
}

Result<void> HadoopConfiguration::add_xml(std::string_view xml, const std::string& source_name) {
  namespace pt = boost::property_tree;
  pt::ptree tree;
  try {
    std::istringstream in{std::string(xml)};
    pt::read_xml(in, tree, pt::xml_parser::trim_whitespace);
  } catch (const pt::xml_parser_error& e) {
    return make_error(source_name + ":" + std::to_string(e.line()) + ": is not valid XML (" + e.message() +
                      "); fix the file or take a fresh copy from the cluster");
  }
  const auto root = tree.get_child_optional("configuration");
  if (!root) {
    return make_error(source_name + ": has no <configuration> element; it is not a Hadoop configuration file");
  }
  // Values of one file are applied together, so a final key in this file
  // still takes this file's value.
  std::map<std::string, std::string> staged;
  std::set<std::string> staged_final;
  for (const auto& [tag, property] : *root) {
    if (tag != "property") continue;
    const std::string name(trim(property.get<std::string>("name", "")));
    if (name.empty()) continue;
    const auto value = property.get_optional<std::string>("value");
    if (!value) continue;
    if (final_keys_.contains(name)) continue;
    staged[name] = *value;
    if (trim(property.get<std::string>("final", "")) == "true") staged_final.insert(name);
  }
  for (auto& [name, value] : staged) values_[name] = std::move(value);
  final_keys_.insert(staged_final.begin(), staged_final.end());
  sources_.push_back(source_name);
  return {};
}

void HadoopConfiguration::set(std::string key, std::string value) {
  values_[std::move(key)] = std::move(value);
}

std::optional<std::string> HadoopConfiguration::raw(std::string_view key) const {
  if (auto found = values_.find(key); found != values_.end()) return found->second;
  for (const auto& fallback : defaults) {
    if (fallback.key == key) return std::string(fallback.value);
  }
  return std::nullopt;
}

std::string HadoopConfiguration::expand(const std::string& value) const {
  std::string text = value;
  for (int round = 0; round < max_substitutions; ++round) {
    const auto open = text.find("${");
    if (open == std::string::npos) return text;
    const auto close = text.find('}', open + 2);
    if (close == std::string::npos) return text;
    const std::string name = text.substr(open + 2, close - open - 2);
    std::optional<std::string> replacement;
    if (name.starts_with("env.")) {
      if (const char* env = std::getenv(name.substr(4).c_str())) replacement = env;
    } else {
      replacement = raw(name);
    }
    // Hadoop leaves an unknown reference as written.
    if (!replacement) return text;
    text.replace(open, close - open + 1, *replacement);
  }
  return text;
}

std::optional<std::string> HadoopConfiguration::get(std::string_view key) const {
  auto value = raw(key);
  if (!value) return std::nullopt;
  return std::string(trim(expand(*value)));
}

std::string HadoopConfiguration::get_or(std::string_view key, std::string_view fallback) const {
  auto value = get(key);
  return value ? *value : std::string(fallback);
}

std::vector<std::string> HadoopConfiguration::get_list(std::string_view key) const {
  // The value outlives the views split_list gives into it (a temporary in
  // the loop's range would not, before C++23).
  const std::string value = get_or(key, "");
  std::vector<std::string> items;
  for (const auto item : split_list(value)) items.emplace_back(item);
  return items;
}

bool HadoopConfiguration::get_bool(std::string_view key, bool fallback) const {
  auto value = get(key);
  if (!value) return fallback;
  if (*value == "true") return true;
  if (*value == "false") return false;
  return fallback;
}

long long HadoopConfiguration::get_int(std::string_view key, long long fallback) const {
  auto value = get(key);
  if (!value || value->empty()) return fallback;
  char* end = nullptr;
  const long long parsed = std::strtoll(value->c_str(), &end, 10);
  return end && *end == '\0' ? parsed : fallback;
}

std::vector<std::string> HadoopConfiguration::resource_manager_ids() const {
  if (get_bool("yarn.resourcemanager.ha.enabled", false)) {
    auto ids = get_list("yarn.resourcemanager.ha.rm-ids");
    if (!ids.empty()) return ids;
  }
  return {""};
}

std::string HadoopConfiguration::resource_manager_address(RmService service, const std::string& rm_id) const {
  const auto key = service_key(service);
  if (!rm_id.empty()) {
    // HA: a per-id address wins; else the per-id host name with the service's port.
    if (auto address = get(std::string(key.address_key) + "." + rm_id)) return *address;
    if (auto host = get("yarn.resourcemanager.hostname." + rm_id)) return *host + ":" + std::string(key.default_port);
  }
  return get_or(key.address_key, "0.0.0.0:" + std::string(key.default_port));
}

std::vector<std::string> HadoopConfiguration::resource_manager_addresses(RmService service) const {
  std::vector<std::string> addresses;
  for (const auto& id : resource_manager_ids()) addresses.push_back(resource_manager_address(service, id));
  return addresses;
}

std::string hadoop_user_name() {
  if (const char* user = std::getenv("HADOOP_USER_NAME"); user && *user) return user;
  if (const passwd* entry = ::getpwuid(::geteuid())) return entry->pw_name;
  return "nobody";
}

bool uses_kerberos(const HadoopConfiguration& configuration) {
  return iequals(configuration.get_or("hadoop.security.authentication", "simple"), "kerberos");
}

Result<std::vector<RpcProtection>> rpc_protection(const HadoopConfiguration& configuration) {
  std::string where;
  for (const auto& source : configuration.sources()) where += (where.empty() ? "" : ", ") + source;
  return parse_rpc_protection(configuration.get_or("hadoop.rpc.protection", "authentication"),
                              where.empty() ? "the configuration" : where);
}

void configure_rpc_protection(const HadoopConfiguration& configuration, RpcOptions& options) {
  auto protection = rpc_protection(configuration);
  if (protection) {
    options.protection = std::move(*protection);
  } else {
    options.configuration_problem = protection.error().message;
  }
}

}  // namespace spindle::yarn
