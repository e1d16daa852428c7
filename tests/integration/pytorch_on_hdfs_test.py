"""PyTorch with its checkpoints straight in HDFS, through fsspec's hdfs:// (hdfs-native, no JVM),
on the hosts that share nothing but HDFS (scripts/local-yarn --hosts 3) and on the same hosts at
their strictest (--secure --protection privacy --tls: Kerberos, RPC privacy, encrypted block
transfers, the job holding delegation tokens alone).

- The pytorch-on-hdfs example (a chief and two workers over gloo, one a host) checkpoints with
  torch.save through fsspec.open and with torch.distributed.checkpoint's FsspecWriter into
  hdfs://NAMESERVICE/...; a worker killed mid-training restarts the group, and every rank goes
  on from the newest whole checkpoint, loaded with FsspecReader and torch.load. What the tests
  check of it they read from HDFS over WebHDFS, and this machine (a gateway) loads the last
  checkpoint with torch through hdfs-native too.
- A job whose environment lacks hdfs-native fails with the sentence that names the package.
- On the secure hosts: one job checkpoints, a second resumes from its checkpoint, both with their
  ha-hdfs tokens; the gateway reads the results with the user's ticket.

Run by ctest (labels cluster, integration, pytorch; secure too for the secure hosts) with
SPINDLE_CLI, HADOOP_CONF_DIR, SPINDLE_SOURCE_DIR, SPINDLE_LOCAL_YARN_DIR, SPINDLE_STATE_DIR,
SPINDLE_DATA_DIR, SPINDLE_TORCH_PYTHON and SPINDLE_HDFS_PYTHON set."""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import uuid

import hdfs_outputs
from jobs_on_yarn_test import configuration, example_spec, spindle

TORCH_PYTHON = os.environ.get("SPINDLE_TORCH_PYTHON", "/nonexistent/bin/python")
TORCH_ENV = os.path.dirname(os.path.dirname(TORCH_PYTHON))
HOOK = os.environ.get("SPINDLE_HDFS_PYTHON", "")
TF_BIN = os.path.dirname(sys.executable)
EVERY = 50
FILE_SYSTEM = "spindle_hdfs.fsspec_hdfs.HdfsFileSystem"
MISSING = ("hdfs:// through fsspec needs the hdfs-native package in the job's Python environment: "
           "add hdfs-native==0.14.7 to it")

# On this machine, as a user would on a gateway: torch.load of a checkpoint through fsspec's hdfs://.
GATEWAY_LOAD = """\
import json, sys, fsspec, torch
with fsspec.open(sys.argv[1], "rb") as saved:
    state = torch.load(saved)
print(json.dumps({"step": state["step"], "tensors": sorted(state["model"]),
                  "file_system": type(fsspec.url_to_fs(sys.argv[1])[0]).__module__}))
"""


def spec_of(run_uri, steps, step_seconds):
    spec = example_spec("pytorch-on-hdfs/pytorch_on_hdfs.yaml", None, check_environment=False)
    spec.pop("output")
    spec["python_env"] = "node:" + TORCH_ENV
    spec["env"].update({"RUN_URI": run_uri, "TRAIN_STEPS": str(steps), "STEP_SECONDS": str(step_seconds),
                        "CHECKPOINT_EVERY": str(EVERY)})
    # One container a host (each has 4096 MB): the group meets, and reads what the others wrote, across hosts.
    for kind in ("chief", "worker"):
        spec["tasks"][kind]["memory"] = "2560 MiB"
    return spec


def task_of(status, name):
    for each in status["job"]["tasks"]:
        if each["task"] == name:
            return each
    raise AssertionError(f"no {name} among {[each['task'] for each in status['job']['tasks']]}")


