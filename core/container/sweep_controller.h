#pragma once

namespace spindle::container {

// Runs a sweep as the application master of its own application
// (docs/sweeps.md): registers, submits the trials as applications of their
// own as slots and the queue allow, reads their metric from HDFS, stops
// those the early-stopping rule cuts, keeps the sweep's record in HDFS and
// unregisters once every trial has ended. A later attempt goes on from the
// record. Returns the process's exit code.
int run_sweep_controller();

}  // namespace spindle::container
