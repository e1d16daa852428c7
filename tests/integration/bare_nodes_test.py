"""What a job needs on nodes that have nothing of ours, on the hosts of the local YARN of several
hosts (scripts/local-yarn --hosts): the container binary runs in a root directory that holds
nothing but itself, and resolves names from that root's /etc/hosts.

Run by ctest (label cluster) like cluster_test.py. Needs root (chroot, mount, ip netns)."""

import os
import secrets
import shutil
import socket
import subprocess
import tempfile
import unittest

from jobs_on_yarn_test import spindle

CONTAINER_BINARY = os.path.join(os.path.dirname(os.environ["SPINDLE_CLI"]), "spindle-container")
MASTER_HOST = "spindle-master"
WORKER_HOST = "spindle-node1"
# Known only to the roots' own /etc/hosts, not to this machine's: a lookup that succeeds read the root's.
API_NAME = "job-api.self-check"


class EmptyRoot:
    """A root directory with the binary, /proc, /dev/null and an /etc/hosts; nothing else."""

    def __init__(self, hosts_lines):
        self.path = tempfile.mkdtemp(prefix="spindle-empty-root-")
        for directory in ("etc", "proc", "dev"):
            os.mkdir(os.path.join(self.path, directory))
        shutil.copy2(CONTAINER_BINARY, os.path.join(self.path, "spindle-container"))
        with open(os.path.join(self.path, "etc/hosts"), "w") as hosts:
            hosts.write("\n".join(hosts_lines) + "\n")
        open(os.path.join(self.path, "dev/null"), "w").close()
        self.mounts = []
        self._mount(["--bind", "/dev/null"], "dev/null")
        self._mount(["-t", "proc", "proc"], "proc")

    def _mount(self, source, target):
        target = os.path.join(self.path, target)
        subprocess.run(["mount", *source, target], check=True)
        self.mounts.append(target)

    def files(self):
        found = []
        for directory, subdirectories, names in os.walk(self.path):
            if directory == os.path.join(self.path, "proc"):
                subdirectories.clear()
                continue
            found += [os.path.relpath(os.path.join(directory, name), self.path) for name in names]
        return sorted(found)

    def run_on(self, host, *args, **popen):
        return subprocess.Popen(["ip", "netns", "exec", host, "chroot", self.path, "/spindle-container", *args],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **popen)

    def remove(self):
        for target in reversed(self.mounts):
            subprocess.run(["umount", target], check=False)
        shutil.rmtree(self.path, ignore_errors=True)


class ContainerBinaryInAnEmptyRoot(unittest.TestCase):
    def setUp(self):
        self.master_address = socket.gethostbyname(MASTER_HOST)
        self.worker_address = socket.gethostbyname(WORKER_HOST)
        with self.assertRaises(OSError, msg=f"{API_NAME} must be unknown outside the roots"):
            socket.gethostbyname(API_NAME)
        hosts = [f"{self.master_address} {MASTER_HOST} {API_NAME}", f"{self.worker_address} {WORKER_HOST}"]
        self.master_root = EmptyRoot(hosts)
        self.addCleanup(self.master_root.remove)
        self.worker_root = EmptyRoot(hosts)
        self.addCleanup(self.worker_root.remove)

    def test_version_then_a_master_and_an_executor_on_two_hosts(self):
        self.assertEqual(self.worker_root.files(), ["dev/null", "etc/hosts", "spindle-container"])
        own_version = spindle("--version").stdout.split()[1]
        printed = self.worker_root.run_on(WORKER_HOST, "--version").communicate(timeout=30)[0]
        self.assertEqual(printed, f"spindle-container {own_version}\n")

        secret = secrets.token_hex(16)
        master = self.master_root.run_on(MASTER_HOST, "self-check", "master", "--listen", API_NAME, "--secret", secret)
        self.addCleanup(master.kill)
        master_lines = []
        while True:
            line = master.stdout.readline()
            self.assertTrue(line, "the self-check master ended early:\n" + "".join(master_lines))
            master_lines.append(line)
            if " job API at " in line:
                api = line.rsplit(" ", 1)[1].strip()
                break
        self.assertIn(f"{API_NAME} resolves to {self.master_address}\n", "".join(master_lines))
        self.assertTrue(api.startswith(API_NAME + ":"), api)

        task = self.worker_root.run_on(WORKER_HOST, "self-check", "task", "--api", api, "--secret", secret, "--host",
                                       WORKER_HOST)
        task_output = task.communicate(timeout=120)[0]
        self.assertEqual(task.returncode, 0, task_output)
        self.assertIn(f"registered at {WORKER_HOST}:", task_output)
        self.assertIn(f'ran a program, which printed "spindle-container {own_version}"', task_output)

        master_output = "".join(master_lines) + master.communicate(timeout=30)[0]
        self.assertEqual(master.returncode, 0, master_output)
        self.assertIn(f"worker:0 registered from {WORKER_HOST}:", master_output)


if __name__ == "__main__":
    unittest.main()
