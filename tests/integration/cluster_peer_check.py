"""Runs as a task of a job spread over several hosts (cluster_test.py): checks from inside the
container that TF_CONFIG names several hosts and no loopback address, that CLUSTER_SPEC,
DTF_*_HOSTS and MASTER_ADDR name the same hosts, that this task can listen at the address it was
advertised as (so it is this host's), and that it reaches every peer and is reached by every
peer. Prints one line REPORT {json}; exits 1 if anything failed."""

import json
import os
import socket
import sys
import threading
import time

config = json.loads(os.environ["TF_CONFIG"])
me = config["cluster"][config["task"]["type"]][config["task"]["index"]]
everyone = [address for addresses in config["cluster"].values() for address in addresses]
peers = [address for address in everyone if address != me]
hosts = sorted({address.rsplit(":", 1)[0] for address in everyone})
problems = []
addresses = {}
for host in hosts:
    try:
        addresses[host] = socket.gethostbyname(host)
    except OSError as error:
        problems.append(f"{host} does not resolve: {error}")
if len(hosts) < 3:
    problems.append(f"TF_CONFIG names {len(hosts)} host(s): {hosts}")
problems += [f"{host} is a loopback address ({ip})" for host, ip in addresses.items() if ip.startswith("127.")]

# The other variables that carry addresses name the same hosts, none of them loopback.
if "CLUSTER_SPEC" in os.environ:
    spec = json.loads(os.environ["CLUSTER_SPEC"])
    in_spec = sorted(address for addresses in spec.values() for address in addresses)
    if in_spec != sorted(everyone):
        problems.append(f"CLUSTER_SPEC {in_spec} differs from TF_CONFIG {sorted(everyone)}")
else:
    problems.append("no CLUSTER_SPEC")
dtf_hosts = sorted(a for k, v in os.environ.items() if k.startswith("DTF_") and k.endswith("_HOSTS")
                   for a in v.split(",") if a)
if dtf_hosts != sorted(everyone):
    problems.append(f"the DTF_*_HOSTS variables name {dtf_hosts}, TF_CONFIG {sorted(everyone)}")
for variable in ("MASTER_ADDR",):
    value = os.environ.get(variable, "")
    try:
        if not value or socket.gethostbyname(value).startswith("127."):
            problems.append(f"{variable}={value!r} is not another host's address")
    except OSError as error:
        problems.append(f"{variable}={value!r} does not resolve: {error}")

host, port = me.rsplit(":", 1)
heard = set()
try:
    # Binding the advertised address works only on the host that has it.
    server = socket.create_server((addresses.get(host, host), int(port)))
    server.settimeout(1)
except OSError as error:
    server = None
    problems.append(f"cannot listen at my advertised address {me}: {error}")


def serve():
    while server is not None and len(heard) < len(peers):
        try:
            connection, _ = server.accept()
        except socket.timeout:
            continue
        with connection:
            heard.add(connection.recv(200).decode())


threading.Thread(target=serve, daemon=True).start()
deadline = time.monotonic() + 60
reached = []
for peer in peers:
    peer_host, peer_port = peer.rsplit(":", 1)
    while True:
        try:
            with socket.create_connection((peer_host, int(peer_port)), timeout=2) as connection:
                connection.sendall(me.encode())
            reached.append(peer)
            break
        except OSError as error:
            if time.monotonic() > deadline:
                problems.append(f"could not reach {peer}: {error}")
                break
            time.sleep(0.3)
while len(heard) < len(peers) and time.monotonic() < deadline:
    time.sleep(0.2)
if len(heard) < len(peers):
    problems.append(f"heard only from {sorted(heard)}")
print("REPORT " + json.dumps({"me": me, "hostname": socket.gethostname(), "hosts": hosts, "addresses": addresses,
                              "reached": reached, "heard": sorted(heard), "problems": problems}), flush=True)
sys.exit(1 if problems else 0)
