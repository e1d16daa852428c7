"""Ports for servers that a test starts on a port it names.

A port the kernel hands out for port 0 is of its ephemeral range, which every
outgoing connection also draws from: free when picked, it may be taken before
the server binds it, more so with test beds starting side by side. These are
picked at random below that range, where only explicit binds take ports, and
tried before they are given."""

import random
import socket

_picks = random.SystemRandom()


def _ephemeral_start():
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as ports:
            return int(ports.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def free_ports(count, host="127.0.0.1"):
    """`count` distinct ports that nothing on `host` listens on now."""
    start = _ephemeral_start()
    lowest = 10000
    if start - lowest < 1000:
        raise RuntimeError(f"the ephemeral port range starts at {start}: no room below it for test servers")
    chosen = []
    for _ in range(500 * count):
        port = _picks.randrange(lowest, start)
        if port in chosen:
            continue
        with socket.socket() as probe:
            try:
                probe.bind((host, port))
            except OSError:
                continue
        chosen.append(port)
        if len(chosen) == count:
            return chosen
    raise RuntimeError(f"no {count} free ports between {lowest} and {start} in {500 * count} tries")


def free_port(host="127.0.0.1"):
    return free_ports(1, host)[0]
