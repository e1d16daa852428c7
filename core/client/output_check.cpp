#include "client/output_check.h"

#include <chrono>

#include "spindle/core/environment.h"
#include "spindle/yarn/webhdfs.h"

namespace spindle::client {

Result<void> check_output_writable(const std::string& output, const yarn::HadoopConfiguration& configuration) {
  if (!is_hdfs_location(output)) return {};
  const auto refused = [&](const std::string& why) {
    return make_error("the job's output " + output + " cannot be written: " + why +
                      "; choose an `output` directory you may write in HDFS, or have its owner open it to you");
  };
  auto hdfs = yarn::WebHdfs::from_configuration(configuration);
  if (!hdfs) return hdfs.error();
  const auto path = hdfs_path_of(output);
  if (auto made = hdfs->mkdirs(path); !made) {
    if (made.error().kind == Error::Kind::authentication) return made.error();
    return refused(made.error().message);
  }
  auto status = hdfs->status(path);
  if (!status) return refused(status.error().message);
  if (!status->directory) return refused(path + " is a file, not a directory");
  // Writing is the one sure test of permissions, ACLs and quotas alike.
  const auto probe =
      path + "/.spindle-probe-" + std::to_string(std::chrono::system_clock::now().time_since_epoch().count());
  if (auto written = hdfs->write(probe, std::string_view(), true); !written) return refused(written.error().message);
  (void)hdfs->remove(probe, false);
  return {};
}

}  // namespace spindle::client
