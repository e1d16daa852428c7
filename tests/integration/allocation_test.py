"""Jobs that cannot be placed whole never hold their queue, and jobs never wait for a
container that will not come or a worker that is gone, on the plain local YARN of
tests/yarn-cluster: its node without a label has 12 GiB, and a job that holds 8 GiB of
it leaves room for only part of another job's gang; its scheduler grants containers of
at most 8192 MiB.

Run by ctest (one test per case) with SPINDLE_CLI, HADOOP_CONF_DIR and
SPINDLE_SOURCE_DIR set."""

import json
import os
import re
import signal
import sys
import time
import unittest
import urllib.request

from jobs_on_yarn_test import (SPINDLE, JobTest, configuration, live_processes_with, spindle,
                               wait_for_no_processes)

SMALL_MASTER = {"memory": "256 MiB"}


def resource_manager_view(application_id):
    """The ResourceManager's own record of an application: its state and the containers it holds."""
    address = configuration("yarn.resourcemanager.webapp.address")
    with urllib.request.urlopen(f"http://{address}/ws/v1/cluster/apps/{application_id}", timeout=30) as answer:
        return json.load(answer)["app"]


class JobOnTheBed(JobTest):
    def submit(self, spec, *flags, env=None):
        submitted = spindle("submit", "--json", *flags, self.write_spec(spec), env=env)
        self.assertEqual(submitted.returncode, 0, submitted.stderr)
        application = json.loads(submitted.stdout)["application_id"]
        self.addCleanup(spindle, "kill", application)
        self.submit_stderr = submitted.stderr
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

    def history(self, application):
        answer = spindle("history", application, "--json")
        self.assertEqual(answer.returncode, 0, answer.stderr)
        return json.loads(answer.stdout)

    def assert_ended_within(self, application, since, seconds):
        """Waits for the job's end, which must come within `seconds` of `since` (time.time()); the end as
        its status reports it."""
        ended = self.wait_until(application, "end", lambda status: status["state"] == "FINISHED",
                                since + seconds - time.time())
        self.assertLessEqual(time.time() - since, seconds, ended)
        return ended


class AllocationTimeout(JobOnTheBed):
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
        # The first word of the wait may come before the first worker's container does.
        waiting = self.wait_until(gang, "word of the wait with one worker granted", lambda status: status["job"] and (
            status["job"]["waiting_for"].startswith("waits for containers: 1 of")), 120)
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


def container_processes_of(container):
    """The live processes of one container: those whose environment, as the NodeManager gave it, names it."""
    return live_processes_with(f"CONTAINER_ID={container}")


def tasks_of(status):
    return {task["task"]: task for task in (status["job"] or {}).get("tasks", [])}


