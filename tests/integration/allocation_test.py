"""Jobs that cannot be placed whole never hold their queue, on the plain local YARN
of tests/yarn-cluster: its node without a label has 12 GiB, and a job that holds
8 GiB of it leaves room for only part of another job's gang.

Run by ctest (one test per case) with SPINDLE_CLI, HADOOP_CONF_DIR and
SPINDLE_SOURCE_DIR set."""

import json
import time
import unittest
import urllib.request

from jobs_on_yarn_test import JobTest, configuration, spindle

SMALL_MASTER = {"memory": "256 MiB"}


def resource_manager_view(application_id):
    """The ResourceManager's own record of an application: its state and the containers it holds."""
    address = configuration("yarn.resourcemanager.webapp.address")
    with urllib.request.urlopen(f"http://{address}/ws/v1/cluster/apps/{application_id}", timeout=30) as answer:
        return json.load(answer)["app"]


class AllocationTimeout(JobTest):
    def submit(self, spec):
        submitted = spindle("submit", "--json", self.write_spec(spec))
        self.assertEqual(submitted.returncode, 0, submitted.stderr)
        application = json.loads(submitted.stdout)["application_id"]
        self.addCleanup(spindle, "kill", application)
        return application

    def status(self, application):
        answer = spindle("status", "--json", application)
        self.assertEqual(answer.returncode, 0, answer.stderr)
        return json.loads(answer.stdout)

    def wait_until(self, application, what, holds, seconds):
        """Polls the job's status until `holds(status)`; fails saying `what` it waited for."""
        deadline = time.time() + seconds
        status = None
        while time.time() < deadline:
            status = self.status(application)
            if holds(status):
                return status
            time.sleep(0.5)
        self.fail(f"{application}: no {what} within {seconds} s; last status: {json.dumps(status)}")

    def hold_eight_gib(self):
        holder = self.submit({"name": "holds-the-room", "application_master": SMALL_MASTER,
                              "tasks": {"worker": {"memory": "8 GiB", "command": "sleep 600"}}})
        self.wait_until(holder, "running worker", lambda status: status["job"] and all(
            task["phase"] == "running" for task in status["job"]["tasks"]), 120)
        return holder

    def test_a_gang_that_cannot_be_completed_gives_everything_back_fails_and_the_queue_moves_on(self):
        self.hold_eight_gib()
        # Room for the master and one worker of two: the second can never come while the holder runs.
        gang = self.submit({"name": "incomplete-gang", "allocation_timeout": "15s", "application_master": SMALL_MASTER,
                            "tasks": {"worker": {"instances": 2, "memory": "2 GiB", "command": "sleep 600"}}})
        waiting = self.wait_until(gang, "word of the wait", lambda status: status["job"] and status["job"]["waiting_for"],
                                  120)
        self.assertRegex(waiting["job"]["waiting_for"],
                         r"^waits for containers: 1 of the job's 2 containers \(1 of 2 worker\) granted after \S+; "
                         r"it gives them all back at 15s \(allocation_timeout\)$")
        # A job behind it needs the room it holds.
        behind = self.submit({"name": "behind-the-gang", "application_master": SMALL_MASTER,
                              "tasks": {"worker": {"memory": "2 GiB", "command": "true"}}})
        ended = self.wait_until(gang, "end", lambda status: status["state"] == "FINISHED", 120)
        self.assertEqual(ended["final_status"], "FAILED", ended)
        self.assertIn("only 1 of the job's 2 containers (1 of 2 worker) were granted in 15s (allocation_timeout), so "
                      "the job gave back every container it held rather than block its queue", ended["diagnostics"])
        # The bound, from the gang's first word of waiting to its end: the timeout and the master's stopping.
        gang_report = resource_manager_view(gang)
        self.assertLessEqual((gang_report["finishedTime"] - gang_report["startedTime"]) / 1000, 15 + 45, gang_report)
        # The ResourceManager holds the master's container until its node reports it gone.
        deadline = time.time() + 30
        while resource_manager_view(gang)["runningContainers"] > 0 and time.time() < deadline:
            time.sleep(0.5)
        self.assertLessEqual(resource_manager_view(gang)["runningContainers"], 0, resource_manager_view(gang))
        finished = self.wait_until(behind, "end", lambda status: status["state"] == "FINISHED", 180)
        self.assertEqual(finished["final_status"], "SUCCEEDED", finished)

    def test_with_retry_the_gang_waits_holding_nothing_and_runs_once_there_is_room(self):
        holder = self.hold_eight_gib()
        gang = self.submit({"name": "patient-gang", "allocation_timeout": "15s", "on_allocation_timeout": "retry",
                            "application_master": SMALL_MASTER,
                            "tasks": {"worker": {"instances": 2, "memory": "2 GiB", "command": "true"}}})
        holding_nothing = self.wait_until(
            gang, "wait holding nothing",
            lambda status: status["job"] and status["job"]["waiting_for"].startswith("holds no container"), 120)
        self.assertEqual(holding_nothing["job"]["waiting_for"],
                         "holds no container and waits until queue default has room for the whole job (4096 MiB, "
                         "2 vcores)")
        # The ResourceManager agrees: the master's container alone, once the given-back worker is gone.
        deadline = time.time() + 30
        while resource_manager_view(gang)["runningContainers"] != 1 and time.time() < deadline:
            time.sleep(0.5)
        self.assertEqual(resource_manager_view(gang)["runningContainers"], 1, resource_manager_view(gang))
        time.sleep(5)  # it keeps holding nothing while there is no room
        self.assertEqual(resource_manager_view(gang)["runningContainers"], 1, resource_manager_view(gang))
        killed = spindle("kill", holder)
        self.assertEqual(killed.returncode, 0, killed.stderr)
        finished = self.wait_until(gang, "end", lambda status: status["state"] == "FINISHED", 180)
        self.assertEqual(finished["final_status"], "SUCCEEDED", finished)
        for task in finished["job"]["tasks"]:
            self.assertEqual(task["restarts"], 0, task)  # giving back spends no restart


if __name__ == "__main__":
    unittest.main()
