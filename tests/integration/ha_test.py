"""Jobs on the HA local YARN of tests/yarn-cluster (scripts/local-yarn --ha): HDFS is the
nameservice spindle-ns (NameNodes nn1 and nn2), YARN has ResourceManagers rm1 and rm2. A job is
staged on hdfs://spindle-ns and cleaned up; a ResourceManager failover in the middle of a job,
and NameNode failovers during staging and during a job, are gone through with no task restarted.

Run by ctest (label ha, one test per case) with SPINDLE_CLI, HADOOP_CONF_DIR,
SPINDLE_SOURCE_DIR, SPINDLE_LOCAL_YARN_DIR, SPINDLE_STATE_DIR and SPINDLE_DATA_DIR set. The jobs run
plain shell and standard-library Python only."""

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
import unittest
import urllib.error
import urllib.request

from jobs_on_yarn_test import SOURCE, cluster_user, configuration, names_a_missing_path, spindle

LOCAL_YARN = os.path.join(SOURCE, "scripts/local-yarn")
STAGING_ROOT = f"/user/{cluster_user()}/.spindle"


def local_yarn(*args):
    """A control of the HA local YARN; its one-line answer."""
    done = subprocess.run([LOCAL_YARN, "--ha", *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def namenodes():
    nameservice = configuration("dfs.nameservices")
    ids = configuration(f"dfs.ha.namenodes.{nameservice}").split(",")
    return [configuration(f"dfs.namenode.http-address.{nameservice}.{i}") for i in ids]


def webhdfs(path, op="LISTSTATUS"):
    """The active NameNode's answer (a standby answers 403 StandbyException); a missing path
    raises HTTPError 404, and no active NameNode raises too."""
    problems = []
    for address in namenodes():
        url = f"http://{address}/webhdfs/v1{path}?op={op}&user.name={cluster_user()}"
        try:
            with urllib.request.urlopen(url, timeout=30) as answer:
                return json.load(answer)
        except urllib.error.HTTPError as error:
            body = error.read().decode(errors="replace")
            if error.code == 403 and "StandbyException" in body:
                problems.append(f"{address} standby")
                continue
            error.webhdfs_body = body
            raise
    raise AssertionError(f"no active NameNode: {problems}")


def staged(application_id):
    """Whether the job's staging directory is in HDFS: only the NameNode's FileNotFoundException
    means it is not; every other error is raised."""
    try:
        webhdfs(f"{STAGING_ROOT}/{application_id}", "GETFILESTATUS")
        return True
    except urllib.error.HTTPError as error:
        if names_a_missing_path(error):
            return False
        raise


def write_spec(directory, command, instances=1, files=None, name="ha", framework="generic", memory="256 MiB",
               job_lines=(), task_lines=()):
    """job.yaml of one task type, worker; job_lines and task_lines are more YAML lines, as written."""
    lines = [f"name: {name}", f"framework: {framework}", *job_lines]
    if files:
        lines.append("files: {" + ", ".join(f"{name}: {path}" for name, path in files.items()) + "}")
    lines += ["tasks:", "  worker:", f"    instances: {instances}", f"    memory: {memory}", "    vcores: 1",
              *task_lines, "    command: " + json.dumps(command)]
    path = os.path.join(directory, "job.yaml")
    with open(path, "w") as spec:
        spec.write("\n".join(lines) + "\n")
    return path


def status_of(application_id):
    shown = spindle("status", application_id, "--json")
    assert shown.returncode == 0, shown.stderr
    return json.loads(shown.stdout)


def tasks_running(application_id, count, timeout=120):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        shown = spindle("status", application_id, "--json")
        if shown.returncode == 0:
            tasks = (json.loads(shown.stdout).get("job") or {}).get("tasks") or []
            if sum(1 for task in tasks if task.get("phase") == "running") >= count:
                return
        time.sleep(1)
    raise AssertionError(f"{application_id} did not get {count} running task(s) in {timeout}s")


def submit(spec):
    submitted = spindle("submit", spec, "--json")
    assert submitted.returncode == 0, submitted.stderr
    return json.loads(submitted.stdout)


def assert_staged_now(application_id):
    """The staging directory is where the tests look for it, right after the submit (the master
    removes it only once the job has ended): so that its absence later says it was removed, and
    not that STAGING_ROOT or the user is wrong."""
    assert staged(application_id), f"{application_id} was submitted but {STAGING_ROOT}/{application_id} is not in HDFS"


def wait_for(application_id, timeout=300):
    waited = spindle("watch", application_id, timeout=timeout)
    return waited


class HaJobTest(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.mkdtemp(prefix="spindle-ha-")
        self.addCleanup(shutil.rmtree, self.directory, True)
        self.seen_staged = set()

    def submit(self, spec):
        answer = submit(spec)
        self.saw_staged(answer["application_id"])
        return answer

    def saw_staged(self, application_id):
        assert_staged_now(application_id)
        self.seen_staged.add(application_id)

    def assert_succeeded_without_restarts(self, application_id):
        status = status_of(application_id)
        self.assertEqual(status["final_status"], "SUCCEEDED", status)
        for task in status["job"]["tasks"]:
            self.assertEqual(task["phase"], "succeeded", task)
            self.assertEqual(task["restarts"], 0, task)
        # The master removes the staging directory, through whichever NameNode is active; its absence
        # means that only where it was seen while the job ran.
        self.assertIn(application_id, self.seen_staged, "the staging directory was never seen in HDFS")
        deadline = time.monotonic() + 30
        while staged(application_id) and time.monotonic() < deadline:
            time.sleep(1)
        self.assertFalse(staged(application_id), f"{STAGING_ROOT}/{application_id} is left in HDFS")
        return status


class Job(HaJobTest):
    def test_a_job_staged_on_the_nameservice_succeeds_and_is_cleaned_up(self):
        spec = write_spec(self.directory, "sleep 3; echo hello from $SPINDLE_TASK")
        answer = self.submit(spec)
        self.assertTrue(answer["staging"].startswith("hdfs://spindle-ns/"), answer)
        waited = wait_for(answer["application_id"])
        self.assertEqual(waited.returncode, 0, waited.stdout + waited.stderr)
        self.assert_succeeded_without_restarts(answer["application_id"])


class RmFailover(HaJobTest):
    def test_a_job_goes_through_a_resource_manager_failover(self):
        spec = write_spec(self.directory, "python3 -c 'import time; time.sleep(40); print(\"slept\")'", instances=2)
        application_id = self.submit(spec)["application_id"]
        watch = subprocess.Popen([os.environ["SPINDLE_CLI"], "watch", application_id], stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True)
        try:
            tasks_running(application_id, 2)
            answer = local_yarn("failover-rm")
            self.assertRegex(answer, r"^rm[12] is active")
            output, _ = watch.communicate(timeout=300)
        finally:
            if watch.poll() is None:
                watch.kill()
        self.assertEqual(watch.returncode, 0, output)
        self.assertIn("registered again with the restarted ResourceManager", output)
        self.assertIn("SUCCEEDED", output)
        self.assert_succeeded_without_restarts(application_id)

        history = spindle("history", application_id, "--json")
        self.assertEqual(history.returncode, 0, history.stderr)
        story = json.loads(history.stdout)
        kinds = [event["kind"] for event in story["events"]]
        messages = " | ".join(event["message"] for event in story["events"])
        for task in ("worker:0", "worker:1"):
            self.assertEqual([a["phase"] for a in story["attempts"] if a["task"] == task], ["succeeded"], story)
        self.assertIn("registered again with the restarted ResourceManager", messages)
        self.assertIn("allocated", kinds)
        self.assertIn("succeeded", kinds)
        self.assertEqual(kinds.count("allocated"), 2, messages)  # no container asked for twice


class NameNodeFailover(HaJobTest):
    def big_file(self):
        # Big enough that the failover lands while it goes up: 50 MB went up faster than a
        # failover completes once the container binary no longer went up before it.
        path = os.path.join(self.directory, "big.bin")
        digest = hashlib.sha256()
        with open(path, "wb") as out:
            for _ in range(200):
                chunk = os.urandom(1024 * 1024)
                digest.update(chunk)
                out.write(chunk)
        return path, digest.hexdigest()

    def check_logged_digest(self, application_id, digest):
        # The aggregated logs were written to the nameservice after the failover, and read back from it.
        deadline = time.monotonic() + 60
        shown = None
        while time.monotonic() < deadline:
            shown = spindle("logs", application_id, "worker:0")
            if shown.returncode == 0 and digest in shown.stdout:
                return
            time.sleep(2)
        self.fail(f"the task's digest is not in its logs: {shown.stdout if shown else ''} {shown.stderr if shown else ''}")

    def test_a_failover_while_a_big_file_is_staged(self):
        path, digest = self.big_file()
        command = ("python3 -c 'import hashlib; print(\"digest\", hashlib.sha256(open(\"big.bin\", \"rb\")"
                   ".read()).hexdigest())'")
        # Behind the big file, many small ones, each its own round trips to the NameNode: staging then
        # lasts seconds, not the fraction of one a fast disk takes for the big file alone, so the
        # failover lands while it is under way.
        files = {"big.bin": path}
        for index in range(300):
            small = os.path.join(self.directory, "small-%03d.txt" % index)
            with open(small, "w") as out:
                out.write("%d\n" % index)
            files[os.path.basename(small)] = small
        spec = write_spec(self.directory, command, files=files)
        answers = []
        before = set(self.staged_names())

        def fail_over_once_staging_starts():
            # As soon as this job's staging directory appears, while its files go up.
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and not set(self.staged_names()) - before:
                time.sleep(0.05)
            answers.append(local_yarn("failover-nn"))
            answers.append(time.monotonic())

        thread = threading.Thread(target=fail_over_once_staging_starts)
        thread.start()
        submitted = spindle("submit", spec, "--json")
        submitted_at = time.monotonic()
        thread.join()
        self.assertEqual(submitted.returncode, 0, submitted.stdout + submitted.stderr)
        self.assertRegex(answers[0], r"^nn[12] is active")
        self.assertLess(answers[1], submitted_at, "the failover came only after the submission")
        application_id = json.loads(submitted.stdout)["application_id"]
        self.saw_staged(application_id)
        waited = wait_for(application_id)
        self.assertEqual(waited.returncode, 0, waited.stdout + waited.stderr)
        self.assert_succeeded_without_restarts(application_id)
        self.check_logged_digest(application_id, digest)

    def staged_names(self):
        # Jobs' staging directories only: beside them are the caches every job shares (bin, envs).
        try:
            return [item["pathSuffix"] for item in webhdfs(STAGING_ROOT)["FileStatuses"]["FileStatus"]
                    if item["pathSuffix"].startswith("application_")]
        except urllib.error.HTTPError as error:
            if names_a_missing_path(error):
                return []
            raise

    def test_a_failover_in_the_middle_of_a_job(self):
        path, digest = self.big_file()
        command = ("python3 -c 'import hashlib, time; time.sleep(20); print(\"digest\", "
                   "hashlib.sha256(open(\"big.bin\", \"rb\").read()).hexdigest())'")
        spec = write_spec(self.directory, command, files={"big.bin": path})
        application_id = self.submit(spec)["application_id"]
        tasks_running(application_id, 1)
        self.assertRegex(local_yarn("failover-nn"), r"^nn[12] is active")
        waited = wait_for(application_id)
        self.assertEqual(waited.returncode, 0, waited.stdout + waited.stderr)
        self.assert_succeeded_without_restarts(application_id)
        self.check_logged_digest(application_id, digest)


if __name__ == "__main__":
    unittest.main()
