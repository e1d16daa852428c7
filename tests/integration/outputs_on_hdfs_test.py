"""Jobs whose output is in HDFS (`output: hdfs://...`): each task writes a
directory of its own node, which the task executor keeps in HDFS, restores
into a task that starts again, and fills with what the other tasks wrote.
Nothing here reads a task's files except through HDFS.

Run by ctest (one test per case) with SPINDLE_CLI, HADOOP_CONF_DIR and
SPINDLE_SOURCE_DIR set."""

import json
import os
import unittest

import hdfs_outputs
from jobs_on_yarn_test import JobTest, applications, assert_saved_model_serves, example_spec, spindle


class OutputsOnHdfs(JobTest):
    def setUp(self):
        super().setUp()
        self.output_path, self.output = hdfs_outputs.fresh_output()

    def tearDown(self):
        hdfs_outputs.remove(self.output_path)
        super().tearDown()

    def assert_no_partial_files(self, files):
        partial = [name for name in files if os.path.basename(name).startswith(".spindle-")]
        self.assertEqual(partial, [], "temporary copies were left in HDFS")

    def test_wine_quality_trains_evaluates_and_charts_from_hdfs(self):
        spec = example_spec("wine-quality/wine_quality.yaml", self.output)
        result, outcome = self.submit_and_wait(self.write_spec(spec))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(outcome["final_status"], "SUCCEEDED", outcome)
        files = hdfs_outputs.tree(self.output_path)
        self.assert_no_partial_files(files)
        for task in ("chief-0", "evaluator-0"):
            report = json.loads(hdfs_outputs.read(f"{self.output_path}/environment/{task}.json"))
            self.assertEqual(report["problems"], [], task)
        training = json.loads(hdfs_outputs.read(f"{self.output_path}/training.json"))
        self.assertLess(training["last_loss"], training["first_loss"], training)
        self.assertIn("checkpoints/checkpoint", files)
        assert_saved_model_serves(hdfs_outputs.download(f"{self.output_path}/saved_model",
                                                        os.path.join(self.directory, "saved_model")))
        # The evaluator scored checkpoints it could only have read through HDFS.
        self.assertTrue(any(name.startswith("eval/") and "tfevents" in name and size > 0
                            for name, size in files.items()), sorted(files))
        # The submitting side reads the scalars from HDFS.
        metrics = spindle("metrics", outcome["application_id"], "--json")
        self.assertEqual(metrics.returncode, 0, metrics.stderr)
        self.assertTrue(any(point["source"] == "tfevents" for point in json.loads(metrics.stdout)), metrics.stdout)
        self.assert_left_nothing(outcome)

    def test_a_restarted_task_resumes_from_what_it_wrote_before(self):
        # A plain script: it counts to 20 in a file it replaces as it goes, from
        # where the file says it stopped; its first attempt fails at 10.
        counter = (
            "import json, os, sys, time\n"
            "out = os.environ['SPINDLE_OUTPUT']\n"
            "assert os.environ['SPINDLE_OUTPUT_URI'].startswith('hdfs://'), os.environ['SPINDLE_OUTPUT_URI']\n"
            "path = os.path.join(out, 'state', 'step.json')\n"
            "step = json.load(open(path))['step'] if os.path.exists(path) else 0\n"
            "attempt = int(os.environ['SPINDLE_ATTEMPT'])\n"
            "json.dump({'attempt': attempt, 'from': step}, open(os.path.join(out, f'start-{attempt}.json'), 'w'))\n"
            "while step < 20:\n"
            "    step += 1\n"
            "    os.makedirs(os.path.dirname(path), exist_ok=True)\n"
            "    with open(path + '.tmp', 'w') as f: json.dump({'step': step}, f)\n"
            "    os.replace(path + '.tmp', path)\n"
            "    if attempt == 0 and step == 10: sys.exit(1)\n"
            "    time.sleep(0.05)\n")
        script = os.path.join(self.directory, "count.py")
        with open(script, "w") as out:
            out.write(counter)
        spec = {"name": "resumes-from-hdfs", "output": self.output, "files": {"count.py": script},
                "tasks": {"chief": {"memory": "256 MiB", "max_restarts": 1, "command": "python3 count.py"}}}
        result, outcome = self.submit_and_wait(self.write_spec(spec))
        self.assertEqual(result.returncode, 0, result.stderr)
        tasks = {task["task"]: task for task in outcome["job"]["tasks"]}
        self.assertEqual(tasks["chief:0"]["restarts"], 1)
        self.assertEqual(json.loads(hdfs_outputs.read(f"{self.output_path}/start-0.json")), {"attempt": 0, "from": 0})
        self.assertEqual(json.loads(hdfs_outputs.read(f"{self.output_path}/start-1.json")), {"attempt": 1, "from": 10})
        self.assertEqual(json.loads(hdfs_outputs.read(f"{self.output_path}/state/step.json")), {"step": 20})
        files = hdfs_outputs.tree(self.output_path)
        self.assert_no_partial_files(files)
        self.assertNotIn("state/step.json.tmp", files)
        self.assert_left_nothing(outcome)

    def test_a_task_still_running_when_the_chief_succeeds_has_what_it_wrote_copied(self):
        # The worker never ends by itself: it is stopped when the chief's success
        # ends the job, and writes its last file (8 MiB, more than a copy can
        # move in the 250 ms a NodeManager leaves between SIGTERM and SIGKILL)
        # only then.
        worker = (
            "import os, signal, sys, time\n"
            "out = os.environ['SPINDLE_OUTPUT']\n"
            "def stop(number, frame):\n"
            "    with open(os.path.join(out, 'last-words.bin'), 'wb') as f: f.write(os.urandom(8 << 20))\n"
            "    with open(os.path.join(out, 'last-words.txt'), 'w') as f: f.write(f'signal {number}')\n"
            "    sys.exit(0)\n"
            "signal.signal(signal.SIGTERM, stop)\n"
            "open(os.path.join(out, 'worker-started'), 'w').close()\n"
            "while True: time.sleep(1)\n")
        script = os.path.join(self.directory, "worker.py")
        with open(script, "w") as out:
            out.write(worker)
        spec = {"name": "stopped-at-the-end", "output": self.output, "files": {"worker.py": script},
                "tasks": {"chief": {"memory": "256 MiB", "command": "sleep 2"},
                          "worker": {"memory": "256 MiB", "command": "python3 worker.py"}}}
        result, outcome = self.submit_and_wait(self.write_spec(spec))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(outcome["final_status"], "SUCCEEDED", outcome)
        tasks = {task["task"]: task for task in outcome["job"]["tasks"]}
        self.assertEqual(tasks["worker:0"]["phase"], "stopped", tasks["worker:0"])
        files = hdfs_outputs.tree(self.output_path)
        self.assert_no_partial_files(files)
        self.assertEqual(files.get("last-words.bin"), 8 << 20, sorted(files))
        self.assertEqual(hdfs_outputs.read(f"{self.output_path}/last-words.txt"), b"signal 15")
        self.assert_left_nothing(outcome)

    def test_an_output_that_is_a_file_is_refused_before_anything_starts(self):
        hdfs_outputs.put(self.output_path, b"not a directory\n")
        spec = {"name": "output-is-a-file", "output": self.output,
                "tasks": {"chief": {"memory": "256 MiB", "command": "true"}}}
        before = set(applications())
        result, _ = self.submit_and_wait(self.write_spec(spec))
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn(f"the job's output {self.output} cannot be written", result.stderr)
        self.assertIn("not a directory", result.stderr)
        self.assertEqual(set(applications()) - before, set(), "a job was recorded")
        self.assertEqual(self.staged_while_running - set(self.staged_before), set(), "something was staged")


if __name__ == "__main__":
    unittest.main()
