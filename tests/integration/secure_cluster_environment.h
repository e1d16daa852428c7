#pragma once

// What tests against the secure local YARN need to know about it.

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

namespace spindle::secure_test {

inline constexpr const char* secure_cluster_variables[] = {"HADOOP_CONF_DIR", "KRB5_CONFIG", "SPINDLE_SECURE_PRINCIPAL",
                                                           "SPINDLE_SECURE_KEYTAB"};

// HADOOP_CONF_DIR, KRB5_CONFIG, SPINDLE_SECURE_PRINCIPAL and
// SPINDLE_SECURE_KEYTAB of the running secure cluster (SPINDLE_LOCAL_YARN_DIR
// picks which), from its `env`; the environment's own values only fill gaps,
// since a shell's HADOOP_CONF_DIR may name the plain local YARN.
inline std::map<std::string, std::string> secure_cluster_environment(const std::string& source_dir) {
  std::map<std::string, std::string> found;
  const std::string command = source_dir + "/scripts/local-yarn --secure env 2>/dev/null";
  if (FILE* pipe = ::popen(command.c_str(), "r")) {
    char line[4096];
    while (std::fgets(line, sizeof(line), pipe)) {
      std::string text(line);
      if (!text.starts_with("export ")) continue;
      const auto equals = text.find('=');
      if (equals == std::string::npos) continue;
      std::string value = text.substr(equals + 1);
      while (!value.empty() && (value.back() == '\n' || value.back() == '\'' || value.back() == '"')) value.pop_back();
      if (!value.empty() && (value.front() == '\'' || value.front() == '"')) value.erase(0, 1);
      found[text.substr(7, equals - 7)] = value;
    }
    ::pclose(pipe);
  }
  for (const char* name : secure_cluster_variables) {
    if (const char* value = std::getenv(name); value && *value && found[name].empty()) found[name] = value;
  }
  return found;
}

}  // namespace spindle::secure_test
