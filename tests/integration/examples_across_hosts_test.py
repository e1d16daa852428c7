"""The README's first job and every example, on the hosts of the local YARN of several hosts
(scripts/local-yarn --hosts 3), whose nodes share nothing but HDFS: each job's output is
`hdfs://...` and everything the tests read of it comes from HDFS.

- The README's "A first job on your own cluster" as written: its spec is the README's own text,
  and it is run with the README's commands, from the directory of train.yaml, with the shipped
  environment (`python_env: current`) on bare nodes.
- The multi-worker example and the three PyTorch ones, with their environments found on the
  nodes (the TensorFlow venv through PATH, PyTorch's as `python_env: node:DIR`, both where every
  host has them, as nodes built from one image would); the wine-quality example is run across
  these hosts by cluster_test.ChiefKilledAcrossHosts, the parameter-server one by
  bare_nodes_test.CurrentEnvironment.

Run by ctest (labels cluster, integration, and tensorflow or pytorch) like cluster_test.py."""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.error
import urllib.request

import hdfs_outputs
from jobs_on_yarn_test import SOURCE, assert_saved_model_serves, example_spec, spindle
from free_ports import free_port

README = os.path.join(SOURCE, "README.md")
FIRST_JOB = os.path.join(SOURCE, "resources/examples/first-job")
TF_BIN = os.path.dirname(sys.executable)
TORCH_ENV = os.path.dirname(os.path.dirname(os.environ.get("SPINDLE_TORCH_PYTHON", "/nonexistent/bin/python")))


def readme_spec():
    """The README's spec: the YAML block that starts with "# train.yaml"."""
    with open(README, encoding="utf-8") as readme:
        text = readme.read()
    blocks = re.findall(r"```yaml\n(# train\.yaml\n.*?)```", text, re.S)
    assert len(blocks) == 1, f"README.md has {len(blocks)} yaml blocks starting with '# train.yaml'"
    return blocks[0]


def hosts_of(status):
    return {task["node"].split(":")[0] for task in status["job"]["tasks"] if task.get("node")}


