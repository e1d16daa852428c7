"""A sweep outlives the machine that submitted it, on the local YARN of several hosts
(scripts/local-yarn --hosts 3): `spindle sweep submit` runs on a client host of its own (a network
namespace with its own address, no part of the cluster); once it has returned, the CLI is killed
and the client host taken away with every process on it. The sweep runs on inside YARN to its end,
and `spindle sweep status` on another machine, with no history of its own, reads it from HDFS.

Run by ctest (labels cluster, integration, tensorflow) like cluster_test.py."""

import json
import os
import subprocess
import sys
import tempfile
import time
import unittest
import uuid

import hdfs_outputs
from jobs_on_yarn_test import SOURCE, spindle

LOCAL_YARN = os.path.join(SOURCE, "scripts/local-yarn")
TF_BIN = os.path.dirname(sys.executable)
CLIENT = "spindle-client1"


def local_yarn(*args):
    done = subprocess.run([LOCAL_YARN, "--hosts", *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


class SweepWithoutItsClient(unittest.TestCase):
    def test_the_sweep_ends_after_its_client_host_is_gone_and_another_machine_follows_it(self):
        directory = tempfile.mkdtemp(prefix="spindle-sweep-hosts-")
        os.chmod(directory, 0o755)
        validated = spindle("validate", "--json", os.path.join(SOURCE, "resources/examples/wine-sweep/wine_sweep.yaml"))
        self.assertEqual(validated.returncode, 0, validated.stderr)
        answer = json.loads(validated.stdout)
        spec = answer["spec"]
        # TensorFlow as the nodes' image has it, on PATH: nothing to ship.
        spec.pop("python_env", None)
        spec["env"]["PATH"] = f"{TF_BIN}:/usr/bin:/bin"
        spec["env"]["TRAIN_STEPS"] = "200"
        output = f"/tmp/spindle-sweep-hosts-{uuid.uuid4().hex[:8]}"
        self.addCleanup(hdfs_outputs.remove, output)
        spec["output"] = "hdfs://" + output
        spec["sweep"] = {**answer["sweep"], "trials": 4, "parallel": 2}
        path = os.path.join(directory, "sweep.json")
        with open(path, "w") as out:
            json.dump(spec, out)

        local_yarn("client-up", "1")
        self.addCleanup(subprocess.run, [LOCAL_YARN, "--hosts", "client-down", "1"], capture_output=True, timeout=120)
        client_state = {"SPINDLE_STATE_DIR": os.path.join(directory, "client-state"),
                        "SPINDLE_DATA_DIR": os.path.join(directory, "client-data")}
        submit = subprocess.Popen(["ip", "netns", "exec", CLIENT, os.environ["SPINDLE_CLI"], "sweep", "submit", "--json",
                                   path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  env={**os.environ, **client_state})
        stdout, stderr = submit.communicate(timeout=300)
        self.assertEqual(submit.returncode, 0, stderr)
        sweep = json.loads(stdout)["sweep_id"]
        # The submitting machine goes away: its CLI and every process on it, and its address.
        local_yarn("client-down", "1")
        namespaces = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
        self.assertNotIn(CLIENT, namespaces)

        # Another machine, with no record or history of the sweep, follows it from HDFS.
        elsewhere = {"SPINDLE_STATE_DIR": os.path.join(directory, "other-state"),
                     "SPINDLE_DATA_DIR": os.path.join(directory, "other-data")}
        deadline = time.time() + 1200
        while True:
            status = spindle("sweep", "status", "--json", sweep, env=elsewhere)
            self.assertEqual(status.returncode, 0, status.stderr)
            record = json.loads(status.stdout)
            # Until the controller runs there is no record in HDFS, and the status says so.
            if not record["from_cluster"]:
                self.assertIn("has not started yet", record["note"], record)
            elif record["state"] != "running":
                break
            self.assertLess(time.time(), deadline, f"the sweep did not end in 20 minutes: {record}")
            time.sleep(5)
        self.assertEqual(record["state"], "succeeded", record)
        self.assertEqual(len(record["trials"]), 4)
        for trial in record["trials"]:
            self.assertIn(trial["state"], ("succeeded", "stopped by the sweep"), trial)
            self.assertIsNotNone(trial["best"], trial)
        self.assertIsNotNone(record["best_trial"])
        # The other machine follows a trial like its own job, with the secret from the record.
        trial = record["trials"][0]["application_id"]
        followed = spindle("status", "--json", trial, env=elsewhere)
        self.assertEqual(followed.returncode, 0, followed.stderr)


if __name__ == "__main__":
    unittest.main()
