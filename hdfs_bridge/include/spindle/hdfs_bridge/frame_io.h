#pragma once

// Frames (protocol.h) over a socket, and sockets handed from one process to
// another over a socket pair. Plain POSIX calls: the TensorFlow plugin uses
// them too, and it links nothing but the C library.

#include <chrono>
#include <string>
#include <string_view>

namespace spindle::hdfs_bridge {

// Writes all of `bytes`; false with `error` set when the peer went away.
bool write_all(int fd, std::string_view bytes, std::string& error);

enum class ReadOutcome { frame, closed, failed };
// Reads one frame's body into `body`. `closed`: the peer closed before a
// frame began. `failed`: a read error, a frame cut short, one larger than
// max_frame_bytes, or nothing for `patience` between two reads; `error` says which.
ReadOutcome read_frame(int fd, std::string& body, std::chrono::milliseconds patience, std::string& error);

// Sends `fd` over the Unix socket `channel` (SCM_RIGHTS); the caller keeps
// its own copy and closes it when it likes.
bool send_descriptor(int channel, int fd, std::string& error);
// The next descriptor sent over `channel`, or -1 when it closed or failed
// (`error` empty when it simply closed).
int receive_descriptor(int channel, std::string& error);

}  // namespace spindle::hdfs_bridge
