#pragma once

#include <functional>

#include "spindle/client/job_connection.h"
#include "spindle/tbproxy/upstream.h"

namespace spindle::client {

// The job's TensorBoard task as its application master reports it, or why
// it cannot be reached now.
tbproxy::UpstreamLookup find_tensorboard(JobConnection& job);

// What `spindle tensorboard` and the desktop app serve: the TensorBoards of
// the jobs this machine submitted (whose records it holds), nothing else.
// `configuration` is asked on first use; one connection is kept per job.
tbproxy::UpstreamResolver submitted_jobs_tensorboards(std::function<Result<yarn::HadoopConfiguration>()> configuration);

}  // namespace spindle::client
