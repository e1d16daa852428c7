"""Faults on the local YARN of tests/yarn-cluster, with real TensorFlow jobs:
what Spindle does when a task's executor goes silent, a node is lost, the
ResourceManager or the application master restarts, containers are preempted,
and many jobs at once from one client. Each case checks the final state, the diagnostics, the
history and that nothing of the job is left running.

Run by ctest (label faults, one test per case) with SPINDLE_CLI,
HADOOP_CONF_DIR, SPINDLE_SOURCE_DIR, SPINDLE_STATE_DIR and SPINDLE_DATA_DIR set."""

import concurrent.futures
import json
import os
import re
import signal
import subprocess
import time
import unittest
import urllib.request

from jobs_on_yarn_test import (SOURCE, JobTest, configuration, example_spec, process_table, spindle,
                               wait_for_no_processes)

LOCAL_YARN = os.path.join(SOURCE, "scripts/local-yarn")


def local_yarn(*args):
    """A control of the fault-mode local YARN (SPINDLE_LOCAL_YARN_DIR names it)."""
    done = subprocess.run([LOCAL_YARN, "--faults", *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def node_indexes():
    """{"host:port": index} of the fault-mode cluster's NodeManagers."""
    found = {}
    for line in local_yarn("status").splitlines():
        words = line.split()
        if len(words) >= 3 and words[0] == "node":
            found[words[2]] = int(words[1])
    return found


def am_node(application_id):
    url = f"http://{configuration('yarn.resourcemanager.webapp.address')}/ws/v1/cluster/apps/{application_id}/appattempts"
    with urllib.request.urlopen(url, timeout=30) as answer:
        attempts = json.load(answer)["appAttempts"]["appAttempt"]
    return attempts[-1]["nodeId"]


def container_processes(application_id, mode):
    """(pid, words, attempt) of each `spindle-container MODE` process of the job's containers: the
    container id in the environment the NodeManager gave it names the application and attempt."""
    wanted = application_id[len("application_"):]
    for pid, words, variables in process_table():
        if not (words and words[0].endswith(b"spindle-container") and mode.encode() in words):
            continue
        # container_[e<epoch>_]<cluster timestamp>_<application>_<attempt>_<number>
        for variable in variables:
            found = re.fullmatch(rb"CONTAINER_ID=container_(?:e\d+_)?(\d+_\d+)_(\d+)_\d+", variable)
            if found and found.group(1).decode() == wanted:
                yield pid, words, int(found.group(2))


def executor_of(application_id, task):
    """The pid of the task executor running `task` of the job."""
    return next((pid for pid, words, _ in container_processes(application_id, "task") if task.encode() in words), None)


def status_of(application_id):
    shown = spindle("status", application_id, "--json")
    if shown.returncode != 0:
        return None
    return json.loads(shown.stdout)


def wait_for_task_phase(application_id, task, phase, seconds=180):
    deadline = time.time() + seconds
    while time.time() < deadline:
        status = status_of(application_id)
        if status and status.get("job"):
            phases = {t["task"]: t["phase"] for t in status["job"]["tasks"]}
            if phases.get(task) == phase:
                return True
        time.sleep(1)
    return False


class SilentExecutor(JobTest):
    def test_a_stopped_executor_is_declared_lost_and_its_task_restarted(self):
        output = os.path.join(self.directory, "output")
        spec = example_spec("parameter-server/parameter_server.yaml", output, check_environment=False)
        spec["heartbeat_timeout"] = 15
        # Long enough that the coordinator, which goes on with the other worker, is still training
        # when worker:1 is declared lost (up to 20 s after the stop).
        spec["env"]["TRAIN_STEPS"] = "6000"
        del spec["tasks"]["tensorboard"]
        submitted = spindle("submit", "--json", self.write_spec(spec))
        self.assertEqual(submitted.returncode, 0, submitted.stderr)
        application = json.loads(submitted.stdout)["application_id"]

        self.assertTrue(wait_for_task_phase(application, "worker:1", "running"), status_of(application))
        # Mid-training: once the chief saved a checkpoint, its coordinator reached every worker. Stopped
        # earlier, while the coordinator still connects to it, worker:1 leaves the chief waiting in
        # TensorFlow's own start, which no heartbeat sees.
        checkpoint = os.path.join(output, "checkpoints", "checkpoint")
        deadline = time.time() + 180
        while not os.path.exists(checkpoint) and time.time() < deadline:
            time.sleep(0.5)
        self.assertTrue(os.path.exists(checkpoint), f"no checkpoint in 180 s: {status_of(application)}")
        executor = executor_of(application, "worker:1")
        self.assertIsNotNone(executor, "no executor process for worker:1")
        stopped_at = time.time()
        os.kill(executor, signal.SIGSTOP)

        watched = spindle("watch", application, timeout=900)
        self.assertEqual(watched.returncode, 0, watched.stdout + watched.stderr)
        record = json.loads(spindle("history", application, "--json").stdout)
        self.assertEqual(record["state"], "succeeded", record["diagnostics"])
        lost = [e for e in record["events"] if e["kind"] == "lost" and e["task"] == "worker:1"]
        self.assertEqual(len(lost), 1, record["events"])
        # Lost heartbeat_timeout (15 s) after its last heartbeat, which came at most one beat (5 s)
        # before the stop.
        self.assertGreaterEqual(lost[0]["time_ms"] / 1000, stopped_at + 15 - 5)
        attempts = [a for a in record["attempts"] if a["task"] == "worker:1"]
        self.assertEqual([a["attempt"] for a in attempts], [0, 1], attempts)
        self.assertIn("no heartbeat for 15 s", attempts[0]["exit_description"])
        self.assertNotEqual(attempts[0]["container"], attempts[1]["container"])
        # ParameterServerStrategy's coordinator takes the new worker in: nothing else was restarted.
        others = [a for a in record["attempts"] if a["task"] != "worker:1"]
        self.assertEqual(sorted(a["task"] for a in others), ["chief:0", "evaluator:0", "ps:0", "worker:0"], others)
        self.assertEqual(wait_for_no_processes(application), [], "processes of the job are still running")


def submit_json(test, spec):
    submitted = spindle("submit", "--json", test.write_spec(spec))
    test.assertEqual(submitted.returncode, 0, submitted.stderr)
    return json.loads(submitted.stdout)["application_id"]


def running_tasks(application_id):
    status = status_of(application_id)
    if not status or not status.get("job"):
        return {}
    return {t["task"]: t for t in status["job"]["tasks"] if t["phase"] == "running"}


def wine_spec(test, steps):
    spec = example_spec("wine-quality/wine_quality.yaml", os.path.join(test.directory, "output"),
                        check_environment=False)
    spec["env"]["TRAIN_STEPS"] = str(steps)
    return spec


def wait_for_running(test, application, count, seconds=180):
    """The job's running tasks once `count` of them run."""
    deadline = time.time() + seconds
    tasks = {}
    while time.time() < deadline and len(tasks) < count:
        tasks = running_tasks(application)
        time.sleep(1)
    test.assertEqual(len(tasks), count, status_of(application))
    return tasks


class NodeLoss(JobTest):
    def test_tasks_of_a_stopped_node_restart_on_another_without_spending_restarts(self):
        # The scheduler may put every task beside the application master, whose node
        # cannot be the one lost here: then the job is killed and submitted again.
        for _ in range(3):
            application = submit_json(self, wine_spec(self, 3000))
            tasks = wait_for_running(self, application, 3)
            master = am_node(application)
            victims = [t for t in tasks.values() if t["node"] != master]
            if victims:
                break
            spindle("kill", application)
        self.assertTrue(victims, f"three times every task ran beside the application master on {master}")
        indexes = node_indexes()
        node = victims[0]["node"]
        moved = sorted(t["task"] for t in tasks.values() if t["node"] == node)
        local_yarn("stop-node", str(indexes[node]))
        try:
            watched = spindle("watch", application, timeout=900)
        finally:
            local_yarn("start-node", str(indexes[node]))
        self.assertEqual(watched.returncode, 0, watched.stdout + watched.stderr)
        record = json.loads(spindle("history", application, "--json").stdout)
        self.assertEqual(record["state"], "succeeded", record["diagnostics"])
        final = {t["task"]: t for t in status_of(application)["job"]["tasks"]}
        for task in moved:
            self.assertEqual(final[task]["lost"], 1, final[task])
            self.assertEqual(final[task]["restarts"], 0, final[task])
            earlier = final[task]["earlier_attempts"][0]
            self.assertEqual(earlier["exit_code"], -100, earlier)
            self.assertNotEqual(final[task]["node"], node, final[task])
        self.assertEqual(wait_for_no_processes(application), [])


class ResourceManagerRestart(JobTest):
    def test_the_job_goes_on_through_a_work_preserving_restart(self):
        application = submit_json(self, wine_spec(self, 3000))
        containers = {name: task["container"] for name, task in wait_for_running(self, application, 3).items()}
        local_yarn("restart-rm", "--down", "5")
        watched = spindle("watch", application, timeout=900)
        self.assertEqual(watched.returncode, 0, watched.stdout + watched.stderr)
        record = json.loads(spindle("history", application, "--json").stdout)
        self.assertEqual(record["state"], "succeeded", record["diagnostics"])
        self.assertTrue(any("registered again" in e["message"] for e in record["events"]), record["events"])
        final = {t["task"]: t for t in status_of(application)["job"]["tasks"]}
        for task, container in containers.items():
            self.assertEqual(final[task]["container"], container, f"{task} was restarted")
            self.assertEqual(final[task]["earlier_attempts"], [])
        self.assertEqual(wait_for_no_processes(application), [])


def master_of(application_id, attempt=1):
    """The pid of the job's application master (`spindle-container master`) of that attempt."""
    return next((pid for pid, _, found in container_processes(application_id, "master") if found == attempt), None)


class MasterRestart(JobTest):
    def test_a_new_master_attempt_adopts_the_running_tasks(self):
        # Long enough that every task reattaches before the chief is done.
        spec = wine_spec(self, 20000)
        spec["max_attempts"] = 2
        application = submit_json(self, spec)
        tasks = wait_for_running(self, application, 3)
        containers = {name: task["container"] for name, task in tasks.items()}
        master = master_of(application)
        self.assertIsNotNone(master, "no application master process")
        os.kill(master, signal.SIGKILL)

        watched = spindle("watch", application, timeout=900)
        self.assertEqual(watched.returncode, 0, watched.stdout + watched.stderr)
        record = json.loads(spindle("history", application, "--json").stdout)
        self.assertEqual(record["state"], "succeeded", record["diagnostics"])
        masters = record["master_attempts"]
        self.assertEqual([m["attempt"] for m in masters], [1, 2], masters)
        self.assertEqual(masters[0]["state"], "FAILED", masters)
        self.assertNotEqual(masters[0]["container"], masters[1]["container"])
        reattached = sorted(e["task"] for e in record["events"] if e["kind"] == "reattached")
        self.assertEqual(reattached, sorted(containers), record["events"])
        # No healthy task was started again: one container each, the first.
        for task, container in containers.items():
            attempts = [a for a in record["attempts"] if a["task"] == task]
            self.assertEqual([a["container"] for a in attempts], [container], attempts)
        final = {t["task"]: t for t in status_of(application)["job"]["tasks"]}
        for task in containers:
            self.assertEqual(final[task]["restarts"], 0, final[task])
            self.assertEqual(final[task]["earlier_attempts"], [], final[task])
        self.assertEqual(wait_for_no_processes(application), [])


class NodeLossWithoutRoom(JobTest):
    def test_a_task_no_other_node_can_take_fails_the_job_saying_why(self):
        spec = wine_spec(self, 100000)
        spec["queue"] = "ml-gpu"
        spec["replacement_timeout"] = 20
        spec["tasks"]["chief"]["node_label"] = "gpu"
        del spec["tasks"]["tensorboard"]
        application = submit_json(self, spec)
        deadline = time.time() + 180
        while time.time() < deadline and "chief:0" not in running_tasks(application):
            time.sleep(1)
        chief = running_tasks(application).get("chief:0")
        self.assertIsNotNone(chief, status_of(application))
        gpu_node = node_indexes()[chief["node"]]
        self.assertEqual(gpu_node, 2, chief)
        local_yarn("stop-node", "2")
        try:
            watched = spindle("watch", application, timeout=600)
        finally:
            local_yarn("start-node", "2")
        self.assertNotEqual(watched.returncode, 0, watched.stdout)
        record = json.loads(spindle("history", application, "--json").stdout)
        self.assertEqual(record["state"], "failed", record)
        self.assertIn("chief:0 lost its container with node " + chief["node"], record["diagnostics"])
        self.assertIn("in 20 s no other node of queue 'ml-gpu' could take it", record["diagnostics"])
        self.assertIn("on a node labelled 'gpu'", record["diagnostics"])
        final = {t["task"]: t for t in status_of(application)["job"]["tasks"]}
        self.assertEqual(final["chief:0"]["restarts"], 0, final["chief:0"])
        self.assertEqual(wait_for_no_processes(application), [])


class Preemption(JobTest):
    def test_preempted_containers_restart_without_spending_restarts(self):
        # Real preemption by the CapacityScheduler: `default` fills the two unlabelled nodes, then
        # `urgent` asks for its guaranteed share. The tasks are TensorFlow processes that wait.
        def job(name, queue, instances, seconds):
            command = f"python -c 'import time, tensorflow as tf; tf.constant(1); time.sleep({seconds})'"
            # generic: TensorFlow's workers without a ps would restart as one collective group.
            return {"name": name, "queue": queue, "framework": "generic", "application_master": {"memory": "256 MiB"},
                    "tasks": {"worker": {"instances": instances, "memory": "3 GiB", "command": command}}}
        filler = submit_json(self, job("filler", "default", 7, 40))
        deadline = time.time() + 240
        while time.time() < deadline and len(running_tasks(filler)) < 7:
            time.sleep(1)
        self.assertEqual(len(running_tasks(filler)), 7, status_of(filler))
        urgent = submit_json(self, job("urgent", "urgent", 2, 5))
        for application in (urgent, filler):
            watched = spindle("watch", application, timeout=900)
            self.assertEqual(watched.returncode, 0, watched.stdout + watched.stderr)
        final = status_of(filler)["job"]["tasks"]
        preempted = [t for t in final if any(a["exit_code"] == -102 for a in t["earlier_attempts"])]
        self.assertTrue(preempted, final)
        for task in preempted:
            self.assertEqual(task["restarts"], 0, task)
            self.assertGreaterEqual(task["lost"], 1, task)
        for application in (urgent, filler):
            self.assertEqual(json.loads(spindle("history", application, "--json").stdout)["state"], "succeeded")
            self.assertEqual(wait_for_no_processes(application), [])


class ManyJobs(JobTest):
    def test_twenty_jobs_at_once_all_end_right_and_are_recorded(self):
        # Even jobs succeed, odd ones fail with exit 7: each must end the way its command says.
        def submit(index):
            spec = {"name": f"load-{index}", "framework": "tensorflow",
                    "application_master": {"memory": "256 MiB"},
                    "tasks": {"worker": {"instances": 1, "memory": "256 MiB",
                                         "command": "python -c 'import tensorflow' && exit " +
                                                    ("0" if index % 2 == 0 else "7")}}}
            path = os.path.join(self.directory, f"load-{index}.json")
            with open(path, "w") as out:
                json.dump(spec, out)
            result = spindle("submit", "--json", path, timeout=300)
            return index, result

        with concurrent.futures.ThreadPoolExecutor(max_workers=20) as pool:
            submitted = list(pool.map(submit, range(20)))
        applications = {}
        for index, result in submitted:
            self.assertEqual(result.returncode, 0, f"job {index}: {result.stderr}")
            applications[json.loads(result.stdout)["application_id"]] = index

        deadline = time.time() + 900
        pending = set(applications)
        while pending and time.time() < deadline:
            listed = {job["application_id"]: job for job in json.loads(spindle("list", "--all", "--json").stdout)}
            pending = {app for app in pending if listed.get(app, {}).get("state") not in ("succeeded", "failed",
                                                                                          "killed")}
            time.sleep(3)
        self.assertEqual(pending, set(), "jobs still not ended")
        for application, index in applications.items():
            record = json.loads(spindle("history", application, "--json").stdout)
            self.assertEqual(record["state"], "succeeded" if index % 2 == 0 else "failed", record)
            self.assertEqual(record["name"], f"load-{index}")
            if index % 2:
                self.assertIn("worker:0 failed: exited with 7", record["diagnostics"])
            self.assertEqual(wait_for_no_processes(application), [])


if __name__ == "__main__":
    unittest.main()
