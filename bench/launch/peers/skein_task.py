"""The task of the skein peer, run in every container (`python skein_task.py`).

skein has no cluster spec of its own; this does the equivalent of a TensorFlow rendezvous with
what skein offers: reserve a port, publish host:port in the application's key-value store
(kept by skein's application master), then read every other task's address from it, waiting
for those not there yet. Once it holds all of them it leaves its mark (BENCH_DIR/<type>:<index>,
the time.time() at that moment), sleeps BENCH_SLEEP seconds and exits.

Environment: BENCH_DIR, BENCH_TASKS (comma-separated task names, e.g. worker:0,worker:1,ps:0),
BENCH_SLEEP; skein sets SKEIN_CONTAINER_ID (e.g. worker_1) and what from_current() needs.
"""

import os
import socket
import time

import skein


def main():
    me = os.environ["SKEIN_CONTAINER_ID"].replace("_", ":", 1)  # worker_1 -> worker:1
    names = os.environ["BENCH_TASKS"].split(",")
    app = skein.ApplicationClient.from_current()
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("", 0))  # held until every task holds the spec, as a TensorFlow server would
        app.kv[f"bench/{me}"] = f"{socket.gethostname()}:{sock.getsockname()[1]}".encode()
        spec = {name: app.kv.wait(f"bench/{name}").decode() for name in names}
        stamp = time.time()
    assert len(spec) == len(names)
    directory = os.environ["BENCH_DIR"]
    tmp = os.path.join(directory, f".{me}.{os.getpid()}.tmp")
    with open(tmp, "w") as f:
        f.write(f"{stamp:.6f}\n")
    os.rename(tmp, os.path.join(directory, me))
    time.sleep(float(os.environ.get("BENCH_SLEEP", "5")))


if __name__ == "__main__":
    main()