def container_processes(container, word):
    """Processes of the container (their working directory is its own, on whichever host: this machine's
    /proc shows every host's) whose command line holds `word`."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if not os.readlink(f"/proc/{pid}/cwd").endswith("/" + container):
                continue
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                if word in cmdline.read():
                    found.append(int(pid))
        except OSError:
            continue
    return found


class PyTorchOnHdfsTest(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.mkdtemp(prefix="spindle-pytorch-hdfs-")
        os.chmod(self.directory, 0o755)
        self.addCleanup(shutil.rmtree, self.directory, True)

    def write_spec(self, spec, name="spec.json"):
        path = os.path.join(self.directory, name)
        with open(path, "w") as out:
            json.dump(spec, out)
        return path

    def gateway_load(self, uri, env=None):
        """torch.load of `uri` on this machine, through fsspec's hdfs:// and Spindle's hook for it."""
        loaded = subprocess.run([TORCH_PYTHON, "-c", GATEWAY_LOAD, uri], capture_output=True, text=True, timeout=300,
                                env={**os.environ, "PYTHONPATH": HOOK, **(env or {})})
        self.assertEqual(loaded.returncode, 0, loaded.stderr[-3000:])
        return json.loads(loaded.stdout.strip().splitlines()[-1])

    def assert_ranks(self, training, tasks, resumed_at_least):
        """Every rank of `tasks` (one each) took part, went on from a whole checkpoint at or after
        `resumed_at_least` (0: from scratch) that both loads read alike, reached HDFS through Spindle's
        fsspec file system and found the cluster's nameservice in its Hadoop configuration."""
        views = sorted(training["ranks"], key=lambda view: view["rank"])
        self.assertEqual([view["rank"] for view in views], list(range(len(tasks))), training)
        self.assertEqual([view["task"] for view in views], tasks, training)
        nameservice = configuration("dfs.nameservices")
        for view in views:
            self.assertGreaterEqual(view["resumed_from"], resumed_at_least, view)
            self.assertEqual(view["resumed_from"] % EVERY, 0, view)
            if view["resumed_from"]:
                self.assertTrue(view["both_loads_agree"], view)
            else:
                self.assertIsNone(view["resumed_checkpoint"], view)
            self.assertEqual(view["file_system"], FILE_SYSTEM, view)
            self.assertTrue(view["hadoop_conf_dir"], f"{view['task']} had no HADOOP_CONF_DIR: {view}")
            self.assertEqual(view["nameservices"], nameservice, view)
        self.assertLess(training["last_loss"], training["first_loss"], training)
        return views


