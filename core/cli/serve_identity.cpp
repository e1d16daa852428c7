#include "cli/serve_identity.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "spindle/client/job_records.h"
#include "spindle/core/job_certificate.h"
#include "spindle/tbproxy/proxy_server.h"

namespace spindle::cli {
namespace {

bool binds_every_address(const std::string& address) {
  return address == "0.0.0.0" || address == "::" || address == "[::]";
}

Result<std::string> read_whole(const std::string& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error("cannot read the " + std::string(what) + " " + path + ": no such readable file");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Written whole under a temporary name and renamed, readable by the owner only.
Result<void> write_private(const std::filesystem::path& path, const std::string& text) {
  const auto temporary = path.string() + ".new";
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return make_error("cannot write " + temporary + ": " + std::strerror(errno));
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  const bool closed = ::close(fd) == 0;
  if (!written || !closed || std::rename(temporary.c_str(), path.c_str()) != 0) {
    ::unlink(temporary.c_str());
    return make_error("cannot write " + path.string() + "; check the free space and the directory's permissions");
  }
  return {};
}

std::string colon_fingerprint(const std::string& hex) {
  std::string text;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    if (!text.empty()) text += ':';
    text += static_cast<char>(std::toupper(static_cast<unsigned char>(hex[i])));
    text += static_cast<char>(std::toupper(static_cast<unsigned char>(hex[i + 1])));
  }
  return text;
}

Result<ServeIdentity> finish(std::string certificate_pem, std::string key_pem, std::string made_in) {
  auto pin = certificate_sha256(certificate_pem);
  if (!pin) return make_error("the TLS certificate is not a PEM certificate; give the certificate file in PEM form");
  return ServeIdentity{std::move(certificate_pem), std::move(key_pem), colon_fingerprint(*pin), std::move(made_in)};
}

}  // namespace

std::string this_host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof(name) - 1) != 0 || !*name) return "localhost";
  return name;
}

std::string serve_host_name(const std::string& bind_address) {
  return binds_every_address(bind_address) ? this_host_name() : bind_address;
}

Result<std::optional<ServeIdentity>> serve_identity(const std::string& bind_address,
                                                    const std::string& certificate_file, const std::string& key_file) {
  if (certificate_file.empty() != key_file.empty()) {
    return make_error("--tls-certificate and --tls-key go together; give both, or neither to have one made");
  }
  if (!certificate_file.empty()) {
    auto certificate = read_whole(certificate_file, "certificate");
    if (!certificate) return certificate.error();
    auto key = read_whole(key_file, "private key");
    if (!key) return key.error();
    auto identity = finish(std::move(*certificate), std::move(*key), {});
    if (!identity) return make_error(certificate_file + ": " + identity.error().message);
    return std::optional<ServeIdentity>(std::move(*identity));
  }
  if (tbproxy::is_loopback_address(bind_address)) return std::optional<ServeIdentity>();

  const auto host = serve_host_name(bind_address);
  const auto directory = client::JobRecords::default_directory() / "serve";
  const auto certificate_path = directory / "certificate.pem";
  const auto key_path = directory / "key.pem";
  auto kept_certificate = read_whole(certificate_path, "certificate");
  auto kept_key = read_whole(key_path, "private key");
  if (kept_certificate && kept_key && certificate_serves(*kept_certificate, host)) {
    auto kept = finish(std::move(*kept_certificate), std::move(*kept_key), directory);
    if (!kept) return make_error(certificate_path.string() + ": " + kept.error().message);
    return std::optional<ServeIdentity>(std::move(*kept));
  }
  std::vector<std::string> names{host};
  if (const auto name = this_host_name(); name != host) names.push_back(name);
  auto made = make_server_certificate(names);
  if (!made) return made.error();
  std::error_code ec;
  std::filesystem::create_directories(directory, ec);
  if (ec) return make_error("cannot create " + directory.string() + " for the server's certificate: " + ec.message());
  ::chmod(directory.c_str(), 0700);
  if (auto saved = write_private(key_path, made->key_pem); !saved) return saved.error();
  if (auto saved = write_private(certificate_path, made->certificate_pem); !saved) return saved.error();
  auto identity = finish(std::move(made->certificate_pem), std::move(made->key_pem), directory);
  if (!identity) return identity.error();
  return std::optional<ServeIdentity>(std::move(*identity));
}

}  // namespace spindle::cli
