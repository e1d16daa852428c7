#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "spindle/core/result.h"
#include "spindle/yarn/rpc_protection.h"

namespace spindle::yarn {

// The ResourceManager services a client can reach, each with its own address key.
enum class RmService { client, scheduler, admin, webapp, webapp_https, resource_tracker };

// Hadoop's layered key/value configuration, read from the XML files of a
// HADOOP_CONF_DIR. Later files override earlier ones unless a key was marked
// final; values expand ${other.key} and ${env.NAME} when read.
class HadoopConfiguration {
 public:
  // Reads core-site.xml, hdfs-site.xml and yarn-site.xml (those present) from a directory.
  static Result<HadoopConfiguration> load_directory(const std::filesystem::path& directory);
  // The directory named by HADOOP_CONF_DIR, else $HADOOP_HOME/etc/hadoop.
  static Result<HadoopConfiguration> from_environment();

  // Adds one XML resource; a parse error names the file and line.
  Result<void> add_file(const std::filesystem::path& file);
  Result<void> add_xml(std::string_view xml, const std::string& source_name);

  void set(std::string key, std::string value);

  // The expanded value, or the built-in default for keys Spindle uses.
  std::optional<std::string> get(std::string_view key) const;
  std::string get_or(std::string_view key, std::string_view fallback) const;
  // A comma-separated value, trimmed, without empty items.
  std::vector<std::string> get_list(std::string_view key) const;
  bool get_bool(std::string_view key, bool fallback) const;
  long long get_int(std::string_view key, long long fallback) const;

  // Where the files came from, for messages.
  const std::vector<std::string>& sources() const { return sources_; }

  // The ResourceManager ids when HA is on (yarn.resourcemanager.ha.rm-ids),
  // else one empty id.
  std::vector<std::string> resource_manager_ids() const;
  // host:port of one service of one ResourceManager (id from resource_manager_ids()).
  std::string resource_manager_address(RmService service, const std::string& rm_id = "") const;
  // That service's host:port on every ResourceManager, in failover order.
  std::vector<std::string> resource_manager_addresses(RmService service) const;

 private:
  std::optional<std::string> raw(std::string_view key) const;
  std::string expand(const std::string& value) const;

  std::map<std::string, std::string, std::less<>> values_;
  std::set<std::string, std::less<>> final_keys_;
  std::vector<std::string> sources_;
};

// Who this process is to Hadoop under SIMPLE authentication: HADOOP_USER_NAME,
// else the operating system's user.
std::string hadoop_user_name();

// Whether hadoop.security.authentication asks for Kerberos (any case, as Hadoop reads it).
bool uses_kerberos(const HadoopConfiguration& configuration);

// hadoop.rpc.protection, authentication when unset; a sentence naming the
// files for a value Hadoop does not know.
Result<std::vector<RpcProtection>> rpc_protection(const HadoopConfiguration& configuration);

// Sets an RPC client's protection from the configuration, or the sentence
// every call of it then fails with.
struct RpcOptions;
void configure_rpc_protection(const HadoopConfiguration& configuration, RpcOptions& options);

}  // namespace spindle::yarn
