"""Spindle on the local YARN of several hosts at its strictest (scripts/local-yarn --hosts 3
--secure --protection privacy --tls): Kerberos with principals of each host, RPC privacy, HTTPS
alone on every web server of the HA ResourceManagers and NameNodes, the worker hosts' NodeManagers
and DataNodes, and encrypted block transfers. A job spread over three worker hosts runs while
every packet on the bridge between the hosts is recorded, and none of its secrets, its tokens'
passwords, its cluster spec or what it prints crosses the bridge in clear.

Run by ctest (labels cluster and secure) with SPINDLE_CLI, SPINDLE_SOURCE_DIR,
SPINDLE_LOCAL_YARN_DIR (that cluster), HADOOP_CONF_DIR, SPINDLE_STATE_DIR and SPINDLE_DATA_DIR
set. Needs root (tcpdump on the bridge)."""

import base64
import glob
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import unittest

from cluster_test import write_spec
from secure_test import CLUSTER, READY, STATE_DIR, TLS, kinit, run, token_passwords

BRIDGE = "spindle-br0"


class EncryptedAcrossHosts(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.mkdtemp(prefix="spindle-secure-hosts-")
        self.addCleanup(shutil.rmtree, self.directory, True)
        cache = os.path.join(self.directory, "ccache")
        kinit(READY["user_principal"], READY["user_keytab"], cache)
        self.env = {"KRB5CCNAME": "FILE:" + cache}

    def submit(self, spec):
        submitted = run("submit", "--json", spec, env=self.env)
        self.assertEqual(submitted.returncode, 0, submitted.stderr)
        return json.loads(submitted.stdout)["application_id"]

    def token_passwords_while_running(self, application, seconds=240):
        """The passwords of the tokens the job's containers were given, read from the worker
        hosts' container directories while they exist, once all four containers have them."""
        deadline = time.monotonic() + seconds
        files = []
        while time.monotonic() < deadline:
            files = [path for path in glob.glob(os.path.join(CLUSTER, "data", "hosts", "*", "nm-local", "**",
                                                             "container_tokens"), recursive=True)
                     if application[len("application_"):] in path]
            if len(files) >= 4:  # the master and three tasks
                break
            time.sleep(0.5)
        self.assertGreaterEqual(len(files), 4, "the job's containers never got their tokens")
        return {value for path in files for name, value in token_passwords(path)
                if name.endswith("TOKEN") or name.startswith("spindle.job.api.key")}

    def test_nothing_of_a_job_on_three_hosts_crosses_the_bridge_in_clear(self):
        with open(os.path.join(CLUSTER, "protection")) as protection:
            strictest = TLS and protection.read().strip() == "privacy"
        if not strictest:
            self.fail("this test needs scripts/local-yarn --hosts 3 --secure --protection privacy --tls")
        capture = os.path.join(self.directory, "bridge.pcap")
        dump = subprocess.Popen(["tcpdump", "-i", BRIDGE, "-U", "-s", "0", "-w", capture],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            self.assertIn(f"listening on {BRIDGE}", dump.stderr.readline())
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
        finally:
            dump.send_signal(signal.SIGINT)
            dump.wait(timeout=30)
            dump.stderr.close()
        addresses = [task["address"] for task in status["job"]["tasks"]]
        self.assertEqual(len({address.split(":")[0] for address in addresses}), 3, addresses)
        self.assertTrue(all(address.startswith("spindle-node") for address in addresses), addresses)
        with open(glob.glob(os.path.join(STATE_DIR, "**", application + ".json"), recursive=True)[0]) as record:
            job_secret = json.load(record)["secret"]
        with open(capture, "rb") as recorded:
            traffic = recorded.read()
        # The capture saw the job's traffic between the hosts: RPC connections open with a clear
        # preamble, and the job's containers ran on the worker hosts, the client on the gateway.
        self.assertIn(b"hrpc", traffic)
        self.assertGreater(len(traffic), 200_000)
        self.assertGreater(len(passwords), 2, "the job's tokens were not found")
        self.assertNotIn(job_secret.encode(), traffic, "the job secret crossed the bridge in clear")
        self.assertNotIn(marker.encode(), traffic, "what the job printed crossed the bridge in clear")
        for address in addresses:
            self.assertNotIn(f'"{address}"'.encode(), traffic, "the cluster spec crossed the bridge as clear JSON")
        for password in passwords:
            for form in (password, base64.b64encode(password), password.hex().encode()):
                if len(form) >= 16:
                    self.assertNotIn(form, traffic, "a token password or the API's key crossed the bridge in clear")


if __name__ == "__main__":
    unittest.main()
