# The network of the multi-host local cluster (scripts/local-yarn --hosts): one network
# namespace per host, each with its own address on a bridge, and names for all of them in
# /etc/hosts. The bridge's own address belongs to this machine (the gateway the tests and the
# CLI run on). Nothing is routed anywhere else: the namespaces have no default route, and the
# bridge is not connected to any other interface.
#
# Sourced; expects say and die. HOSTS_SUBNET (three octets) may move the subnet.

hosts_subnet="${HOSTS_SUBNET:-10.231.77}"
hosts_bridge=spindle-br0
hosts_marker="# spindle-local-yarn-hosts"
hosts_master=spindle-master
hosts_gateway=spindle-gateway

# The worker host names for N workers: spindle-node1 .. spindle-nodeN.
hosts_workers() {
  local i
  for ((i = 1; i <= $1; i++)); do echo "spindle-node$i"; done
}

# The address of a host: the master .10, worker k .(10+k), the gateway .1.
hosts_address() {
  case "$1" in
    "$hosts_gateway") echo "$hosts_subnet.1" ;;
    "$hosts_master") echo "$hosts_subnet.10" ;;
    spindle-node[0-9]*) echo "$hosts_subnet.$((10 + ${1#spindle-node}))" ;;
    *) return 1 ;;
  esac
}

# The bridge side of a host's veth pair (at most 15 characters).
hosts_port() { echo "sp-${1#spindle-}"; }

# The namespaces this mode made earlier (possibly by a killed `up`).
hosts_namespaces() { ip netns list 2>/dev/null | awk '{print $1}' | grep -E '^spindle-(master|node[0-9]+)$' || true; }

# Refuses a subnet that this machine already uses for anything but our bridge.
hosts_check_subnet() {
  local used
  used="$(ip -4 -o addr show | awk -v b="$hosts_bridge" '$2 != b {print $2, $4}' | grep -F " $hosts_subnet." || true)"
  [[ -z "$used" ]] || die "the subnet $hosts_subnet.0/24 is in use here ($used); choose another with HOSTS_SUBNET=A.B.C"
  used="$(ip -4 route show | grep -v "dev $hosts_bridge" | grep -E "^$hosts_subnet\.|^default" | grep -v '^default' || true)"
  [[ -z "$used" ]] || die "a route to $hosts_subnet.0/24 exists here ($used); choose another subnet with HOSTS_SUBNET=A.B.C"
}

hosts_net_up() {
  local workers="$1" host port
  hosts_check_subnet
  command -v unshare >/dev/null || die "no unshare (package util-linux)"
  ip link add "$hosts_bridge" type bridge || die "could not create the bridge $hosts_bridge (root is needed)"
  ip addr add "$(hosts_address "$hosts_gateway")/24" dev "$hosts_bridge"
  ip link set "$hosts_bridge" up
  for host in "$hosts_master" $(hosts_workers "$workers"); do
    port="$(hosts_port "$host")"
    ip netns add "$host"
    ip link add "$port" type veth peer name eth0 netns "$host"
    ip link set "$port" master "$hosts_bridge"
    ip link set "$port" up
    ip -n "$host" addr add "$(hosts_address "$host")/24" dev eth0
    ip -n "$host" link set eth0 up
    ip -n "$host" link set lo up
  done
  hosts_names_add "$workers"
}

# Removes whatever an earlier up left: processes in the namespaces, the namespaces, the bridge
# ports, the bridge, the names. Safe when nothing is there.
hosts_net_down() {
  local ns pids link
  for ns in $(hosts_namespaces); do
    pids="$(ip netns pids "$ns" 2>/dev/null | tr '\n' ' ')"
    if [[ -n "${pids// /}" ]]; then
      say "killing processes left in host $ns: $pids"
      # shellcheck disable=SC2086
      kill -KILL $pids 2>/dev/null || true
    fi
    ip netns del "$ns" 2>/dev/null || true
  done
  # Under some kernels (gVisor) the bridge side of a pair outlives its namespace.
  for link in $(ip -o link show 2>/dev/null | awk -F': ' '{print $2}' | sed 's/@.*//' | grep -E '^sp-(master|node[0-9]+)$' || true); do
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
  printf '%s' "$lines" >>/etc/hosts
}

hosts_names_remove() {
  if grep -qF "$hosts_marker" /etc/hosts 2>/dev/null; then
    local kept
    kept="$(grep -vF "$hosts_marker" /etc/hosts)"
    printf '%s\n' "$kept" >/etc/hosts
  fi
}

# Runs a command on a host: in its namespace and under its name (hostname prints it), so a
# program there sees what it would on a machine of that name.
hosts_exec() {
  local host="$1"
  shift
  ip netns exec "$host" unshare --uts sh -c 'hostname "$0" && exec "$@"' "$host" "$@"
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
