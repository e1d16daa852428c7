# Where the set-up puts what it installs outside the work tree, so that a
# fresh clone on the same machine reuses it. Sourced by the other scripts.
SPINDLE_CACHE="${SPINDLE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/spindle}"
SPINDLE_VENV="${SPINDLE_VENV:-$SPINDLE_CACHE/venv}"
# PyTorch in an environment of its own (scripts/requirements-torch.txt).
SPINDLE_TORCH_VENV="${SPINDLE_TORCH_VENV:-$SPINDLE_CACHE/torch-venv}"
SPINDLE_MLFLOW_VENV="${SPINDLE_MLFLOW_VENV:-$SPINDLE_CACHE/mlflow-venv}"
export SPINDLE_CACHE SPINDLE_VENV SPINDLE_TORCH_VENV SPINDLE_MLFLOW_VENV
