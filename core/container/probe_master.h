#pragma once

namespace spindle::container {

// `spindle-container probe`: the application master `spindle doctor`
// starts to prove that a node runs the container binary and reaches the
// ResourceManager with its tokens. Registers, says where it ran, and
// unregisters with that as its diagnostics. Returns the exit status.
int run_probe_master();

}  // namespace spindle::container