class PyTorchOnHdfs(PyTorchOnHdfsTest):
    def test_a_killed_worker_restarts_the_group_which_resumes_from_its_checkpoint_in_hdfs(self):
        path = f"{hdfs_outputs.OUTPUTS}/{uuid.uuid4().hex}"
        self.addCleanup(hdfs_outputs.remove, path)
        run_uri = f"hdfs://{configuration('dfs.nameservices')}{path}"
        # 400 steps of at least 50 ms: 20 s or more, with a checkpoint every 50 steps.
        submitted = spindle("submit", "--json", self.write_spec(spec_of(run_uri, 400, 0.05)))
        self.assertEqual(submitted.returncode, 0, submitted.stderr)
        application = json.loads(submitted.stdout)["application_id"]
        self.addCleanup(self.kill_if_running, application)

        seen = self.wait_for_a_whole_checkpoint(application, path)
        worker = task_of(json.loads(spindle("status", application, "--json").stdout), "worker:1")
        deadline, killed = time.monotonic() + 30, []
        while not killed and time.monotonic() < deadline:
            for pid in container_processes(worker["container"], b"train.py"):
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
            time.sleep(0.2)
        self.assertTrue(killed, f"worker:1's train.py was never found in {worker['container']} on {worker['node']}")

        watched = spindle("watch", application, timeout=600)
        status = json.loads(spindle("status", application, "--json").stdout)
        self.assertEqual(watched.returncode, 0, watched.stdout[-3000:] + watched.stderr[-2000:] + status["diagnostics"])
        self.assertEqual(status["final_status"], "SUCCEEDED", status)
        # The group restarted as one: the killed member spent its restart, the others were lost with it.
        self.assertEqual(task_of(status, "worker:1")["restarts"], 1, status["job"]["tasks"])
        for name in ("chief:0", "worker:0"):
            self.assertEqual(task_of(status, name)["restarts"], 0, status["job"]["tasks"])
            self.assertEqual(task_of(status, name)["lost"], 1, status["job"]["tasks"])
        self.assertGreaterEqual(status["job"]["cluster_version"], 2, status["job"])

        training = json.loads(hdfs_outputs.read(f"{path}/training.json"))
        views = self.assert_ranks(training, ["chief:0", "worker:0", "worker:1"], resumed_at_least=seen)
        self.assertEqual(training["steps"], 400, training)
        self.assertEqual(len({view["resumed_from"] for view in views}), 1, views)
        self.assertGreaterEqual(len({view["host"] for view in views}), 2, views)
        resumed = views[0]["resumed_from"]
        logs = spindle("logs", application, "worker:1", "--follow", timeout=300)
        self.assertIn(f"rank 2: resumed from step {resumed} ", logs.stdout, logs.stdout[-3000:] + logs.stderr)

        # In HDFS: whole checkpoints of both starts of the group, the last one at step 400.
        files = hdfs_outputs.tree(f"{path}/checkpoints")
        whole = sorted(name.split("/")[0] for name in files if name.endswith("/model.pt"))
        self.assertIn(views[0]["resumed_checkpoint"].rsplit("/", 1)[1], whole)
        self.assertTrue(whole[-1].startswith("step-000400-"), whole)
        self.assertEqual(len({name.rsplit("-", 1)[1] for name in whole}), 2, whole)
        for name in whole:
            self.assertIn(f"{name}/dcp/.metadata", files)
            self.assertTrue(any(f.startswith(f"{name}/dcp/") and f.endswith(".distcp") for f in files), files)
        last = self.gateway_load(f"{run_uri}/checkpoints/{whole[-1]}/model.pt")
        self.assertEqual(last["step"], 400, last)
        self.assertEqual(last["file_system"], "spindle_hdfs.fsspec_hdfs", last)
        print(f"worker:1 killed once step {seen} was whole; every rank went on from step {resumed} "
              f"on {sorted({view['host'] for view in views})}")

    @staticmethod
    def kill_if_running(application):
        shown = spindle("status", application, "--json")
        if shown.returncode != 0 or json.loads(shown.stdout)["state"] not in ("FINISHED", "FAILED", "KILLED"):
            spindle("kill", application)

    def wait_for_a_whole_checkpoint(self, application, path, seconds=300):
        """The step of the first checkpoint in HDFS with its model.pt and dcp/.metadata, while the job runs."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                files = hdfs_outputs.tree(f"{path}/checkpoints")
            except urllib.error.HTTPError as error:
                self.assertTrue(hdfs_outputs.names_a_missing_path(error), f"{error.code} {error.webhdfs_body}")
                files = {}
            whole = [name.split("/")[0] for name in files
                     if name.endswith("/model.pt") and f"{name.split('/')[0]}/dcp/.metadata" in files]
            if whole:
                return int(min(whole).split("-")[1])
            status = json.loads(spindle("status", application, "--json").stdout)
            self.assertNotIn(status["state"], ("FINISHED", "FAILED", "KILLED"),
                             f"the job ended before any checkpoint was whole in HDFS: {status['diagnostics']}")
            time.sleep(0.5)
        self.fail(f"no whole checkpoint in hdfs://{path}/checkpoints after {seconds} s")

    def test_an_environment_without_hdfs_native_fails_saying_what_to_add(self):
        # The TensorFlow environment of the hosts has fsspec (and pyarrow, whose hdfs needs a JVM) but no hdfs-native.
        code = "import fsspec; fsspec.open('hdfs:///tmp/anything', 'rb').open()"
        spec = {"name": "fsspec-without-hdfs-native", "env": {"PATH": f"{TF_BIN}:/usr/bin:/bin"},
                "tasks": {"chief": {"memory": "1 GiB", "command": f'python -c "{code}"'}}}
        done = spindle("submit", "--wait", "--json", self.write_spec(spec), timeout=600)
        outcome = json.loads(done.stdout) if done.stdout.strip() else {}
        self.assertEqual(done.returncode, 1, done.stderr)
        self.assertEqual(outcome["final_status"], "FAILED", outcome)
        self.assertIn("chief:0 failed", outcome["diagnostics"])
        self.assertIn(MISSING, outcome["diagnostics"])
        self.assertNotIn("libjvm", outcome["diagnostics"])


class SecurePyTorchOnHdfs(PyTorchOnHdfsTest):
    """Shorter, on the secure hosts: no kill; a second job resumes from the first one's checkpoint."""

    def setUp(self):
        super().setUp()
        from secure_test import READY, kinit

        cache = os.path.join(self.directory, "ccache")
        kinit(READY["user_principal"], READY["user_keytab"], cache)
        self.env = {"KRB5CCNAME": "FILE:" + cache, "KRB5_CONFIG": READY["krb5_conf"]}
        user = READY["user_principal"].split("@")[0].split("/")[0]
        self.run_uri = f"hdfs://{configuration('dfs.nameservices')}/user/{user}/spindle-test-outputs/{uuid.uuid4().hex}"
        self.addCleanup(self.gateway, "import fsspec, sys; fsspec.url_to_fs(sys.argv[1])[0].rm(sys.argv[1], True)",
                        self.run_uri)

    def gateway(self, code, *args):
        """Python with PyTorch and hdfs-native on this machine, with the user's Kerberos ticket."""
        return subprocess.run([TORCH_PYTHON, "-c", code, *args], capture_output=True, text=True, timeout=300,
                              env={**os.environ, "PYTHONPATH": HOOK, **self.env})

    def run_job(self, steps, name):
        done = spindle("submit", "--wait", "--json", self.write_spec(spec_of(self.run_uri, steps, 0), name),
                       env=self.env, timeout=900)
        outcome = json.loads(done.stdout) if done.stdout.strip() else {}
        self.assertEqual(done.returncode, 0, done.stderr[-3000:] + outcome.get("diagnostics", ""))
        self.assertEqual(outcome["final_status"], "SUCCEEDED", outcome)
        read = self.gateway("import fsspec, sys; print(fsspec.open(sys.argv[1], 'rb').open().read().decode())",
                            self.run_uri + "/training.json")
        self.assertEqual(read.returncode, 0, read.stderr[-3000:])
        return json.loads(read.stdout)

    def assert_tokens_alone(self, view):
        """The task held the nameservice's delegation token and no Kerberos ticket to use instead."""
        self.assertIn("ha-hdfs:" + configuration("dfs.nameservices"), view["token_services"], view)
        self.assertEqual(view["kerberos_ticket_cache"], "", view)

    def test_a_job_checkpoints_and_the_next_resumes_with_their_tokens_alone(self):
        tasks = ["chief:0", "worker:0", "worker:1"]
        first = self.run_job(100, "first.json")
        for view in self.assert_ranks(first, tasks, resumed_at_least=0):
            self.assertEqual(view["resumed_from"], 0, view)
            self.assert_tokens_alone(view)
        second = self.run_job(150, "second.json")
        for view in self.assert_ranks(second, tasks, resumed_at_least=100):
            self.assertEqual(view["resumed_from"], 100, view)
            self.assert_tokens_alone(view)
        listed = self.gateway("import fsspec, json, sys; print(json.dumps(fsspec.url_to_fs(sys.argv[1])[0].ls("
                              "sys.argv[1], detail=False)))", self.run_uri + "/checkpoints")
        self.assertEqual(listed.returncode, 0, listed.stderr[-3000:])
        names = sorted(os.path.basename(name) for name in json.loads(listed.stdout.strip().splitlines()[-1]))
        self.assertTrue(names and names[-1].startswith("step-000150-"), names)
        last = self.gateway_load(f"{self.run_uri}/checkpoints/{names[-1]}/model.pt", env=self.env)
        self.assertEqual(last["step"], 150, last)


if __name__ == "__main__":
    unittest.main()
