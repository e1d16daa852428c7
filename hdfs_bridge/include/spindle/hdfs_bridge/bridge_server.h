#pragma once

// The bridge's side: HDFS operations asked for over frames (protocol.h),
// carried out through WebHDFS with the identity of the process that runs it
// (a container's delegation token, or a gateway's Kerberos ticket).

#include "spindle/core/result.h"
#include "spindle/hdfs_bridge/protocol.h"
#include "spindle/yarn/hadoop_configuration.h"
#include "spindle/yarn/webhdfs.h"

namespace spindle::hdfs_bridge {

// WebHDFS carries the blocks over HTTP from the DataNodes. A cluster that
// encrypts its block transfers (dfs.encrypt.data.transfer) must have them
// over HTTPS here too (dfs.http.policy HTTPS_ONLY): else this is the refusal.
Result<void> transport_keeps_blocks_private(const yarn::HadoopConfiguration& configuration, const yarn::WebHdfs& hdfs);

class ReadAhead;

// Carries out one request; with `ahead`, a read straight through a file
// has its next window fetched while the reader works (read_ahead.h).
Reply answer(yarn::WebHdfs& hdfs, Request request);
Reply answer(yarn::WebHdfs& hdfs, Request request, ReadAhead* ahead);

// Serves every connection handed over `control_fd` (frame_io.h), each on a
// thread of its own, until `control_fd` closes: the process that started
// the bridge has ended. Returns the exit status: 0 then, 1 when the control
// socket failed.
int serve(int control_fd, const yarn::WebHdfs& hdfs);

}  // namespace spindle::hdfs_bridge