class EarlyDeath(JobOnTheBed):
    """A worker that dies before it takes part fails the job, or is restarted within its max_restarts,
    with what it wrote on stderr in the diagnostics; the job never waits for it."""

    def assert_history_says(self, application, ended):
        recorded = self.history(application)
        self.assertEqual(recorded["state"], "failed", recorded)
        self.assertEqual(recorded["diagnostics"], ended["diagnostics"], recorded)
        return recorded

    def test_a_worker_whose_command_does_not_exist_fails_the_job_at_once_saying_why(self):
        submitted_at = time.time()
        application = self.submit({"name": "no-such-program", "application_master": SMALL_MASTER,
                                   "tasks": {"worker": {"memory": "256 MiB", "command": "no-such-program --train"}}})
        ended = self.assert_ended_within(application, submitted_at, 120)
        self.assertEqual(ended["final_status"], "FAILED", ended)
        self.assertRegex(ended["diagnostics"], r"^worker:0 failed: exited with 127 \(container_\S+ on \S+\)\. ")
        self.assertNotIn("restart(s)", ended["diagnostics"])
        self.assertIn("The end of its stderr:\n", ended["diagnostics"])
        self.assertIn("no-such-program: not found", ended["diagnostics"])
        self.assert_history_says(application, ended)

    def test_a_worker_whose_command_does_not_exist_is_restarted_twice_then_fails_the_job(self):
        submitted_at = time.time()
        application = self.submit({"name": "no-such-program-thrice", "application_master": SMALL_MASTER,
                                   "tasks": {"worker": {"memory": "256 MiB", "max_restarts": 2,
                                                        "command": "no-such-program --train"}}})
        ended = self.assert_ended_within(application, submitted_at, 180)
        self.assertEqual(ended["final_status"], "FAILED", ended)
        self.assertRegex(ended["diagnostics"],
                         r"^worker:0 failed: exited with 127 \(container_\S+ on \S+\) after 2 restart\(s\)\. ")
        self.assertIn("no-such-program: not found", ended["diagnostics"])
        self.assertEqual(tasks_of(ended)["worker:0"]["restarts"], 2, ended)
        recorded = self.assert_history_says(application, ended)
        attempts = [attempt for attempt in recorded["attempts"] if attempt["task"] == "worker:0"]
        self.assertEqual([attempt["attempt"] for attempt in attempts], [0, 1, 2], recorded["attempts"])
        self.assertEqual([attempt["exit_code"] for attempt in attempts], [127, 127, 127], recorded["attempts"])
        self.assertEqual(len({attempt["container"] for attempt in attempts}), 3, recorded["attempts"])

    # The executor registers its task within milliseconds of its container's start, too soon for any
    # kill from outside to land before it. So the container binary these jobs stage is a wrapper that
    # stops worker:1's first attempt where its executor would start, having said so on stderr, and
    # hands everything else (the master, worker:0, worker:1's later attempts) to spindle-container;
    # since every container runs on this machine, by its path. To the master such a worker is what
    # any worker that dies before it registers is: a container it launched that never registered
    # (while worker:0 did, and waits for a cluster that cannot be complete without worker:1), and
    # whose NodeManager then reports it ended. The wrapper either exits 3 by itself, as an executor
    # that cannot start does, or waits until the test kills it with SIGKILL, as the kernel's OOM
    # killer or an operator would.
    HELD = "worker:1 is held before its executor starts"
    DIES = "worker:1 dies before its executor starts"

    def with_worker_one_stopped_first(self, max_restarts, stop):
        wrapper = os.path.join(self.directory, "spindle-container")
        with open(wrapper, "w") as script:
            script.write("#!/bin/sh\n"
                         'case " $* " in\n'
                         '  *" task --task worker:1 "*" --attempt 0 "*)\n'
                         f"    {stop} ;;\n"
                         "esac\n"
                         f'exec {os.path.join(os.path.dirname(SPINDLE), "spindle-container")} "$@"\n')
        os.chmod(wrapper, 0o755)
        return self.submit({"name": f"early-death-{max_restarts}", "application_master": SMALL_MASTER,
                            "tasks": {"worker": {"instances": 2, "memory": "256 MiB", "max_restarts": max_restarts,
                                                 "command": "echo \"$TF_CONFIG\""}}},
                           env={"SPINDLE_CONTAINER_BINARY": wrapper})

    def held_before_registration(self, max_restarts):
        application = self.with_worker_one_stopped_first(max_restarts, f'echo "{self.HELD}" >&2; exec sleep 600')
        held = self.wait_until(application, "worker:0 registered while worker:1 is launched but not registered",
                               lambda status: status["job"] and tasks_of(status)["worker:0"]["phase"] == "registered"
                               and tasks_of(status)["worker:1"]["phase"] == "launching"
                               and container_processes_of(tasks_of(status)["worker:1"]["container"]), 120)
        # worker:0 waits for the cluster, which is not published without worker:1.
        self.assertEqual(held["job"]["cluster_version"], 0, held)
        container = tasks_of(held)["worker:1"]["container"]
        for pid in container_processes_of(container):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass  # ended between the listing and the kill, as the wrapper's own shell may

        return application, container, time.time()

    def test_a_worker_that_dies_before_it_registers_fails_the_job_with_its_stderr(self):
        submitted_at = time.time()
        application = self.with_worker_one_stopped_first(0, f'echo "{self.DIES}" >&2; exit 3')
        ended = self.assert_ended_within(application, submitted_at, 120)
        self.assertEqual(ended["final_status"], "FAILED", ended)
        self.assertRegex(ended["diagnostics"], r"^worker:1 failed: its container exited with 3 \(container_\S+ on \S+\)"
                                               r"\. The end of its stderr:\n")
        self.assertTrue(ended["diagnostics"].endswith(f"\n{self.DIES}\n"), ended["diagnostics"])
        self.assertEqual(tasks_of(ended)["worker:0"]["phase"], "stopped", ended)
        self.assert_history_says(application, ended)

    def test_a_worker_killed_before_it_registers_fails_the_job_saying_so(self):
        application, container, killed_at = self.held_before_registration(max_restarts=0)
        ended = self.assert_ended_within(application, killed_at, 60)
        self.assertEqual(ended["final_status"], "FAILED", ended)
        # Killed by a signal, a container's NodeManager quotes none of its stderr.
        self.assertRegex(ended["diagnostics"],
                         rf"^worker:1 failed: its container exited with 137 \({container} on \S+\)\.$")
        phases = {task: record["phase"] for task, record in tasks_of(ended).items()}
        self.assertEqual(phases, {"worker:0": "stopped", "worker:1": "failed"}, ended)
        self.assert_history_says(application, ended)

    def test_a_worker_killed_before_it_registers_is_restarted_and_the_job_succeeds(self):
        application, container, killed_at = self.held_before_registration(max_restarts=1)
        ended = self.assert_ended_within(application, killed_at, 120)
        self.assertEqual(ended["final_status"], "SUCCEEDED", ended)
        tasks = tasks_of(ended)
        self.assertEqual((tasks["worker:1"]["restarts"], tasks["worker:0"]["restarts"]), (1, 0), ended)
        self.assertEqual(ended["job"]["cluster_version"], 1, ended)  # the first cluster, complete with the new worker:1
        recorded = self.history(application)
        self.assertEqual(recorded["state"], "succeeded", recorded)
        first = [attempt for attempt in recorded["attempts"]
                 if attempt["task"] == "worker:1" and attempt["attempt"] == 0]
        self.assertEqual(len(first), 1, recorded["attempts"])
        self.assertEqual((first[0]["container"], first[0]["exit_code"]), (container, 137), first)


