"""Sweeps on the local YARN of tests/yarn-cluster: `spindle sweep submit`
returns at once, and the sweep's controller, an application of its own,
submits each trial as an application, reads its metric from HDFS and stops
the trials its early-stopping rule cuts. What the controller decided is
checked against TensorBoard's own reading of every trial's event files, and
how many trials ran at once against the ResourceManager's application list,
polled while the sweep ran.

Run by ctest with SPINDLE_CLI, HADOOP_CONF_DIR, SPINDLE_SOURCE_DIR,
SPINDLE_STATE_DIR and SPINDLE_DATA_DIR set."""

import json
import math
import os
import shutil
import signal
import tempfile
import threading
import time
import unittest
import urllib.parse
import urllib.request
import uuid

from tensorboard.backend.event_processing import event_accumulator
from tensorboard.util import tensor_util

from jobs_on_yarn_test import (SOURCE, JobTest, cluster_user, configuration, process_table, spindle, webhdfs,
                               webhdfs_url)

ACTIVE = ("NEW", "NEW_SAVING", "SUBMITTED", "ACCEPTED", "RUNNING")


def resource_manager_apps(tag):
    """The ResourceManager's applications carrying `tag`, by id, from its REST API."""
    address = configuration("yarn.resourcemanager.webapp.address")
    query = urllib.parse.urlencode({"applicationTags": tag})
    with urllib.request.urlopen(f"http://{address}/ws/v1/cluster/apps?{query}", timeout=30) as answer:
        apps = (json.load(answer).get("apps") or {}).get("app") or []
    return {app["id"]: app for app in apps}


def download(path, into):
    """Copies an HDFS directory here through WebHDFS, for TensorBoard to read."""
    os.makedirs(into, exist_ok=True)
    for item in webhdfs(path)["FileStatuses"]["FileStatus"]:
        source = f"{path}/{item['pathSuffix']}"
        target = os.path.join(into, item["pathSuffix"])
        if item["type"] == "DIRECTORY":
            download(source, target)
        else:
            with urllib.request.urlopen(webhdfs_url(source, "OPEN"), timeout=60) as answer, open(target, "wb") as out:
                shutil.copyfileobj(answer, out)


def tensorboard_series(directory, tag):
    """(step, value) of a tag as TensorBoard reads the event files of one run."""
    events = event_accumulator.EventAccumulator(
        directory, size_guidance={event_accumulator.TENSORS: 0, event_accumulator.SCALARS: 0})
    events.Reload()
    if tag in events.Tags()["tensors"]:
        return sorted((event.step, float(tensor_util.make_ndarray(event.tensor_proto)))
                      for event in events.Tensors(tag))
    return sorted((event.step, event.value) for event in events.Scalars(tag))


def value_at(series, step):
    """What a rung compares: the value logged at the step, else the last one before it."""
    before = [value for logged, value in series if logged <= step]
    return before[-1] if before else None


