#include "container/output_cleanup.h"

#include <vector>

#include "container/hdfs_access.h"
#include "container/output_mirror.h"
#include "spindle/core/environment.h"

namespace spindle::container {

Result<int> remove_stray_copies(const std::string& output, const ContainerContext& context) {
  if (!is_hdfs_location(output)) return 0;
  auto hdfs = container_hdfs(context);
  if (!hdfs) return make_error("cannot look for stray copies in " + output + ": " + hdfs.error().message);
  // Bounded like everything the master does on its way out: an output of more directories than
  // this is left as it is, and said so.
  constexpr std::size_t most_directories = 10'000;
  std::vector<std::string> directories{hdfs_path_of(output)};
  std::size_t looked_at = 0;
  int removed = 0;
  while (!directories.empty()) {
    if (++looked_at > most_directories) {
      return make_error("stopped looking for stray copies in " + output + " after " + std::to_string(most_directories) +
                        " directories");
    }
    const std::string directory = directories.back();
    directories.pop_back();
    auto listed = hdfs->list(directory);
    if (!listed) return make_error("cannot look for stray copies in " + directory + ": " + listed.error().message);
    for (const auto& entry : *listed) {
      const std::string path = directory + "/" + entry.name;
      if (entry.directory) {
        directories.push_back(path);
      } else if (OutputMirror::is_transient_name(entry.name)) {
        auto gone = hdfs->remove(path, false);
        if (!gone) return make_error("cannot remove the stray copy " + path + ": " + gone.error().message);
        removed += *gone ? 1 : 0;
      }
    }
  }
  return removed;
}

}  // namespace spindle::container
