"""hdfs:// in TensorFlow through Spindle's plugin on the hosts at their
strictest (scripts/local-yarn --hosts 3 --secure --protection privacy --tls):
Kerberos, RPC privacy, HTTPS alone, encrypted block transfers.

- The data is written from this machine (a gateway) by TensorFlow with the
  user's Kerberos ticket; the tensorflow-on-hdfs example trains on two hosts
  with the job's delegation token for the nameservice (ha-hdfs:...), writes
  checkpoints, summaries and a SavedModel, its evaluator follows them; the
  gateway then reads the results and serves the model from hdfs://.
- A job whose HDFS delegation token is cancelled while it runs gets one
  clear error naming the path, and fails within seconds, neither hanging
  nor crashing.

Run by ctest (labels cluster, secure) with SPINDLE_CLI, SPINDLE_SOURCE_DIR,
SPINDLE_LOCAL_YARN_DIR, HADOOP_CONF_DIR, SPINDLE_STATE_DIR, SPINDLE_DATA_DIR
and SPINDLE_HDFS_PYTHON set."""

import base64
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
import uuid

from jobs_on_yarn_test import SOURCE, configuration
from secure_test import CA_FILE, CLUSTER, READY, kinit, read_bytes, read_vint, run

HOOK = os.environ["SPINDLE_HDFS_PYTHON"]
EXAMPLE = os.path.join(SOURCE, "resources/examples/tensorflow-on-hdfs")


def hdfs_tokens(path):
    """(kind, service, url string) of each token of a credentials file in Hadoop's Writable format;
    the url string as Hadoop's Token.encodeToUrlString makes it."""
    with open(path, "rb") as tokens:
        data = tokens.read()
    assert data[:4] == b"HDTS" and data[4] == 0, path
    found = []
    count, at = read_vint(data, 5)
    for _ in range(count):
        _alias, at = read_bytes(data, at)
        start = at
        _identifier, at = read_bytes(data, at)
        _password, at = read_bytes(data, at)
        kind, at = read_bytes(data, at)
        service, at = read_bytes(data, at)
        writable = data[start:at]
        found.append((kind.decode(), service.decode(), base64.urlsafe_b64encode(writable).rstrip(b"=").decode()))
    return found