STALL_SENTENCE = ("stalled: it wrote nothing (stdout, stderr, the job's output) and used under 5% of a core for 30s "
                  "(stall_timeout)")


class Stalls(JobOnTheBed):
    """A task that sleeps without a word is stalled at stall_timeout (30 s, the least the spec takes):
    the master hears from it every 5 s and looks every second, so the word comes 30 to 36 s after the
    task's last sign of life."""

    def watch(self, application, since, seconds):
        """Follows the job to its end, which must come within `seconds` of `since`; the history then holds
        every event of the job (a follower records them)."""
        watched = spindle("watch", application, timeout=seconds)
        self.assertLessEqual(time.time() - since, seconds)
        return watched

    def events(self, application, kind, task="worker:0"):
        return [e for e in self.history(application)["events"] if e["kind"] == kind and e["task"] == task]

    def assert_stalled_in_time(self, application):
        """The stall's event, 30 to 40 s after the cluster was published (the worker's start)."""
        published = [e for e in self.history(application)["events"] if e["kind"] == "cluster"][0]
        stalled = self.events(application, "stalled")
        self.assertEqual(len(stalled), 1, stalled)
        after = (stalled[0]["time_ms"] - published["time_ms"]) / 1000
        print(f"stalled {after:.1f} s after the worker started", file=sys.stderr)
        self.assertGreaterEqual(after, 30, stalled)
        self.assertLessEqual(after, 40, stalled)
        return stalled[0]

    def test_a_sleeping_task_is_reported_stalled_and_no_longer_once_it_writes(self):
        application = self.submit({
            "name": "stalls-then-writes", "application_master": SMALL_MASTER, "stall_timeout": "30s",
            "tasks": {"worker": {"memory": "256 MiB", "command": "echo started; sleep 45; echo woke up; sleep 2"}}})
        stalled = self.wait_until(application, "stalled worker", lambda status: status["job"] and any(
            task["stalled"] for task in status["job"]["tasks"]), 120)
        self.assertEqual(tasks_of(stalled)["worker:0"]["stalled"], STALL_SENTENCE)
        self.assertEqual(tasks_of(stalled)["worker:0"]["phase"], "running")
        shown = spindle("status", application)
        self.assertIn("worker:0 " + STALL_SENTENCE + "\n", shown.stdout)
        event = self.assert_stalled_in_time(application)
        self.assertEqual(event["message"], STALL_SENTENCE + "; it is left running (on_stall: report)")
        # It writes again, and runs to its end.
        watched = self.watch(application, time.time(), 60)
        self.assertEqual(watched.returncode, 0, watched.stdout + watched.stderr)
        self.assertEqual(self.history(application)["state"], "succeeded")
        self.assertEqual(len(self.events(application, "stalled")), 1)
        self.assertEqual(len(self.events(application, "working")), 1)

    def test_on_stall_restart_stops_the_stalled_attempt_and_the_next_one_runs(self):
        submitted = time.time()
        application = self.submit({
            "name": "stalls-and-restarts", "application_master": SMALL_MASTER, "stall_timeout": "30s",
            "on_stall": "restart",
            "tasks": {"worker": {"memory": "256 MiB", "max_restarts": 1,
                                 "command": "if [ $SPINDLE_ATTEMPT = 0 ]; then sleep 600; fi; echo second attempt"}}})
        watched = self.watch(application, submitted, 120)
        self.assertEqual(watched.returncode, 0, watched.stdout + watched.stderr)
        self.assertEqual(self.history(application)["state"], "succeeded")
        self.assert_stalled_in_time(application)
        attempts = [a for a in self.history(application)["attempts"] if a["task"] == "worker:0"]
        self.assertEqual([a["attempt"] for a in attempts], [0, 1], attempts)
        self.assertEqual(attempts[0]["exit_description"],
                         STALL_SENTENCE + ", so its container was stopped (on_stall: restart)")
        self.assertNotEqual(attempts[0]["container"], attempts[1]["container"])
        self.assertEqual(wait_for_no_processes(application), [], "processes of the job are still running")

    def test_on_stall_fail_fails_the_job_saying_why(self):
        submitted = time.time()
        application = self.submit({
            "name": "stalls-and-fails", "application_master": SMALL_MASTER, "stall_timeout": "30s",
            "on_stall": "fail", "tasks": {"worker": {"memory": "256 MiB", "max_restarts": 3, "command": "sleep 600"}}})
        watched = self.watch(application, submitted, 120)
        self.assertEqual(watched.returncode, 1, watched.stdout + watched.stderr)
        record = self.history(application)
        self.assertEqual(record["state"], "failed")
        self.assertRegex(record["diagnostics"],
                         "^worker:0 failed: " + re.escape(STALL_SENTENCE + ", so its container was stopped "
                                                          "(on_stall: fail)") + r" \(container_\S+ on \S+\)\."
                         # The executor's stderr tail follows when it reached the master before the stop.
                         r"( The end of its stderr:\n(spindle executor: .*\n)+)?\Z")
        self.assert_stalled_in_time(application)
        self.assertEqual(wait_for_no_processes(application), [], "processes of the job are still running")