class HostsTest(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.mkdtemp(prefix="spindle-examples-hosts-")
        os.chmod(self.directory, 0o755)
        self.addCleanup(shutil.rmtree, self.directory, True)

    def submit_and_wait(self, spec, timeout=900, cwd=None, env=None):
        path = os.path.join(self.directory, "spec.json")
        with open(path, "w") as out:
            json.dump(spec, out)
        done = subprocess.run([os.environ["SPINDLE_CLI"], "submit", "--wait", "--json", path], capture_output=True,
                              text=True, timeout=timeout, cwd=cwd, env={**os.environ, **(env or {})})
        outcome = json.loads(done.stdout) if done.stdout.strip() else {}
        self.assertEqual(done.returncode, 0, done.stderr[-3000:] + outcome.get("diagnostics", ""))
        self.assertEqual(outcome["final_status"], "SUCCEEDED", outcome)
        return outcome

    def assert_environment_checked(self, output_path, tasks, outcome=None):
        """Each task's own check of its environment reached HDFS and found nothing wrong; a missing one
        is named, with what HDFS holds and the job's tasks."""
        for task in tasks:
            path = f"{output_path}/environment/{task.replace(':', '-')}.json"
            try:
                report = json.loads(hdfs_outputs.read(path))
            except urllib.error.HTTPError as error:
                held = sorted(hdfs_outputs.tree(output_path)) if error.code == 404 else []
                self.fail(f"{task}'s environment check is not in HDFS ({path}: {error.code}); HDFS holds {held}; "
                          f"the job's tasks: {(outcome or {}).get('job', {}).get('tasks')}")
            self.assertEqual(report["problems"], [], task)


class FirstJobFromTheReadme(HostsTest):
    OUTPUT = "/user/alice/runs/wine"

    def test_the_readme_first_job_runs_as_written_with_its_outputs_in_hdfs(self):
        written = readme_spec()
        with open(os.path.join(FIRST_JOB, "train.yaml"), encoding="utf-8") as shipped:
            self.assertEqual(written, shipped.read(), "the README's spec and resources/examples/first-job/train.yaml")
        self.assertIn(f"output: hdfs://{self.OUTPUT} ", written)
        # The README's directory: train.yaml and the train.py it names, nothing else.
        shutil.copy(os.path.join(FIRST_JOB, "train.py"), self.directory)
        with open(os.path.join(self.directory, "train.yaml"), "w", encoding="utf-8") as spec:
            spec.write(written)
        hdfs_outputs.remove(self.OUTPUT)
        self.addCleanup(hdfs_outputs.remove, self.OUTPUT)
        # As a user runs it: from an activated venv (python_env: current), in the spec's directory.
        env = {**os.environ, "VIRTUAL_ENV": sys.prefix, "PATH": f"{TF_BIN}:{os.environ['PATH']}"}

        def run(*args, timeout=120):
            return subprocess.run([os.environ["SPINDLE_CLI"], *args], capture_output=True, text=True,
                                  timeout=timeout, cwd=self.directory, env=env)

        validated = run("validate", "train.yaml")
        self.assertEqual(validated.returncode, 0, validated.stderr)
        self.assertEqual(validated.stderr.strip(), "", "the README's spec draws a warning")

        submit = subprocess.Popen([os.environ["SPINDLE_CLI"], "submit", "--wait", "train.yaml"], cwd=self.directory,
                                  env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        said, application = [], []

        def read_progress():
            for line in submit.stdout:
                said.append(line)
                # "submitted APPLICATION", once the job's record (its secret) is kept here.
                found = re.match(r"submitted (application_\d+_\d+)$", line.strip())
                if found and not application:
                    application.append(found.group(1))

        reader = threading.Thread(target=read_progress, daemon=True)
        reader.start()
        board = None
        try:
            deadline = time.monotonic() + 900
            while not application and time.monotonic() < deadline and submit.poll() is None:
                time.sleep(0.5)
            self.assertTrue(application, "submit never named the application: " + "".join(said)[-3000:])
            application_id = application[0]
            # Meanwhile, in another terminal: its TensorBoard, while the job runs.
            port = free_port()
            board = subprocess.Popen([os.environ["SPINDLE_CLI"], "tensorboard", application_id, "--port", str(port)],
                                     cwd=self.directory, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)
            url = board.stdout.readline().strip()
            self.assertTrue(url.startswith("http://"), f"spindle tensorboard printed no address: {url!r}, "
                            f"{board.stderr.read() if board.poll() is not None else ''}")
            tags, seen = {}, []
            while submit.poll() is None and "loss" not in tags.get("train", {}) and time.monotonic() < deadline:
                try:
                    with urllib.request.urlopen(url + "data/plugin/scalars/tags", timeout=60) as answer:
                        tags = json.load(answer)
                        seen.append(sorted(tags))
                except urllib.error.HTTPError as error:
                    # 502 until TensorBoard listens; 410 once the job has ended.
                    self.assertIn(error.code, (502, 410), error.read())
                    seen.append(error.code)
                time.sleep(1)
            print(f"TensorBoard's runs, second by second: {seen}")
            self.assertIn("loss", tags.get("train", {}), "TensorBoard never showed the chief's loss while the job ran")
            submit.wait(timeout=max(1, deadline - time.monotonic()))
            reader.join(timeout=10)
        finally:
            if submit.poll() is None:
                submit.kill()
                submit.wait()
            if board:
                board.kill()
                board.wait()
                board.stdout.close()
                board.stderr.close()
        self.assertEqual(submit.returncode, 0, "".join(said)[-3000:])

        logs = run("logs", application_id, "worker:1", "--follow", timeout=300)
        self.assertEqual(logs.returncode, 0, logs.stderr)
        self.assertIn("worker:1: 3 replicas in sync", logs.stdout)
        metrics = run("metrics", application_id, "--json")
        self.assertEqual(metrics.returncode, 0, metrics.stderr)
        losses = [point for point in json.loads(metrics.stdout) if point.get("tag") == "loss"]
        self.assertTrue(losses, metrics.stdout[:2000])

        # The outputs, in HDFS alone: the chief's checkpoints, event files, model and report.
        files = hdfs_outputs.tree(self.OUTPUT)
        self.assertIn("checkpoints/checkpoint", files)
        self.assertTrue(any(name.startswith("train/") and "tfevents" in name for name in files), sorted(files))
        self.assertEqual([name for name in files if "replica-" in name or "/.spindle-" in name], [], sorted(files))
        training = json.loads(hdfs_outputs.read(f"{self.OUTPUT}/training.json"))
        self.assertEqual(training["steps"], 3000, training)
        self.assertEqual(training["replicas"], 3, training)
        self.assertLess(training["last_loss"], training["first_loss"], training)
        assert_saved_model_serves(hdfs_outputs.download(f"{self.OUTPUT}/saved_model",
                                                        os.path.join(self.directory, "saved_model")))
        status = json.loads(run("status", application_id, "--json").stdout)
        self.assertGreaterEqual(len(hosts_of(status)), 2, status["job"]["tasks"])


class MultiWorkerAcrossHosts(HostsTest):
    def test_the_multi_worker_example_trains_on_three_hosts_into_hdfs(self):
        output_path, output = hdfs_outputs.fresh_output()
        self.addCleanup(hdfs_outputs.remove, output_path)
        spec = example_spec("multi-worker/multi_worker.yaml", output)
        spec["tasks"]["worker"]["instances"] = 3
        spec["tasks"]["worker"]["memory"] = "2560 MiB"  # one a host
        spec["env"]["PATH"] = f"{TF_BIN}:/usr/bin:/bin"
        outcome = self.submit_and_wait(spec)
        workers = [task["task"] for task in outcome["job"]["tasks"] if task["task"].startswith("worker:")]
        self.assertEqual(len(workers), 3, outcome["job"]["tasks"])
        self.assertEqual(len(hosts_of(outcome)), 3, outcome["job"]["tasks"])
        self.assert_environment_checked(output_path, workers)
        training = json.loads(hdfs_outputs.read(f"{output_path}/training.json"))
        self.assertLess(training["last_loss"], training["first_loss"], training)
        self.assertEqual(training["replicas"], 3, training)
        # Each worker's own mark, written on its own host, reached HDFS.
        for task in workers:
            mark = json.loads(hdfs_outputs.read(f"{output_path}/workers/{task.replace(':', '-')}.json"))
            self.assertEqual(mark["steps"], training["steps"], task)
        files = hdfs_outputs.tree(output_path)
        self.assertIn("checkpoints/checkpoint", files)
        self.assertEqual([name for name in files if "replica-" in name], [], "a worker's scratch copy reached HDFS")


class PyTorchAcrossHosts(HostsTest):
    def run_example(self, example, tasks, processes):
        output_path, output = hdfs_outputs.fresh_output()
        self.addCleanup(hdfs_outputs.remove, output_path)
        spec = example_spec(example, output)
        spec["python_env"] = "node:" + TORCH_ENV
        # One container a host (each has 4096 MB): the group must meet across hosts, wherever the
        # scheduler would have put two containers of 2 GiB.
        for task in ("chief", "worker"):
            spec["tasks"][task]["memory"] = "2560 MiB"
        outcome = self.submit_and_wait(spec)
        self.assertGreaterEqual(len(hosts_of(outcome)), 2, outcome["job"]["tasks"])
        self.assert_environment_checked(output_path, tasks, outcome)
        files = hdfs_outputs.tree(output_path)
        # Only rank 0 writes its checkpoint, the model and its report, beside each task's check.
        self.assertEqual(sorted(name for name in files if not name.startswith("environment/")),
                         ["checkpoint.pt", "model.pt", "training.json"])
        self.assertGreater(files["model.pt"], 0)
        training = json.loads(hdfs_outputs.read(f"{output_path}/training.json"))
        self.assertLess(training["last_loss"], training["first_loss"], training)
        world = len(tasks) * processes
        self.assertEqual(training["world_size"], world)
        self.assertEqual(sorted(view["rank"] for view in training["ranks"]), list(range(world)))
        for view in training["ranks"]:
            self.assertEqual(view["task"], tasks[view["rank"] // processes], view)
            self.assertEqual(view["master"], training["ranks"][0]["master"], view)

    def test_ddp_over_gloo_chief_and_two_workers(self):
        self.run_example("pytorch-ddp/pytorch_ddp.yaml", ["chief:0", "worker:0", "worker:1"], processes=1)

    def test_torchrun_two_containers_of_two_processes(self):
        self.run_example("pytorch-ddp/torchrun.yaml", ["chief:0", "worker:0"], processes=2)

    def test_two_containers_of_two_processes_started_by_spindle(self):
        self.run_example("pytorch-ddp/processes.yaml", ["chief:0", "worker:0"], processes=2)


if __name__ == "__main__":
    unittest.main()
