"""Spindle on the local YARN of several hosts at its strictest (scripts/local-yarn --hosts 3
--secure --protection privacy --tls): Kerberos with principals of each host, RPC privacy, HTTPS
alone on every web server of the HA ResourceManagers and NameNodes, the worker hosts' NodeManagers
and DataNodes, and encrypted block transfers. Jobs run on the worker hosts while every packet on
the bridge between the hosts is recorded: a job spread over three hosts whose tasks reach each
other, one that prints a string, and a real TensorFlow job with its TensorBoard. None of their
secrets, their tokens' passwords, their cluster specs or what they print crosses the bridge in
clear.

Run by ctest (labels cluster and secure) with SPINDLE_CLI, SPINDLE_SOURCE_DIR,
SPINDLE_LOCAL_YARN_DIR (that cluster), HADOOP_CONF_DIR, SPINDLE_STATE_DIR and SPINDLE_DATA_DIR
set. Needs root (tcpdump on the bridge)."""

import base64
import contextlib
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

from cluster_test import write_spec
from jobs_on_yarn_test import example_spec
from secure_test import CLUSTER, READY, STATE_DIR, TLS, forms_of, kinit, run, token_passwords

BRIDGE = "spindle-br0"


@contextlib.contextmanager
def bridge_recorded(path):
    """Records every packet on the bridge between the hosts into `path` while the block runs."""
    dump = subprocess.Popen(["tcpdump", "-i", BRIDGE, "-U", "-s", "0", "-w", path],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        line = dump.stderr.readline()
        assert f"listening on {BRIDGE}" in line, f"tcpdump did not start on {BRIDGE}: {line}"
        yield
    finally:
        dump.send_signal(signal.SIGINT)
        dump.wait(timeout=30)
        dump.stderr.close()


class EncryptedAcrossHosts(unittest.TestCase):
    def setUp(self):
        with open(os.path.join(CLUSTER, "protection")) as protection:
            if not (TLS and protection.read().strip() == "privacy"):
                self.fail("these tests need scripts/local-yarn --hosts 3 --secure --protection privacy --tls")
        self.directory = tempfile.mkdtemp(prefix="spindle-secure-hosts-")
        os.chmod(self.directory, 0o755)
        self.addCleanup(shutil.rmtree, self.directory, True)
        cache = os.path.join(self.directory, "ccache")
        kinit(READY["user_principal"], READY["user_keytab"], cache)
        self.env = {"KRB5CCNAME": "FILE:" + cache}

    def submit(self, spec):
        submitted = run("submit", "--json", spec, env=self.env)
        self.assertEqual(submitted.returncode, 0, submitted.stderr)
        return json.loads(submitted.stdout)["application_id"]

    def token_passwords_while_running(self, application, containers=4, seconds=240):
        """The passwords of the tokens the job's containers were given, read from the worker
        hosts' container directories while they exist, once all its containers have them."""
        deadline = time.monotonic() + seconds
        files = []
        while time.monotonic() < deadline:
            files = [path for path in glob.glob(os.path.join(CLUSTER, "data", "hosts", "*", "nm-local", "**",
                                                             "container_tokens"), recursive=True)
                     if application[len("application_"):] in path]
            if len(files) >= containers:
                break
            time.sleep(0.5)
        self.assertGreaterEqual(len(files), containers, "the job's containers never got their tokens")
        return {value for path in files for name, value in token_passwords(path)
                if name.endswith("TOKEN") or name.startswith("spindle.job.api.key")}

    def job_record(self, application):
        with open(glob.glob(os.path.join(STATE_DIR, "**", application + ".json"), recursive=True)[0]) as record:
            return json.load(record)

    def assert_not_in_clear(self, traffic, job_secret, passwords):
        """The recording holds the jobs' traffic, and neither the job secret nor any of the
        passwords in any form."""
        # RPC connections open with a clear preamble; the rest is the jobs' sealed traffic.
        self.assertIn(b"hrpc", traffic)
        self.assertGreater(len(traffic), 200_000)
        self.assertGreater(len(passwords), 2, "the job's tokens were not found")
        self.assertNotIn(job_secret.encode(), traffic, "the job secret crossed the bridge in clear")
        for password in passwords:
            for form in forms_of(password):
                self.assertNotIn(form, traffic, "a token password or the API's key crossed the bridge in clear")

    def test_nothing_of_a_job_on_three_hosts_crosses_the_bridge_in_clear(self):
        capture = os.path.join(self.directory, "bridge.pcap")
        with bridge_recorded(capture):
            # Three tasks, one per worker host, that check they reach each other at the addresses
            # of the cluster spec, then stay a while so that their containers can be looked at.
            spec = write_spec(self.directory, "spread", "python3 peer_check.py && sleep 15", instances=3)
            application = self.submit(spec)
            # A second job prints a computed string to stderr and fails: the string travels from
            # its executor to the master's API, to the ResourceManager's diagnostics and to the
            # client on the gateway, across the bridge at each step.
            prefix = "printed-across-hosts-" + base64.b32encode(os.urandom(10)).decode().lower() + "-"
            marker = prefix + "4242"
            printer_dir = os.path.join(self.directory, "printer")
            os.mkdir(printer_dir)
            printer = write_spec(printer_dir, "printer", f"echo {prefix}$((4000 + 242)) >&2; exit 3",
                                 instances=1, memory="256 MiB")
            printer_id = self.submit(printer)
            passwords = self.token_passwords_while_running(application)
            told = run("watch", printer_id, env=self.env, timeout=600)
            self.assertIn(marker, told.stdout + told.stderr, "the printed string did not reach the client")
            watched = run("watch", application, env=self.env, timeout=600)
            self.assertEqual(watched.returncode, 0, watched.stdout + watched.stderr)
            status = json.loads(run("status", application, "--json", env=self.env).stdout)
        addresses = [task["address"] for task in status["job"]["tasks"]]
        self.assertEqual(len({address.split(":")[0] for address in addresses}), 3, addresses)
        self.assertTrue(all(address.startswith("spindle-node") for address in addresses), addresses)
        with open(capture, "rb") as recorded:
            traffic = recorded.read()
        self.assert_not_in_clear(traffic, self.job_record(application)["secret"], passwords)
        self.assertNotIn(marker.encode(), traffic, "what the job printed crossed the bridge in clear")
        for address in addresses:
            self.assertNotIn(f'"{address}"'.encode(), traffic, "the cluster spec crossed the bridge as clear JSON")

    def test_a_tensorflow_job_and_its_tensorboard_keep_everything_off_the_bridge(self):
        """The wine-quality example, real TensorFlow: its chief, evaluator and TensorBoard on the
        worker hosts, which find TensorFlow through PATH where every host has it (the nodes have
        none of their own), as nodes built from one image with an environment would. The hosts
        share no disk: the output is in HDFS, which the tasks reach with the job's delegation
        token over HTTPS alone."""
        user = READY["user_principal"].split("@")[0]
        output = f"hdfs:///user/{user}/spindle-test-outputs/{os.path.basename(self.directory)}"
        spec = example_spec("wine-quality/wine_quality.yaml", output, check_environment=False)
        spec["env"]["TRAIN_STEPS"] = "300"
        spec["env"]["PATH"] = f"{os.path.dirname(sys.executable)}:/usr/bin:/bin"
        path = os.path.join(self.directory, "spec.json")
        with open(path, "w") as out:
            json.dump(spec, out)
        capture = os.path.join(self.directory, "bridge.pcap")
        with bridge_recorded(capture):
            application = self.submit(path)
            passwords = self.token_passwords_while_running(application)
            # The TensorBoard serves TLS alone, with a certificate of its own whose pin the job
            # reports once the task's first heartbeat has brought it.
            board, deadline = {}, time.monotonic() + 180
            while not board.get("certificate_sha256") and time.monotonic() < deadline:
                shown = run("status", application, "--json", env=self.env)
                if shown.returncode == 0:
                    board = next((task for task in (json.loads(shown.stdout).get("job") or {}).get("tasks", [])
                                  if task["task"] == "tensorboard:0"), {})
                time.sleep(1)
            self.assertRegex(board.get("certificate_sha256", ""), "^[0-9a-f]{64}$", board)
            watched = run("watch", application, env=self.env, timeout=900)
            self.assertEqual(watched.returncode, 0, watched.stdout + watched.stderr)
            status = json.loads(run("status", application, "--json", env=self.env).stdout)
        tasks = {task["task"]: task for task in status["job"]["tasks"]}
        self.assertEqual(set(tasks), {"chief:0", "evaluator:0", "tensorboard:0"}, tasks)
        self.assertTrue(all(task["address"].startswith("spindle-node") for task in tasks.values()), tasks)
        # The chief's event files are in HDFS, where this machine reads its scalars with a ticket.
        metrics = run("metrics", application, "--json", env=self.env)
        self.assertEqual(metrics.returncode, 0, metrics.stderr)
        self.assertTrue(any(point["source"] == "tfevents" and point["run"] == "train"
                            for point in json.loads(metrics.stdout)), metrics.stdout[:2000])
        with open(capture, "rb") as recorded:
            traffic = recorded.read()
        record = self.job_record(application)
        self.assertRegex(record.get("api_certificate_sha256", ""), "^[0-9a-f]{64}$")
        self.assert_not_in_clear(traffic, record["secret"], passwords)
        self.assertNotIn(b'"chief":["', traffic, "the cluster spec crossed the bridge as clear JSON")

if __name__ == "__main__":
    unittest.main()
