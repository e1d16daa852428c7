"""`spindle logs` after a job, against Hadoop's own LogsCLI on the same cluster:
every container's files, byte for byte, from the aggregated logs in the format
the cluster writes (TFile on the plain local YARN, the indexed format with gz in
fault mode); a failed task's traceback; a task whose command could not start;
a damaged aggregated file; and the sentences of status, tensorboard and list
for what the cluster does not know.

Run by ctest (one test per case) with SPINDLE_CLI, HADOOP_CONF_DIR,
SPINDLE_SOURCE_DIR, SPINDLE_STATE_DIR and SPINDLE_DATA_DIR set."""

import glob
import json
import os
import re
import sqlite3
import subprocess
import time
import unittest
import urllib.error
import urllib.request

from jobs_on_yarn_test import CONF, cluster_user, configuration, names_a_missing_path, spindle

CACHE = os.environ.get("SPINDLE_CACHE", os.path.join(os.path.expanduser("~"), ".cache", "spindle"))
JARS = os.environ.get("SPINDLE_LOCAL_YARN_BUILD_DIR", os.path.join(CACHE, "yarn-cluster"))


def submit(*args):
    submitted = spindle("submit", "--wait", "--json", *args)
    answer = json.loads(submitted.stdout) if submitted.stdout.strip() else {}
    assert "application_id" in answer, submitted.stdout + submitted.stderr
    return answer["application_id"], submitted


def resource_manager(path):
    url = f"http://{configuration('yarn.resourcemanager.webapp.address')}/ws/v1/cluster/{path}"
    with urllib.request.urlopen(url, timeout=30) as answer:
        return json.load(answer)


def wait_for_aggregation(application_id, seconds=120):
    deadline = time.time() + seconds
    while time.time() < deadline:
        state = resource_manager(f"apps/{application_id}")["app"].get("logAggregationStatus")
        if state in ("SUCCEEDED", "FAILED", "TIME_OUT"):
            assert state == "SUCCEEDED", f"the NodeManagers' log aggregation of {application_id} ended {state}"
            return
        time.sleep(1)
    raise AssertionError(f"the logs of {application_id} were not aggregated in {seconds} s")