class RefusedAtAllocation(JobOnTheBed):
    """A request the ResourceManager refuses when the application master asks for it ends the job at once.
    `submit` refuses such a spec itself, so the test skips its check with --no-fit-check."""

    def test_more_memory_than_the_scheduler_grants_fails_the_job_at_once_with_its_reason(self):
        spec = {"name": "refused-at-allocation", "application_master": SMALL_MASTER,
                "tasks": {"worker": {"memory": "64 GiB", "command": "true"}}}
        checked = spindle("submit", self.write_spec(spec))
        self.assertEqual(checked.returncode, 2, checked.stdout + checked.stderr)  # without the flag: refused at submit
        submitted_at = time.time()
        application = self.submit(spec, "--no-fit-check")
        skipped = [line for line in self.submit_stderr.splitlines() if "--no-fit-check" in line]
        self.assertEqual(skipped, ["whether the job fits this cluster's nodes was not checked (--no-fit-check): a "
                                   "container the ResourceManager never grants fails the job once it is asked for"],
                         self.submit_stderr)
        ended = self.assert_ended_within(application, submitted_at, 60)
        self.assertEqual(ended["final_status"], "FAILED", ended)
        self.assertEqual(ended["diagnostics"],
                         "the ResourceManager refused the containers this job asks for, so it can never run as it "
                         "stands: the request <memory:65536, vCores:1> is larger than the largest container the "
                         "cluster grants (<memory:8192, vCores:16, yarn.io/gpu: 2>); ask for less.")
        recorded = self.history(application)
        self.assertEqual(recorded["state"], "failed", recorded)
        self.assertEqual(recorded["diagnostics"], ended["diagnostics"], recorded)
        self.assertEqual(tasks_of(ended)["worker:0"]["container"], "", ended)  # none was ever granted
        # The ResourceManager holds the master's container until its node reports it gone; for an application
        # that finished it counts -1.
        deadline = time.time() + 30
        while resource_manager_view(application)["runningContainers"] > 0 and time.time() < deadline:
            time.sleep(0.5)
        self.assertLessEqual(resource_manager_view(application)["runningContainers"], 0,
                             resource_manager_view(application))


if __name__ == "__main__":
    unittest.main()
