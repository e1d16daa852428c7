#include "container/python_hook.h"

#include <fstream>

#include "container/embedded_python.h"

namespace spindle::container {

Result<void> install_python_hook(const std::filesystem::path& directory,
                                 std::map<std::string, std::string>& environment) {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return make_error("this program's own path (/proc/self/exe) is unreadable: " + ec.message());
  for (const auto& file : embedded_python_files()) {
    const auto path = directory / std::string(file.name);
    std::filesystem::create_directories(path.parent_path(), ec);
    if (ec) return make_error("cannot make " + path.parent_path().string() + ": " + ec.message());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(file.bytes.data(), static_cast<std::streamsize>(file.bytes.size()));
    out.close();
    if (!out) return make_error("cannot write " + path.string() + " (is the container's disk full?)");
    if (file.executable) {
      std::filesystem::permissions(path, std::filesystem::perms::owner_exec, std::filesystem::perm_options::add, ec);
    }
  }
  // Files TensorFlow writes to hdfs:// wait for their flush here, on the container's disk, which YARN removes.
  std::filesystem::create_directories(directory / "spool", ec);
  if (!ec) environment["SPINDLE_HDFS_SPOOL"] = (directory / "spool").string();
  auto& python_path = environment["PYTHONPATH"];
  python_path = directory.string() + (python_path.empty() ? "" : ":" + python_path);
  environment["SPINDLE_HDFS_BRIDGE"] = self.string();
  return {};
}

}  // namespace spindle::container
