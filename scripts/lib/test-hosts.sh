# shellcheck shell=bash disable=SC2154 # hosts_ns_dir, say and die are the sourcing script's
# The network of the multi-host local cluster (scripts/local-yarn --hosts): one network
# namespace per host, each with its own address on a bridge, and names for all of them in
# /etc/hosts. The bridge's own address belongs to this machine (the gateway the tests and the
# CLI run on). Nothing is routed anywhere else: the namespaces have no default route, and the
# bridge is not connected to any other interface.
#
# Each host also has a file system of its own (a mount namespace) and its own name (a UTS
# namespace), both made once when its daemons start and kept by bind mounts on files in
# $hosts_ns_dir, as `ip netns` keeps the network ones in /run/netns. Every process of a host runs
# in all three (hosts_enter). The host sees the system, the Hadoop distribution, the caches and the
# bed's state as this machine does, but a /tmp of its own, and of the per-host directories
# (data/hosts/HOST) its own alone; a worker host sees nothing else of the data directory either,
# which holds the master's NameNodes, ResourceManagers and KDC. What it writes there stays on it.
#
# Sourced; expects say and die, and hosts_ns_dir (the bed's directory for the namespace files).
# HOSTS_SUBNET (three octets) may move the subnet.

hosts_subnet="${HOSTS_SUBNET:-10.231.77}"
hosts_bridge=spindle-br0
hosts_marker="# spindle-local-yarn-hosts"
# Another file only for the test of the two functions that edit it.
hosts_file="${SPINDLE_HOSTS_FILE:-/etc/hosts}"
hosts_master=spindle-master
hosts_gateway=spindle-gateway

# The worker host names for N workers: spindle-node1 .. spindle-nodeN.
hosts_workers() {
  local i
  for ((i = 1; i <= $1; i++)); do echo "spindle-node$i"; done
}

# The address of a host: the master .10, worker k .(10+k), client k .(200+k), the gateway .1.
hosts_address() {
  case "$1" in
    "$hosts_gateway") echo "$hosts_subnet.1" ;;
    "$hosts_master") echo "$hosts_subnet.10" ;;
    spindle-node[0-9]*) echo "$hosts_subnet.$((10 + ${1#spindle-node}))" ;;
    spindle-client[0-9]*) echo "$hosts_subnet.$((200 + ${1#spindle-client}))" ;;
    *) return 1 ;;
  esac
}

# The bridge side of a host's veth pair (at most 15 characters).
hosts_port() { echo "sp-${1#spindle-}"; }

# The namespaces this mode made earlier (possibly by a killed `up`).
hosts_namespaces() { ip netns list 2>/dev/null | awk '{print $1}' | grep -E '^spindle-(master|node[0-9]+|client[0-9]+)$' || true; }

# Refuses a subnet that this machine already uses for anything but our bridge.
hosts_check_subnet() {
  local used
  used="$(ip -4 -o addr show | awk -v b="$hosts_bridge" '$2 != b {print $2, $4}' | grep -F " $hosts_subnet." || true)"
  [[ -z "$used" ]] || die "the subnet $hosts_subnet.0/24 is in use here ($used); choose another with HOSTS_SUBNET=A.B.C"
  used="$(ip -4 route show | grep -v "dev $hosts_bridge" | grep -E "^$hosts_subnet\.|^default" | grep -v '^default' || true)"
  [[ -z "$used" ]] || die "a route to $hosts_subnet.0/24 exists here ($used); choose another subnet with HOSTS_SUBNET=A.B.C"
}

hosts_net_up() {
  local workers="$1" host
  hosts_check_subnet
  command -v unshare >/dev/null || die "no unshare (package util-linux)"
  ip link add "$hosts_bridge" type bridge || die "could not create the bridge $hosts_bridge (root is needed)"
  ip addr add "$(hosts_address "$hosts_gateway")/24" dev "$hosts_bridge"
  ip link set "$hosts_bridge" up
  for host in "$hosts_master" $(hosts_workers "$workers"); do
    hosts_link_up "$host"
  done
  hosts_names_add "$workers"
}

# A host's network namespace, with its side of a veth pair on the bridge at its own address.
hosts_link_up() {
  local host="$1" port
  port="$(hosts_port "$host")"
  ip netns add "$host"
  ip link add "$port" type veth peer name eth0 netns "$host"
  ip link set "$port" master "$hosts_bridge"
  ip link set "$port" up
  ip -n "$host" addr add "$(hosts_address "$host")/24" dev eth0
  ip -n "$host" link set eth0 up
  ip -n "$host" link set lo up
}