class SweepSteps:
    """What a test of sweeps does, for a JobTest: write the wine sweep's spec, submit it, follow it."""

    def sweep_spec(self, example_overrides=None, search=None, tasks=None):
        """The wine sweep example, its output moved to a fresh HDFS directory, without shipping the
        venv the single-host clusters hand containers anyway."""
        validated = spindle("validate", "--json", os.path.join(SOURCE, "resources/examples/wine-sweep/wine_sweep.yaml"))
        self.assertEqual(validated.returncode, 0, validated.stderr)
        answer = json.loads(validated.stdout)
        spec = answer["spec"]
        spec.pop("python_env", None)
        self.output_path = f"/tmp/spindle-sweep-test-{uuid.uuid4().hex[:8]}"
        spec["output"] = "hdfs://" + self.output_path
        spec.update(example_overrides or {})
        if tasks:
            spec["tasks"] = tasks
        spec["sweep"] = {**answer["sweep"], **(search or {})}
        return self.write_spec(spec)

    def submit(self, path):
        started = time.time()
        submitted = spindle("sweep", "submit", "--json", path)
        self.assertEqual(submitted.returncode, 0, submitted.stderr)
        # It returns at once: the search goes on inside YARN.
        self.assertLess(time.time() - started, 60, submitted.stderr)
        return json.loads(submitted.stdout)["sweep_id"]

    def status(self, sweep):
        answer = spindle("sweep", "status", "--json", sweep)
        self.assertEqual(answer.returncode, 0, answer.stderr)
        return json.loads(answer.stdout)

    def wait_for_end(self, sweep, seconds, watch_tag=None):
        """Polls the sweep's status until it ends; meanwhile, with `watch_tag`, the ResourceManager's
        list of the sweep's active trials every half second, keeping the most seen at once."""
        deadline = time.time() + seconds
        self.most_active = 0
        self.active_seen = {}
        stop = threading.Event()

        def watch():
            while not stop.is_set():
                try:
                    active = {app_id for app_id, app in resource_manager_apps(watch_tag).items()
                              if app["state"] in ACTIVE}
                except OSError:
                    active = None
                if active is not None:
                    self.most_active = max(self.most_active, len(active))
                    self.active_seen[time.time()] = sorted(active)
                stop.wait(0.5)

        watcher = threading.Thread(target=watch, daemon=True) if watch_tag else None
        if watcher:
            watcher.start()
        try:
            while time.time() < deadline:
                status = self.status(sweep)
                if status["state"] != "running":
                    return status
                time.sleep(3)
        finally:
            stop.set()
            if watcher:
                watcher.join(timeout=10)
        self.fail(f"the sweep {sweep} did not end within {seconds} s: {self.status(sweep)}")


