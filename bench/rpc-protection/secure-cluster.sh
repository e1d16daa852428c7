# Sourced by bench/rpc-protection/run and profile-server (after `root` is set): checks for the
# release build's rpc_round_trips ($bench), brings up a secure local YARN whose daemons accept every
# RPC level and run the JIT's optimising tier as production daemons do (the tests' clusters stop at
# its first), takes a ticket for the tests' principal, and takes the cluster down on exit. Leaves
# $bench, $server_pid (the cluster's JVM) and $work (a scratch directory removed on exit).
# shellcheck source=scripts/lib/paths.sh
source "$root/scripts/lib/paths.sh"
bench="${SPINDLE_BUILD:-$root/build/release}/bench/rpc_round_trips"
[[ -x "$bench" ]] || { echo "no $bench; build the release preset first" >&2; exit 2; }
export SPINDLE_LOCAL_YARN_DIR="${SPINDLE_LOCAL_YARN_DIR:-$SPINDLE_CACHE/bench-rpc-protection}"
export SPINDLE_LOCAL_YARN_JIT=full
cluster() { "$root/scripts/local-yarn" --secure --protection authentication,integrity,privacy "$@"; }
cluster up >&2
work="$(mktemp -d)"
trap 'cluster down >&2; rm -rf "$work"' EXIT
eval "$(cluster env)"
export KRB5CCNAME="FILE:$work/ticket"
kinit -kt "$SPINDLE_SECURE_KEYTAB" "$SPINDLE_SECURE_PRINCIPAL"
server_pid="$(cat "$SPINDLE_LOCAL_YARN_DIR/cluster.pid")"
