#pragma once

#include <string>

namespace spindle::container {

// `spindle-container fan-out N COMMAND`: what a task executor runs in place of
// the command of a task type with `processes: N`. Starts N copies of COMMAND
// in /bin/sh, each with its own rank (process_environment), and waits for all
// of them. The first copy to fail stops the others (SIGTERM, then SIGKILL
// after a grace period), is named on stderr, and its exit is this one's: in
// PyTorch's group the others cannot go on without it. Signals sent to the
// task reach the copies through their shared process group; this process
// outlives them to report how they ended.
int run_fan_out(int processes, const std::string& command);

}  // namespace spindle::container
