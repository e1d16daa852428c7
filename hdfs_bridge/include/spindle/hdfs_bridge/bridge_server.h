#pragma once

// The bridge's side: HDFS operations asked for over frames (protocol.h),
// carried out through WebHDFS with the identity of the process that runs it
// (a container's delegation token, or a gateway's Kerberos ticket).

#include "spindle/hdfs_bridge/protocol.h"
#include "spindle/yarn/webhdfs.h"

namespace spindle::hdfs_bridge {

// Carries out one request.
Reply answer(yarn::WebHdfs& hdfs, Request request);

// Serves every connection handed over `control_fd` (frame_io.h), each on a
// thread of its own, until `control_fd` closes: the process that started
// the bridge has ended. Returns the exit status: 0 then, 1 when the control
// socket failed.
int serve(int control_fd, const yarn::WebHdfs& hdfs);

}  // namespace spindle::hdfs_bridge