class SecureTensorFlowHdfs(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.mkdtemp(prefix="spindle-secure-tf-hdfs-")
        os.chmod(self.directory, 0o755)
        self.addCleanup(shutil.rmtree, self.directory, True)
        cache = os.path.join(self.directory, "ccache")
        kinit(READY["user_principal"], READY["user_keytab"], cache)
        self.env = {"KRB5CCNAME": "FILE:" + cache}
        user = READY["user_principal"].split("@")[0].split("/")[0]
        nameservice = configuration("dfs.nameservices")
        self.assertTrue(nameservice, "these tests need the HA nameservice of the hosts")
        self.base = f"hdfs://{nameservice}/user/{user}/spindle-test-outputs/{uuid.uuid4().hex}"
        self.addCleanup(self.gateway, "import tensorflow as tf, sys; tf.io.gfile.rmtree(sys.argv[1])", self.base)

    def gateway(self, code, *args, timeout=300):
        """Python with TensorFlow on this machine, hdfs:// through the plugin and `spindle` with the ticket."""
        env = {**os.environ, "KRB5_CONFIG": READY["krb5_conf"], **self.env, "PYTHONPATH": HOOK,
               "SPINDLE_HDFS_BRIDGE": os.environ["SPINDLE_CLI"]}
        return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=timeout,
                              env=env)

    def write_spec(self, spec):
        path = os.path.join(self.directory, "job.json")
        with open(path, "w") as out:
            json.dump(spec, out)
        return path

    def test_a_job_trains_on_hdfs_with_its_tokens_and_a_gateway_with_its_ticket_reads_the_results(self):
        made = subprocess.run([sys.executable, os.path.join(EXAMPLE, "make_data.py"), self.base + "/data"],
                              capture_output=True, text=True, timeout=300,
                              env={**os.environ, "KRB5_CONFIG": READY["krb5_conf"], **self.env, "PYTHONPATH": HOOK,
                                   "SPINDLE_HDFS_BRIDGE": os.environ["SPINDLE_CLI"]})
        self.assertEqual(made.returncode, 0, made.stderr[-3000:])
        import yaml

        with open(os.path.join(EXAMPLE, "tensorflow_on_hdfs.yaml")) as shipped:
            spec = yaml.safe_load(shipped)
        for name in list(spec["files"]):
            spec["files"][name] = os.path.normpath(os.path.join(EXAMPLE, spec["files"][name]))
        del spec["python_env"]
        # Its TensorBoard is the plain-bed test's; here the scalars are read back from HDFS.
        del spec["tasks"]["tensorboard"]
        spec["env"].update({"DATA": self.base + "/data", "MODEL_DIR": self.base + "/model", "TRAIN_STEPS": "60",
                            "CHECKPOINT_EVERY": "20", "PATH": f"{os.path.dirname(sys.executable)}:/usr/bin:/bin"})
        spec["tasks"]["worker"]["memory"] = "2560 MiB"
        submitted = run("submit", "--json", self.write_spec(spec), env=self.env)
        self.assertEqual(submitted.returncode, 0, submitted.stdout + submitted.stderr)
        application = json.loads(submitted.stdout)["application_id"]
        watched = run("watch", application, env=self.env, timeout=900)
        self.assertEqual(watched.returncode, 0, watched.stdout[-2000:] + watched.stderr[-3000:])
        checked = self.gateway(
            "import json, sys, tensorflow as tf\n"
            "model = sys.argv[1]\n"
            "training = json.loads(tf.io.gfile.GFile(model + '/training.json').read())\n"
            "print(json.dumps({'training': training, 'checkpoints': sorted(tf.io.gfile.listdir(model + '/checkpoints')),"
            " 'train': tf.io.gfile.listdir(model + '/train'), 'eval': tf.io.gfile.listdir(model + '/eval')}))\n",
            self.base + "/model")
        self.assertEqual(checked.returncode, 0, checked.stderr[-3000:])
        found = json.loads(checked.stdout.strip().splitlines()[-1])
        self.assertEqual(found["training"]["replicas"], 2, found)
        self.assertIn("ckpt-60.index", found["checkpoints"])
        self.assertTrue(found["train"] and found["eval"], found)
        served = subprocess.run([sys.executable, os.path.join(SOURCE, "tests/python/saved_model_predict.py"),
                                 self.base + "/model/saved_model"], capture_output=True, text=True, timeout=300,
                                env={**os.environ, "KRB5_CONFIG": READY["krb5_conf"], **self.env, "PYTHONPATH": HOOK,
                                     "SPINDLE_HDFS_BRIDGE": os.environ["SPINDLE_CLI"]})
        self.assertEqual(served.returncode, 0, served.stderr[-3000:])
        self.assertGreaterEqual(json.loads(served.stdout.strip().splitlines()[-1])["accuracy"], 0.85)

    def test_a_cancelled_delegation_token_is_one_clear_error_naming_the_path(self):
        script = os.path.join(SOURCE, "tests/python/hdfs_until_refused.py")
        spec = {"name": "token-cancelled", "files": {"hdfs_until_refused.py": script},
                "env": {"PATH": f"{os.path.dirname(sys.executable)}:/usr/bin:/bin", "TF_CPP_MIN_LOG_LEVEL": "2"},
                "tasks": {"worker": {"memory": "2 GiB", "command": f"python hdfs_until_refused.py {self.base}/job"}}}
        submitted = run("submit", "--json", self.write_spec(spec), env=self.env)
        self.assertEqual(submitted.returncode, 0, submitted.stdout + submitted.stderr)
        application = json.loads(submitted.stdout)["application_id"]
        # Once the task has reached HDFS, its token (as its container holds it) is cancelled, as its owner may.
        deadline, alive = time.monotonic() + 300, None
        while time.monotonic() < deadline:
            alive = self.gateway("import tensorflow as tf, sys; print(tf.io.gfile.exists(sys.argv[1]))",
                                 self.base + "/job/alive")
            if alive.stdout.strip().endswith("True"):
                break
            time.sleep(2)
        self.assertTrue(alive and alive.stdout.strip().endswith("True"), "the task never wrote to HDFS: " +
                        (alive.stderr[-2000:] if alive else ""))
        files = [path for path in glob.glob(os.path.join(CLUSTER, "data", "hosts", "*", "nm-local", "**",
                                                         "container_tokens"), recursive=True)
                 if application[len("application_"):] in path]
        tokens = {url for path in files for kind, _service, url in hdfs_tokens(path)
                  if kind == "HDFS_DELEGATION_TOKEN"}
        self.assertTrue(tokens, f"no HDFS token in the job's containers: {files}")
        cancelled_at = time.monotonic()
        for token in tokens:
            self.cancel(token)
        watched = run("watch", application, env=self.env, timeout=300)
        failed_after = time.monotonic() - cancelled_at
        self.assertNotEqual(watched.returncode, 0, watched.stdout[-2000:])
        status = json.loads(run("status", application, "--json", env=self.env).stdout)
        told = json.dumps(status) + watched.stdout + watched.stderr
        self.assertIn("UnauthenticatedError", told, told[-3000:])
        self.assertIn(self.base + "/job", told)
        self.assertIn("delegation token expired or was cancelled", told)
        self.assertLess(failed_after, 120, "the job took this long to fail once its token was cancelled")

    def cancel(self, token):
        """CANCELDELEGATIONTOKEN with the user's ticket at whichever NameNode is active."""
        nameservice = configuration("dfs.nameservices")
        answers = []
        for namenode in configuration(f"dfs.ha.namenodes.{nameservice}").split(","):
            address = configuration(f"dfs.namenode.https-address.{nameservice}.{namenode}")
            done = subprocess.run(["curl", "-s", "--cacert", CA_FILE, "--negotiate", "-u", ":", "-X", "PUT",
                                   "-w", "\n%{http_code}",
                                   f"https://{address}/webhdfs/v1/?op=CANCELDELEGATIONTOKEN&token={token}"],
                                  capture_output=True, text=True, timeout=60,
                                  env={**os.environ, "KRB5_CONFIG": READY["krb5_conf"], **self.env})
            if done.stdout.strip().endswith("\n200") or done.stdout.strip() == "200":
                return
            answers.append(done.stdout[-300:])
        self.fail(f"no NameNode cancelled the token: {answers}")


if __name__ == "__main__":
    unittest.main()
