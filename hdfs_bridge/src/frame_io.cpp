#include "spindle/hdfs_bridge/frame_io.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "spindle/hdfs_bridge/protocol.h"

namespace spindle::hdfs_bridge {
namespace {

std::string system_error(const char* what) {
  return std::string(what) + ": " + std::strerror(errno);
}

// Fills `buffer` completely. 0 bytes at the very start is a close, not a failure.
ReadOutcome read_exactly(int fd, char* buffer, std::size_t size, std::chrono::milliseconds patience, bool at_start,
                         std::string& error) {
  std::size_t done = 0;
  while (done < size) {
    pollfd wanted{fd, POLLIN, 0};
    const int ready = ::poll(&wanted, 1, static_cast<int>(patience.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) {
      error = system_error("waiting for the peer");
      return ReadOutcome::failed;
    }
    if (ready == 0) {
      error = "no answer for " + std::to_string(patience.count() / 1000) + " s";
      return ReadOutcome::failed;
    }
    const ssize_t got = ::read(fd, buffer + done, size - done);
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (got < 0) {
      error = system_error("reading from the peer");
      return ReadOutcome::failed;
    }
    if (got == 0) {
      if (at_start && done == 0) return ReadOutcome::closed;
      error = "the peer closed the connection inside a frame";
      return ReadOutcome::failed;
    }
    done += static_cast<std::size_t>(got);
  }
  return ReadOutcome::frame;
}

}  // namespace

bool write_all(int fd, std::string_view bytes, std::string& error) {
  while (!bytes.empty()) {
    const ssize_t sent = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent < 0) {
      error = system_error("writing to the peer");
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(sent));
  }
  return true;
}

ReadOutcome read_frame(int fd, std::string& body, std::chrono::milliseconds patience, std::string& error) {
  char prefix[4];
  const auto started = read_exactly(fd, prefix, sizeof prefix, patience, true, error);
  if (started != ReadOutcome::frame) return started;
  const std::uint32_t length = frame_length(prefix);
  if (length > max_frame_bytes) {
    error = "a frame of " + std::to_string(length) + " bytes, more than the " + std::to_string(max_frame_bytes) +
            " allowed";
    return ReadOutcome::failed;
  }
  body.resize(length);
  return read_exactly(fd, body.data(), length, patience, false, error);
}

bool send_descriptor(int channel, int fd, std::string& error) {
  char byte = 'f';
  iovec payload{&byte, 1};
  alignas(cmsghdr) char space[CMSG_SPACE(sizeof(int))] = {};
  msghdr message{};
  message.msg_iov = &payload;
  message.msg_iovlen = 1;
  message.msg_control = space;
  message.msg_controllen = sizeof space;
  cmsghdr* header = CMSG_FIRSTHDR(&message);
  header->cmsg_level = SOL_SOCKET;
  header->cmsg_type = SCM_RIGHTS;
  header->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(header), &fd, sizeof(int));
  while (::sendmsg(channel, &message, MSG_NOSIGNAL) < 0) {
    if (errno == EINTR) continue;
    error = system_error("handing a connection to the bridge");
    return false;
  }
  return true;
}

int receive_descriptor(int channel, std::string& error) {
  for (;;) {
    char byte = 0;
    iovec payload{&byte, 1};
    alignas(cmsghdr) char space[CMSG_SPACE(sizeof(int))] = {};
    msghdr message{};
    message.msg_iov = &payload;
    message.msg_iovlen = 1;
    message.msg_control = space;
    message.msg_controllen = sizeof space;
    const ssize_t got = ::recvmsg(channel, &message, MSG_CMSG_CLOEXEC);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      error = system_error("receiving a connection");
      return -1;
    }
    if (got == 0) return -1;
    const cmsghdr* header = CMSG_FIRSTHDR(&message);
    if (header && header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_RIGHTS &&
        header->cmsg_len == CMSG_LEN(sizeof(int))) {
      int fd = -1;
      std::memcpy(&fd, CMSG_DATA(header), sizeof(int));
      return fd;
    }
    // A byte without a descriptor is skipped: only descriptors mean anything here.
  }
}

}  // namespace spindle::hdfs_bridge