def logs_cli(application_id):
    """Hadoop's LogsCLI (`yarn logs -applicationId`) from the test bed's jars:
    {(container, file): contents}, taken by each file's LogLength."""
    with open(os.path.join(JARS, "classpath.txt")) as classpath:
        jars = classpath.read().strip()
    done = subprocess.run(["java", "-cp", f"{CONF}:{jars}", "org.apache.hadoop.yarn.client.cli.LogsCLI",
                           "-applicationId", application_id, "-appOwner", cluster_user()],
                          capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    text = done.stdout
    logs = {}
    container = None
    at = 0
    for match in re.finditer(rb"^(Container: (\S+) on \S+|LogType:(.*))\n", text, re.M):
        if match.start() < at:
            continue
        if match.group(2):
            container = match.group(2).decode()
            continue
        file = match.group(3).decode()
        length = int(re.compile(rb"LogLength:(\d+)\n").search(text, match.end()).group(1))
        start = text.index(b"LogContents:\n", match.end()) + len(b"LogContents:\n")
        logs[(container, file)] = text[start:start + length]
        at = start + length
    assert logs, "LogsCLI printed no log at all:\n" + text.decode(errors="replace")[:2000]
    return logs


def tasks_of(application_id):
    shown = spindle("status", application_id, "--json")
    assert shown.returncode == 0, shown.stderr
    return {task["task"]: task for task in json.loads(shown.stdout)["job"]["tasks"]}


def logs(*args):
    return subprocess.run([os.environ["SPINDLE_CLI"], "logs", *args], capture_output=True, timeout=300)


# Each task prints a line of its own to stdout and stderr; worker:1 writes
# 4 MB, so its container's value spans TFile blocks and IFile buffers;
# worker:2's stdout ends without a newline. No chief: the job ends when every
# worker has, so none is stopped half-way through its output.
CHATTY = ('echo "line from $SPINDLE_TASK"; echo "error line from $SPINDLE_TASK" >&2; '
          'if [ "$SPINDLE_TASK" = worker:1 ]; then seq 1 200000 | sed "s/^/worker one says /"; fi; '
          'if [ "$SPINDLE_TASK" = worker:2 ]; then printf "no newline at the end"; fi')


class AggregatedLogs(unittest.TestCase):
    """Run once per aggregated format: the expected format comes from
    SPINDLE_EXPECTED_LOG_FORMAT, and the cluster must say it writes it."""

    @classmethod
    def setUpClass(cls):
        expected = os.environ.get("SPINDLE_EXPECTED_LOG_FORMAT", "TFile")
        written = (configuration("yarn.log-aggregation.file-formats") or "TFile").split(",")[0]
        assert written == expected, f"the cluster writes {written} logs, not {expected}"
        cls.application, submitted = submit("-r", "worker:3", "-n", "chatty", "--", CHATTY)
        assert submitted.returncode == 0, submitted.stdout + submitted.stderr
        wait_for_aggregation(cls.application)
        cls.hadoop = logs_cli(cls.application)
        cls.tasks = tasks_of(cls.application)

    def test_every_task_file_equals_what_logs_cli_prints(self):
        compared = 0
        for name, task in self.tasks.items():
            for file in ("stdout", "stderr"):
                ours = logs(self.application, name, "--file", file)
                self.assertEqual(ours.returncode, 0, ours.stderr)
                self.assertEqual(ours.stdout, self.hadoop[(task["container"], file)], f"{name} {file}")
                compared += 1
        self.assertEqual(compared, 6)
        self.assertTrue(self.hadoop[(self.tasks["worker:1"]["container"], "stdout")].endswith(b"says 200000\n"))
        self.assertEqual(logs(self.application, "worker:2", "--file", "stdout").stdout,
                         b"line from worker:2\nno newline at the end")

    def test_all_files_shows_every_file_yarn_kept(self):
        task = self.tasks["worker:0"]
        shown = logs(self.application, "worker:0", "--all-files")
        self.assertEqual(shown.returncode, 0, shown.stderr)
        headers = set(re.findall(rb"^==> worker:0 (\S+) <==$", shown.stdout, re.M))
        kept = {file.encode() for container, file in self.hadoop if container == task["container"]}
        self.assertGreaterEqual(kept, {b"stdout", b"stderr", b"launch_container.sh", b"prelaunch.err"})
        empty = {file.encode() for (container, file), text in self.hadoop.items()
                 if container == task["container"] and not text}
        self.assertEqual(headers, kept - empty)
        for file in sorted(empty):
            self.assertIn(b"worker:0 wrote nothing to " + file, shown.stderr)

    def test_the_masters_own_logs(self):
        master = [c for c, f in self.hadoop if c.endswith("_000001") and f == "stderr"]
        self.assertEqual(len(master), 1)
        shown = logs(self.application, "master", "--file", "stderr")
        self.assertEqual(shown.returncode, 0, shown.stderr)
        self.assertEqual(shown.stdout, self.hadoop[(master[0], "stderr")])
        self.assertIn(b"spindle master: registered", shown.stdout)

    def test_every_task_at_once(self):
        shown = logs(self.application)
        self.assertEqual(shown.returncode, 0, shown.stderr)
        for name in ("worker:0", "worker:1", "worker:2"):
            self.assertIn(f"==> {name} stdout <==\nline from {name}\n".encode(), shown.stdout)
            self.assertIn(f"error line from {name}\n".encode(), shown.stdout)

    def test_a_task_that_is_not_there(self):
        shown = logs(self.application, "worker:7")
        self.assertEqual(shown.returncode, 2)
        self.assertIn(b'"worker:7" is not a task of', shown.stderr)

    def test_a_file_no_container_wrote(self):
        shown = logs(self.application, "worker:0", "--file", "no-such.log")
        self.assertEqual(shown.returncode, 3, shown.stderr)
        self.assertIn(b"has no no-such.log log", shown.stderr)


class FailedJobLogs(unittest.TestCase):
    def test_a_failed_task_shows_its_traceback_after_the_job(self):
        command = ('if [ "$SPINDLE_TASK" = worker:1 ]; then python3 -c "raise RuntimeError(\'boom from one\')"; '
                   'else sleep 2; fi')
        application, submitted = submit("-r", "worker:2", "-n", "failing", "--", command)
        self.assertEqual(submitted.returncode, 1, submitted.stdout + submitted.stderr)
        wait_for_aggregation(application)
        shown = logs(application, "worker:1")
        self.assertEqual(shown.returncode, 0, shown.stderr)
        self.assertIn(b"==> worker:1 stderr <==", shown.stdout)
        self.assertIn(b"Traceback (most recent call last):", shown.stdout)
        self.assertIn(b"RuntimeError: boom from one", shown.stdout)
        self.assertIn(b"worker:1 wrote nothing to stdout", shown.stderr)

    def test_a_command_that_could_not_start_says_why(self):
        application, submitted = submit("-r", "worker:1", "-n", "no-interpreter", "--",
                                        "/opt/no-such-python/bin/python3 train.py")
        self.assertEqual(submitted.returncode, 1, submitted.stdout + submitted.stderr)
        wait_for_aggregation(application)
        shown = logs(application, "worker:0", "--all-files")
        self.assertEqual(shown.returncode, 0, shown.stderr)
        self.assertRegex(shown.stdout, rb"/opt/no-such-python/bin/python3: (No such file or directory|not found)")
        for file in (b"launch_container.sh", b"directory.info"):
            self.assertIn(b"==> worker:0 " + file + b" <==", shown.stdout)


def node_files(application_id):
    """Paths of the application's aggregated files on HDFS."""
    address = configuration("dfs.namenode.http-address")
    host = configuration("fs.defaultFS").split("//")[1].split(":")[0]
    base = f"http://{host}:{address.rsplit(':', 1)[1]}/webhdfs/v1"
    root = configuration("yarn.nodemanager.remote-app-log-dir")
    found = []
    for suffix in ("bucket-logs-tfile", "bucket-logs-ifile"):
        number = int(application_id.rsplit("_", 1)[1]) % 10000
        directory = f"{root}/{cluster_user()}/{suffix}/{number:04d}/{application_id}"
        try:
            with urllib.request.urlopen(f"{base}{directory}?op=LISTSTATUS&user.name={cluster_user()}") as answer:
                listing = json.load(answer)["FileStatuses"]["FileStatus"]
        except urllib.error.HTTPError as error:
            if names_a_missing_path(error):
                continue
            raise
        found += [(base, f"{directory}/{item['pathSuffix']}", item["length"]) for item in listing]
    return found


def hdfs_overwrite(base, path, data):
    user = cluster_user()
    request = urllib.request.Request(f"{base}{path}?op=CREATE&overwrite=true&user.name={user}", method="PUT")
    try:
        urllib.request.urlopen(request, timeout=30)
        raise AssertionError("WebHDFS did not redirect the write to a DataNode")
    except urllib.error.HTTPError as redirect:
        assert redirect.code == 307, redirect
        location = redirect.headers["Location"]
    with urllib.request.urlopen(urllib.request.Request(location, data=data, method="PUT"), timeout=30) as done:
        assert done.status == 201, done.status


class DamagedLogs(unittest.TestCase):
    def test_a_file_cut_short_is_named_with_its_byte_offset(self):
        application, submitted = submit("-r", "worker:1", "-n", "to-damage", "--", "echo fine")
        self.assertEqual(submitted.returncode, 0, submitted.stdout + submitted.stderr)
        wait_for_aggregation(application)
        self.assertEqual(logs(application, "worker:0").returncode, 0)
        files = node_files(application)
        self.assertEqual(len(files), 1, files)
        base, path, length = files[0]
        with urllib.request.urlopen(f"{base}{path}?op=OPEN&user.name={cluster_user()}", timeout=30) as answer:
            whole = answer.read()
        self.assertEqual(len(whole), length)
        hdfs_overwrite(base, path, whole[:length // 2])
        shown = logs(application, "worker:0")
        self.assertEqual(shown.returncode, 3, shown.stdout + shown.stderr)
        self.assertIn(path.encode(), shown.stderr)
        self.assertRegex(shown.stderr, rb"byte \d+")
        self.assertNotIn(b"fine", shown.stdout)


class CliSentences(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.application, submitted = submit("-r", "worker:1", "-n", "no-tensorboard", "--", "true")
        assert submitted.returncode == 0, submitted.stdout + submitted.stderr
        cls.cluster_time = cls.application.split("_")[1]

    def test_status_of_an_application_the_cluster_does_not_know(self):
        unknown = f"application_{self.cluster_time}_9999"
        shown = spindle("status", unknown)
        self.assertEqual(shown.returncode, 2, shown.stdout + shown.stderr)
        self.assertIn(f"knows no application {unknown}", shown.stderr)
        self.assertNotIn("Exception", shown.stderr)
        self.assertEqual(len(shown.stderr.strip().splitlines()), 1, shown.stderr)

    def test_tensorboard_of_a_job_without_one(self):
        shown = spindle("tensorboard", self.application, timeout=60)
        self.assertEqual(shown.returncode, 2, shown.stdout + shown.stderr)
        self.assertIn("has no TensorBoard", shown.stderr)
        self.assertIn("tensorboard: {memory: 1 GiB, vcores: 1}", shown.stderr)
        self.assertEqual(shown.stdout, "")

    def test_list_shows_a_job_the_cluster_forgot_as_unknown(self):
        # What a restarted cluster without recovery leaves: the history knows a
        # job, in a live state, that the ResourceManager has never heard of.
        forgotten = f"application_{int(self.cluster_time) - 1000}_0042"
        database = os.path.join(os.environ["SPINDLE_DATA_DIR"], "history.sqlite")
        self.assertTrue(os.path.exists(database))
        last_seen = 1_700_000_000_000
        with sqlite3.connect(database) as db:
            db.execute("INSERT INTO jobs (application_id, name, user, queue, state, submitted_ms, updated_ms) "
                       "VALUES (?, 'gone', ?, 'default', 'submitted', ?, ?)",
                       (forgotten, cluster_user(), last_seen, last_seen))
        try:
            listed = spindle("list", "--all", "--json")
            self.assertEqual(listed.returncode, 0, listed.stderr)
            jobs = {job["application_id"]: job for job in json.loads(listed.stdout)}
            self.assertEqual(jobs[forgotten]["state"], "unknown")
            self.assertEqual(jobs[forgotten]["last_state"], "submitted")
            self.assertEqual(jobs[forgotten]["last_seen_ms"], last_seen)
            self.assertEqual(jobs[self.application]["state"], "succeeded")
            self.assertIn("no longer knows", listed.stderr)
            text = spindle("list", "--all")
            line = [row for row in text.stdout.splitlines() if row.startswith(forgotten)]
            self.assertEqual(len(line), 1, text.stdout)
            self.assertIn(" unknown ", line[0])
            self.assertIn("the cluster no longer knows it; last seen", line[0])
            shown = spindle("status", forgotten)
            self.assertEqual(shown.returncode, 0, shown.stderr)
            self.assertIn("no longer knows", shown.stderr)
        finally:
            with sqlite3.connect(database) as db:
                db.execute("DELETE FROM jobs WHERE application_id = ?", (forgotten,))


if __name__ == "__main__":
    unittest.main()