class Sweeps(SweepSteps, JobTest):

    def test_an_asha_sweep_of_eight_trials_three_at_a_time_stops_the_worst_and_finds_the_best(self):
        sweep = self.submit(self.sweep_spec())
        status = self.wait_for_end(sweep, 1500, watch_tag=f"spindle-sweep:{sweep}")
        self.assertEqual(status["state"], "succeeded", status)
        trials = status["trials"]
        self.assertEqual(len(trials), 8)
        self.assertEqual(status["metric"], "loss")

        # Never more than three trials at once, as the ResourceManager listed them, and the controller's count.
        self.assertGreaterEqual(len(self.active_seen), 20, "the ResourceManager's list was hardly read")
        self.assertLessEqual(self.most_active, 3, self.active_seen)
        self.assertGreaterEqual(self.most_active, 2, "the trials never overlapped")
        self.assertLessEqual(status["most_running"], 3)
        apps = resource_manager_apps(f"spindle-sweep:{sweep}")
        self.assertEqual(sorted(apps), sorted(trial["application_id"] for trial in trials))

        # Every trial's loss as TensorBoard reads its event files in HDFS.
        local = tempfile.mkdtemp(prefix="spindle-sweep-events-")
        self.addCleanup(shutil.rmtree, local, True)
        series = {}
        for trial in trials:
            self.assertIn(trial["state"], ("succeeded", "stopped by the sweep"), trial)
            directory = os.path.join(local, f"trial-{trial['trial']}")
            download(f"{self.output_path}/trial-{trial['trial']}/train", directory)
            series[trial["trial"]] = tensorboard_series(directory, "loss")
            self.assertTrue(series[trial["trial"]], f"trial {trial['trial']} logged no loss")
            self.assertEqual(trial["last"]["step"], series[trial["trial"]][-1][0],
                             "the controller did not read all the trial logged before it ended")
            best_step, best_value = min(series[trial["trial"]], key=lambda point: point[1])
            self.assertTrue(math.isclose(trial["best"]["value"], best_value, rel_tol=1e-6), (trial, best_value))

        # The best trial is the one whose logged loss really is lowest.
        truly_best = min(series, key=lambda index: min(value for _, value in series[index]))
        self.assertEqual(status["best_trial"], truly_best)
        best = spindle("sweep", "best", "--json", sweep)
        self.assertEqual(best.returncode, 0, best.stderr)
        self.assertEqual(json.loads(best.stdout)["trial"], truly_best)

        # A stopped trial was stopped at a rung where its logged value was worse than the cut, and the
        # cut is a value another trial really logged at that rung.
        stopped = [trial for trial in trials if trial["state"] == "stopped by the sweep"]
        self.assertTrue(stopped, "ASHA with a reduction factor of 2 stopped no trial of 8")
        for trial in stopped:
            verdict = trial["rungs"][-1]
            self.assertTrue(verdict["stop"], trial)
            logged = value_at(series[trial["trial"]], verdict["step"])
            self.assertTrue(math.isclose(logged, verdict["value"], rel_tol=1e-6), (trial, logged))
            self.assertGreater(verdict["value"], verdict["cut"], trial)
            others = [value_at(series[other], verdict["step"]) for other in series if other != trial["trial"]]
            self.assertTrue(any(value is not None and math.isclose(value, verdict["cut"], rel_tol=1e-6)
                                for value in others), (trial, others))
            self.assertIn("stopped by the sweep", apps[trial["application_id"]]["diagnostics"])
            # Its checkpoints stay.
            self.assertTrue(webhdfs(f"{self.output_path}/trial-{trial['trial']}/checkpoints")["FileStatuses"]["FileStatus"])

        # The history keeps the sweep and how each trial ended.
        listed = spindle("sweep", "list", "--json")
        self.assertEqual(listed.returncode, 0, listed.stderr)
        kept = {item["sweep_id"]: item for item in json.loads(listed.stdout)}
        self.assertEqual([t["state"] for t in kept[sweep]["trials"]], [t["state"] for t in trials])

    def test_a_failing_trial_is_recorded_with_its_diagnosis_and_the_sweep_goes_on(self):
        command = 'if [ "$MODE" = broken ]; then echo "no such dataset" >&2; exit 3; fi; echo "mode {{mode}}"'
        sweep = self.submit(self.sweep_spec(
            search={"method": "grid", "trials": 2, "parallel": 2, "parameters": {"mode": ["fine", "broken"]},
                    "early_stopping": {"rule": "none"}},
            tasks={"worker": {"memory": 256, "command": command}}))
        status = self.wait_for_end(sweep, 600)
        by_mode = {trial["parameters"]["mode"]: trial for trial in status["trials"]}
        self.assertEqual(by_mode["fine"]["state"], "succeeded", status)
        self.assertEqual(by_mode["broken"]["state"], "failed", status)
        self.assertIn("exit", by_mode["broken"]["why"])
        self.assertIn("no such dataset", by_mode["broken"]["why"])
        # The sweep itself ends well: one trial did.
        self.assertEqual(status["state"], "succeeded", status)
        self.assertIn("no trial logged loss", status["diagnostics"])

    def test_a_trial_stopped_by_its_owner_frees_its_slot_and_a_sweep_killed_midway_leaves_nothing_running(self):
        sweep = self.submit(self.sweep_spec(
            search={"method": "grid", "trials": 4, "parallel": 2, "parameters": {"nap": [301, 302, 303, 304]},
                    "early_stopping": {"rule": "none"}},
            tasks={"worker": {"memory": 256, "command": "sleep {{nap}}"}}))
        deadline = time.time() + 300
        while time.time() < deadline:
            running = [t for t in self.status(sweep)["trials"] if t["state"] == "running"]
            if len(running) == 2:
                break
            time.sleep(2)
        else:
            self.fail(f"two trials never ran at once: {self.status(sweep)}")
        # One trial stopped from the command line ends as the rule's would, and frees its slot.
        refused = spindle("sweep", "stop", sweep, "99")
        self.assertEqual(refused.returncode, 2, refused.stderr)
        self.assertIn(f"{sweep} has no trial 99; its trials are 0 to 3", refused.stderr)
        stopped = spindle("sweep", "stop", sweep, str(running[0]["trial"]))
        self.assertEqual(stopped.returncode, 0, stopped.stderr)
        self.assertIn("ends as stopped by the sweep", stopped.stdout)
        deadline = time.time() + 120
        while time.time() < deadline:
            trials = {t["trial"]: t for t in self.status(sweep)["trials"]}
            if sum(t["state"] in ("submitted", "running") for t in trials.values()) == 2 and \
                    trials[running[0]["trial"]]["state"] != "running":
                break
            time.sleep(2)
        else:
            self.fail(f"the stopped trial's slot was not taken: {self.status(sweep)}")
        self.assertEqual(trials[running[0]["trial"]]["state"], "stopped by the sweep", trials)
        self.assertTrue(trials[running[0]["trial"]]["why"].startswith("stopped by its owner"), trials)
        again = spindle("sweep", "stop", sweep, str(running[0]["trial"]))
        self.assertEqual(again.returncode, 2, again.stderr)
        self.assertIn("only a running trial can be stopped", again.stderr)

        killed = spindle("sweep", "kill", sweep)
        self.assertEqual(killed.returncode, 0, killed.stderr)
        active = {app_id: app["state"] for app_id, app in resource_manager_apps(f"spindle-sweep:{sweep}").items()
                  if app["state"] in ACTIVE}
        self.assertEqual(active, {})
        status = self.status(sweep)
        self.assertEqual(status["state"], "killed", status)
        self.assertEqual(sorted(t["state"] for t in status["trials"]), ["killed"] * 3 + ["stopped by the sweep"],
                         status)
        # Nothing of the sweep stays staged; its record stays.
        staging = webhdfs(f"/user/{cluster_user()}/.spindle")["FileStatuses"]["FileStatus"]
        self.assertNotIn(sweep, [item["pathSuffix"] for item in staging])

    def test_a_controller_killed_midway_goes_on_in_a_new_attempt_and_runs_each_trial_once(self):
        sweep = self.submit(self.sweep_spec(
            search={"method": "grid", "trials": 4, "parallel": 2, "parameters": {"nap": [20, 21, 22, 23]},
                    "early_stopping": {"rule": "none"}},
            tasks={"worker": {"memory": 256, "command": "sleep {{nap}}"}}))
        deadline = time.time() + 300
        while time.time() < deadline:
            if sum(t["state"] == "running" for t in self.status(sweep)["trials"]) == 2:
                break
            time.sleep(1)
        else:
            self.fail(f"two trials never ran at once: {self.status(sweep)}")
        # The controller's own process, as the node runs it: SIGKILL leaves it no word.
        container = "container_" + sweep.split("_", 1)[1] + "_01_000001"
        controllers = [pid for pid, argv, variables in process_table()
                       if argv[:2] == [b"./spindle-container", b"sweep"] and f"CONTAINER_ID={container}".encode()
                       in variables]
        self.assertEqual(len(controllers), 1, controllers)
        os.kill(controllers[0], signal.SIGKILL)

        status = self.wait_for_end(sweep, 600)
        self.assertEqual(status["state"], "succeeded", status)
        self.assertEqual([t["state"] for t in status["trials"]], ["succeeded"] * 4, status)
        # Each trial ran once: the ResourceManager knows four trials of the sweep, the ones recorded.
        apps = resource_manager_apps(f"spindle-sweep:{sweep}")
        self.assertEqual(sorted(apps), sorted(t["application_id"] for t in status["trials"]))
        address = configuration("yarn.resourcemanager.webapp.address")
        with urllib.request.urlopen(f"http://{address}/ws/v1/cluster/apps/{sweep}/appattempts", timeout=30) as answer:
            attempts = json.load(answer)["appAttempts"]["appAttempt"]
        self.assertEqual(len(attempts), 2, attempts)


if __name__ == "__main__":
    unittest.main()