# A client host: a user's machine (a laptop, a gateway) on the bridge, running no part of the
# cluster, only a network namespace with its own address. Its processes see this machine's files;
# taking it away (hosts_client_down) kills them and removes its address from the network.
hosts_client_up() { hosts_link_up "$1"; }

hosts_client_down() {
  local host="$1" pids
  pids="$(ip netns pids "$host" 2>/dev/null | tr '\n' ' ')"
  # shellcheck disable=SC2086
  [[ -z "${pids// /}" ]] || kill -KILL $pids 2>/dev/null || true
  ip netns del "$host" 2>/dev/null || true
  ip link del "$(hosts_port "$host")" 2>/dev/null || true
}

# Removes whatever an earlier up left: processes in the namespaces, the namespaces (and their
# files), the bridge ports, the bridge, the names. Safe when nothing is there.
hosts_net_down() {
  local ns pids link
  for ns in $(hosts_namespaces); do
    pids="$(ip netns pids "$ns" 2>/dev/null | tr '\n' ' ')"
    if [[ -n "${pids// /}" ]]; then
      say "killing processes left in host $ns: $pids"
      # shellcheck disable=SC2086
      kill -KILL $pids 2>/dev/null || true
    fi
  done
  hosts_views_down
  for ns in $(hosts_namespaces); do
    ip netns del "$ns" 2>/dev/null || true
  done
  # Under some kernels (gVisor) the bridge side of a pair outlives its namespace.
  for link in $(ip -o link show 2>/dev/null | awk -F': ' '{print $2}' | sed 's/@.*//' | grep -E '^sp-(master|node[0-9]+|client[0-9]+)$' || true); do
    ip link del "$link" 2>/dev/null || true
  done
  if ip link show "$hosts_bridge" >/dev/null 2>&1; then
    ip link del "$hosts_bridge" || true
  fi
  hosts_names_remove
}

# /etc/hosts is shared by every namespace (none has /etc/netns/NAME/hosts), so one set of
# lines makes each name resolve on every host. It is rewritten in place: in a container it may
# be a bind mount, which a rename would not replace.
hosts_names_add() {
  local host lines=""
  hosts_names_remove
  for host in "$hosts_gateway" "$hosts_master" $(hosts_workers "$1"); do
    lines+="$(hosts_address "$host") $host $hosts_marker"$'\n'
  done
  printf '%s' "$lines" >>"$hosts_file"
}

# Rewritten from the first marked line on, then cut to its new length: the lines before it
# (localhost's among them) stay readable throughout. Emptying the file first would make a
# lookup of localhost that runs meanwhile, in a test on another bed, fail.
hosts_names_remove() {
  grep -qF "$hosts_marker" "$hosts_file" 2>/dev/null || return 0
  local offset rest
  offset="$(LC_ALL=C awk -v marker="$hosts_marker" 'index($0, marker) { print at + 0; exit } { at += length($0) + 1 }' "$hosts_file")"
  rest="$(mktemp)"
  tail -c "+$((offset + 1))" "$hosts_file" | grep -vF "$hosts_marker" >"$rest" || true
  dd if="$rest" of="$hosts_file" bs=64k seek="$offset" oflag=seek_bytes conv=notrunc status=none
  truncate -s "$((offset + $(stat -c %s "$rest")))" "$hosts_file"
  rm -f "$rest"
}

# Made in a host's new mount and UTS namespaces, in its network namespace, by hosts_view_up:
# its name, its own /sys (as `ip netns exec` gives one), its own /tmp, and its view of the data
# directory. Arguments: HOST DATA_DIR master|worker NS_DIR, then the paths under /tmp that every
# host shares (the bed's state, caches). A covered directory's old content is reached through the
# working directory, taken inside it before it is covered, and `mount -c` (no canonicalizing),
# which leaves a relative source relative to it.
# shellcheck disable=SC2016
hosts_view_script='set -e
host="$1" data="$2" role="$3" ns_dir="$4"
shift 4
hostname "$host"
# The namespace files of the hosts made before this one are no business of it.
umount -l "$ns_dir"
umount -l /sys
mount -t sysfs "$host" /sys
cd /tmp
mount --bind "$data/hosts/$host/tmp" /tmp
for shared in "$@"; do
  mkdir -p "$shared"
  mount -c --rbind "./${shared#/tmp/}" "$shared"
