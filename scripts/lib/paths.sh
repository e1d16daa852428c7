# Where the set-up puts what it installs outside the work tree, so that a
# fresh clone on the same machine reuses it. Sourced by the other scripts.
SPINDLE_CACHE="${SPINDLE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/spindle}"
SPINDLE_VENV="${SPINDLE_VENV:-$SPINDLE_CACHE/venv}"
export SPINDLE_CACHE SPINDLE_VENV
