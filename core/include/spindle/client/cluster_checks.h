#pragma once

// `spindle doctor`'s checks of a Hadoop set-up, end to end: the
// configuration, the ResourceManagers, the protections the job's traffic
// would get, the NameNodes, the staging place submits use, and one real
// container. They live in the client library so that every front end can
// run them; the command line prints them.

#include <filesystem>
#include <functional>
#include <string>

#include "spindle/yarn/hadoop_configuration.h"

namespace spindle::client {

struct ClusterCheck {
  std::string step;  // "ResourceManager", "staging", ...
  bool passed = true;
  std::string detail;  // what was found, or, for a failure, what to do
  // A failure of the set-up's own files or settings, rather than of reaching
  // the cluster (the command line exits differently for each).
  bool bad_input = false;
};

// Runs the checks in order and tells each as it ends; a failure that makes
// the later ones pointless ends the run. The last check stages
// `container_binary` (empty: the one a submit would stage) and starts it as
// a tiny application master (`spindle-container probe`), which proves a
// node runs it. Every wait is bounded (the probe container gets two
// minutes), and whatever a check put on the cluster is removed. True when
// every check passed.
bool check_cluster(const yarn::HadoopConfiguration& configuration, const std::function<void(const ClusterCheck&)>& tell,
                   const std::filesystem::path& container_binary = {});

}  // namespace spindle::client