done
# A small empty file system over the directory, then what the host may see of it back in place.
if [ "$role" = worker ]; then covered="$data"; else covered="$data/hosts"; fi
cd "$covered"
mount -t tmpfs -o mode=755,size=1m "$host" "$covered"
own="$data/hosts/$host"
mkdir -p "$own"
mount -c --bind "./${own#"$covered"/}" "$own"
if [ "$role" = worker ] && [ -d worker-server-conf ]; then
  mkdir "$data/worker-server-conf"
  mount -c --bind ./worker-server-conf "$data/worker-server-conf"
fi
cd /'

# Makes the namespaces of HOST (see above) in its network namespace. Arguments: HOST DATA_DIR
# master|worker, then the shared paths under /tmp. The namespace files need a directory that is
# a private mount: a bind of a shared one would be copied into the new namespace itself.
hosts_view_up() {
  local host="$1" data="$2" role="$3"
  shift 3
  data="$(realpath -m "$data")"
  mkdir -p "$data/hosts/$host/tmp"
  chmod 1777 "$data/hosts/$host/tmp"
  mkdir -p "$hosts_ns_dir"
  if ! mountpoint -q "$hosts_ns_dir"; then
    mount --bind "$hosts_ns_dir" "$hosts_ns_dir"
  fi
  mount --make-private "$hosts_ns_dir"
  touch "$hosts_ns_dir/$host.mnt" "$hosts_ns_dir/$host.uts"
  nsenter --net="/run/netns/$host" \
    unshare --mount="$hosts_ns_dir/$host.mnt" --uts="$hosts_ns_dir/$host.uts" --propagation private \
    sh -c "$hosts_view_script" sh "$host" "$data" "$role" "$hosts_ns_dir" "$@" ||
    die "could not make the file system of host $host"
}

# Unmounts the namespace files of every host (of this bed, or of another one whose `up` was
# killed), then their directories. The namespaces go with their last process.
hosts_views_down() {
  local target
  while read -r target; do
    umount "$target" 2>/dev/null || umount -l "$target" || true
    rm -f "$target"
  done < <(awk '$5 ~ /\/host-namespaces\/spindle-(master|node[0-9]+)\.(mnt|uts)$/ {print $5}' /proc/self/mountinfo)
  while read -r target; do
    while mountpoint -q "$target"; do
      umount "$target" 2>/dev/null || umount -l "$target" || break
    done
  done < <(awk '$5 ~ /\/host-namespaces$/ {print $5}' /proc/self/mountinfo | sort -u)
  if [[ -d "$hosts_ns_dir" ]]; then
    rm -f "$hosts_ns_dir"/spindle-*.mnt "$hosts_ns_dir"/spindle-*.uts
    rmdir "$hosts_ns_dir" 2>/dev/null || true
  fi
}

# The command that runs what follows it on a host, one word a line (for mapfile): in its network,
# mount and UTS namespaces, in the same working directory if the host has it (else /). Every
# process of a host starts so, its daemons too, so all share one file system.
hosts_enter() {
  # shellcheck disable=SC2016
  printf '%s\n' nsenter "--net=/run/netns/$1" "--mount=$hosts_ns_dir/$1.mnt" "--uts=$hosts_ns_dir/$1.uts" \
    sh -c 'cd "$0" 2>/dev/null || cd /; exec "$@"' "$PWD"
}

# Becomes a command on a host (see hosts_enter), with this shell's process id, so that a program
# there sees what it would on a machine of that name: hostname prints it, /tmp is the host's.
hosts_exec() {
  local host="$1" enter
  shift
  mountpoint -q "$hosts_ns_dir/$host.mnt" || die "host $host has no file system: are its daemons started?"
  mapfile -t enter < <(hosts_enter "$host")
  exec "${enter[@]}" "$@"
}

# Whether a host is cut off: its bridge port is administratively down (no UP among its flags).
hosts_is_partitioned() {
  local flags
  flags="$(ip -o link show "$(hosts_port "$1")" 2>/dev/null | sed -n 's/^[^<]*<\([^>]*\)>.*/\1/p')"
  [[ ",$flags," != *,UP,* ]]
}

# Cuts a host off the bridge (its side of the pair down) or puts it back; its processes run on.
hosts_partition() { ip link set "$(hosts_port "$1")" down; }
hosts_heal() { ip link set "$(hosts_port "$1")" up; }
