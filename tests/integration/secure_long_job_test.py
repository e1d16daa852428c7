"""Jobs that outlive their delegation tokens, on a Kerberos local YARN whose
tokens live at most 3 minutes and 1 minute between renewals
(SPINDLE_TOKEN_MAX_LIFETIME_MS, SPINDLE_TOKEN_RENEW_INTERVAL_MS; see
tests/yarn-cluster/README.md). Two jobs run side by side:

- one submitted with --principal and --keytab writes a checkpoint and a
  scalar to hdfs:// every 30 s for over two lifetimes, its worker killed
  after the first lifetime resumes from its checkpoint, its TensorBoard
  serves the scalars written after the first lifetime, its application
  master killed after the second lifetime is followed by a second attempt
  that adopts the tasks (the bed's ResourceManager has proxy-user
  privileges, so its NodeManagers can still localize the attempt), and it
  succeeds; the
  keytab reaches the application master alone and leaves HDFS with the job,
  and neither it nor any token shows in what Spindle says, logs or keeps;
- one without is warned at submit with the hour its tokens die and the flag
  that helps, and fails within a minute of that hour, saying so.

Run by ctest (labels secure, integration, tensorflow) with the variables of
secure_test.py."""

import glob
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
import unittest
import urllib.request
import uuid

from jobs_on_yarn_test import SOURCE
from faults_test import master_of
from secure_test import CLUSTER, DATA_DIR, READY, forms_of, kinit, run, token_passwords, webhdfs_list

LIFETIME_S = 180


def long_training_processes():
    """pid of each Python running long_training.py (not the shell that started it)."""
    listed = subprocess.run(["pgrep", "-f", "long_training.py"], capture_output=True, text=True)
    found = []
    for pid in listed.stdout.split():
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                words = cmdline.read().split(b"\0")
        except OSError:
            continue
        if os.path.basename(words[0]).startswith(b"python") and words[1:2] == [b"long_training.py"]:
            found.append(int(pid))
    return found


class LongJobs(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.mkdtemp(prefix="spindle-long-job-")
        os.chmod(self.directory, 0o755)
        self.addCleanup(shutil.rmtree, self.directory, True)
        self.cache = os.path.join(self.directory, "ccache")
        kinit(READY["user_principal"], READY["user_keytab"], self.cache)
        self.env = {"KRB5CCNAME": "FILE:" + self.cache}
        self.user = READY["user_principal"].split("@")[0]
        self.base = f"/user/{self.user}/spindle-test-outputs/{uuid.uuid4().hex}"

    def write_spec(self, spec, name):
        path = os.path.join(self.directory, name)
        with open(path, "w") as out:
            json.dump(spec, out)
        return path

    def sweep_end(self, sweep, deadline):
        """The sweep's status once it has ended, or as it is at the deadline (asked at least once)."""
        status = {}
        while True:
            shown = run("sweep", "status", "--json", sweep, env=self.env)
            if shown.returncode == 0:
                status = json.loads(shown.stdout)
                if status["state"] != "running":
                    return status
            if time.time() > deadline:
                return status
            time.sleep(5)

    def status(self, application):
        shown = run("status", application, "--json", env=self.env)
        return json.loads(shown.stdout).get("job") if shown.returncode == 0 else None

    def test_a_keytab_job_outlives_its_tokens_and_one_without_fails_saying_why(self):
        # doctor tells which way past the lifetime this cluster grants.
        doctor = run("doctor", env=self.env, timeout=300)
        self.assertEqual(doctor.returncode, 0, doctor.stdout + doctor.stderr)
        self.assertIn("OK    token renewal: jobs with --principal and --keytab renew their own tokens; the "
                      "ResourceManager also gets new HDFS tokens as a proxy user", doctor.stdout)

        until = time.time() + 2 * LIFETIME_S + 160
        keytab_job = {
            "name": "outlives-its-tokens",
            "max_attempts": 2,
            "files": {"long_training.py": os.path.join(SOURCE, "tests/python/long_training.py")},
            "env": {"LONG_JOB_DIR": "hdfs://" + self.base + "/keytab", "UNTIL": str(until), "INTERVAL": "30",
                    "TF_CPP_MIN_LOG_LEVEL": "2"},
            "tasks": {
                "worker": {"memory": "1 GiB", "max_restarts": 1, "command": "python long_training.py"},
                "tensorboard": {"memory": "1 GiB",
                                "command": 'exec tensorboard --logdir "$LONG_JOB_DIR/logs" --port "$SPINDLE_PORT" '
                                           "--bind_all --reload_interval 5"},
            },
        }
        # No ticket at all for the keytab job: the keytab is its only login.
        no_ticket = {"KRB5CCNAME": "FILE:" + os.path.join(self.directory, "no-ticket")}
        submitted = run("submit", "--json", "--principal", READY["user_principal"], "--keytab", READY["user_keytab"],
                        self.write_spec(keytab_job, "keytab.json"), env=no_ticket)
        self.assertEqual(submitted.returncode, 0, submitted.stderr)
        self.assertIn("its application master gets new ones from the keytab", submitted.stderr)
        self.assertNotIn("warning:", submitted.stderr)
        with_keytab = json.loads(submitted.stdout)["application_id"]
        self.addCleanup(run, "kill", with_keytab, env=self.env)

        plain_job = {"name": "dies-with-its-tokens",
                     "tasks": {"worker": {"memory": "256 MiB", "command": "sleep 900"}}}
        submitted = run("submit", "--json", self.write_spec(plain_job, "plain.json"), env=self.env)
        self.assertEqual(submitted.returncode, 0, submitted.stderr)
        self.assertRegex(submitted.stderr, r"warning: the job's delegation tokens end at \d{4}-\d\d-\d\d \d\d:\d\d UTC")
        self.assertIn("--keytab", submitted.stderr)
        without_keytab = json.loads(submitted.stdout)["application_id"]
        self.addCleanup(run, "kill", without_keytab, env=self.env)

        # Both run. The job without a keytab names the end of its tokens; the one with a keytab
        # names none while new sets come in time (its tokens were issued within seconds of the
        # other's, so that end is its first too).
        deadline = time.time() + 240
        first_end = {}
        while time.time() < deadline and len(first_end) < 2:
            for application in (with_keytab, without_keytab):
                job = self.status(application)
                if job and any(t["phase"] == "running" for t in job["tasks"]):
                    first_end.setdefault(application, job.get("tokens_end_ms", 0))
            time.sleep(2)
        self.assertEqual(len(first_end), 2, first_end)
        self.assertGreater(first_end[without_keytab], time.time() * 1000, first_end)
        self.assertEqual(first_end[with_keytab], 0, "a job renewing its tokens announces no end")
        first_end[with_keytab] = first_end[without_keytab]
        staging = f"/user/{self.user}/.spindle"
        self.assertIn(with_keytab, webhdfs_list(staging, self.cache))
        self.assertIn("spindle.keytab", webhdfs_list(f"{staging}/{with_keytab}", self.cache))

        # The keytab is in the master's container and no other.
        app_dirs = [d for d in glob.glob(os.path.join(CLUSTER, "data", "**", with_keytab), recursive=True)
                    if os.path.isdir(d)]
        keytabs = [p for d in app_dirs for p in glob.glob(os.path.join(d, "**", "spindle.keytab"), recursive=True)
                   if "/container_" in p]
        self.assertTrue(keytabs, "the master's keytab was not found in a container under " + str(app_dirs))
        for path in keytabs:
            # container_[e<epoch>_]<cluster>_<application>_<attempt>_<number>: the master's is number 1.
            number = re.search(r"container_(?:e\d+_)?\d+_\d+_\d+_(\d+)/", path)
            self.assertTrue(number and int(number.group(1)) == 1, f"a task container holds the keytab: {path}")

        # Token passwords, watched throughout: the first ones and every set handed out after.
        passwords = set()

        def collect_tokens():
            for path in glob.glob(os.path.join(CLUSTER, "data", "**", "container_tokens"), recursive=True):
                if with_keytab[len("application_"):] in path or without_keytab[len("application_"):] in path:
                    try:
                        passwords.update(value for kind, value in token_passwords(path)
                                         if kind != "YARN_AM_RM_TOKEN")
                    except (OSError, AssertionError):
                        pass  # replaced while read

        # Past the first lifetime: the worker is killed and resumes from its checkpoint.
        while time.time() * 1000 < first_end[with_keytab] + 10_000:
            collect_tokens()
            time.sleep(5)
        pids = long_training_processes()
        self.assertEqual(len(pids), 1, "one worker command runs")
        os.kill(pids[0], signal.SIGKILL)

        # The job without a keytab fails within a minute of its tokens' end, saying why.
        deadline = first_end[without_keytab] / 1000 + 120
        record = {}
        while time.time() < deadline:
            record = json.loads(run("history", without_keytab, "--json", env=self.env).stdout)
            if record.get("state") in ("failed", "succeeded", "killed"):
                break
            collect_tokens()
            time.sleep(3)
        self.assertEqual(record.get("state"), "failed", record)
        self.assertIn("delegation tokens expired at", record["diagnostics"])
        self.assertIn("--keytab", record["diagnostics"])
        self.assertLess(record["finished_ms"] - first_end[without_keytab], 60_000, record)

        # After the second lifetime, TensorBoard serves what the job wrote since the first.
        while time.time() * 1000 < first_end[with_keytab] + LIFETIME_S * 1000 + 20_000:
            collect_tokens()
            time.sleep(5)
        job = self.status(with_keytab)
        self.assertEqual(job.get("tokens_end_ms", 0), 0, "new tokens are overdue: " + json.dumps(job)[:2000])
        board = next(t for t in job["tasks"] if t["task"] == "tensorboard:0")
        url = f"http://{board['address']}/data/plugin/scalars/scalars?run=.&tag=progress"
        with urllib.request.urlopen(url, timeout=30) as answer:
            scalars = json.loads(answer.read())
        written_late = [wall for wall, _step, _value in scalars if wall * 1000 > first_end[with_keytab] + 30_000]
        self.assertGreaterEqual(len(written_late), 3, scalars)

        # After the second lifetime the master dies; the next attempt logs in from the keytab and
        # adopts the running tasks.
        master = master_of(with_keytab)
        self.assertIsNotNone(master, "no application master process")
        os.kill(master, signal.SIGKILL)

        # The worker started again resumed from the checkpoint the first one wrote.
        outputs = ""
        for path in glob.glob(os.path.join(CLUSTER, "data", "**", with_keytab, "container_*", "stdout"),
                              recursive=True):
            with open(path, errors="replace") as log:
                outputs += log.read()
        self.assertRegex(outputs, r"resumed from hdfs://\S+/checkpoints/ckpt-\d+ at step [1-9]", outputs[-3000:])
        said_by_executors = ""
        for path in glob.glob(os.path.join(CLUSTER, "data", "**", with_keytab, "container_*", "stderr"),
                              recursive=True):
            with open(path, errors="replace") as log:
                said_by_executors += log.read()
        self.assertGreaterEqual(said_by_executors.count("new delegation tokens (generation"), 4, said_by_executors[-3000:])

        watched = run("watch", with_keytab, env=self.env, timeout=600)
        collect_tokens()
        self.assertEqual(watched.returncode, 0, watched.stdout + watched.stderr)
        record = json.loads(run("history", with_keytab, "--json", env=self.env).stdout)
        self.assertEqual(record["state"], "succeeded", record["diagnostics"])
        self.assertGreater(record["finished_ms"] - record["started_ms"], 2 * LIFETIME_S * 1000)
        self.assertEqual([m["attempt"] for m in record["master_attempts"]], [1, 2], record["master_attempts"])
        reattached = sorted(e["task"] for e in record["events"] if e["kind"] == "reattached")
        self.assertIn("tensorboard:0", reattached, record["events"])
        self.assertGreaterEqual(len(passwords), 4, "new tokens were handed out more than once")

        # The keytab left HDFS with the staging directory.
        deadline = time.time() + 30
        while with_keytab in webhdfs_list(staging, self.cache) and time.time() < deadline:
            time.sleep(1)
        self.assertNotIn(with_keytab, webhdfs_list(staging, self.cache))

        # Neither the keytab's bytes nor any token in anything Spindle says, logs or keeps.
        with open(READY["user_keytab"], "rb") as keytab:
            keytab_bytes = keytab.read()
        forms = set(forms_of(keytab_bytes))
        for password in passwords:
            forms |= forms_of(password)
        said = [watched.stdout.encode(), watched.stderr.encode()]
        for command in (["status", with_keytab, "--json"], ["history", with_keytab, "--json"],
                        ["logs", with_keytab], ["list", "--all", "--json"]):
            shown = run(*command, env=self.env)
            said += [shown.stdout.encode(), shown.stderr.encode()]
        written = {}
        for path in glob.glob(os.path.join(DATA_DIR, "history.sqlite*")):
            with open(path, "rb") as history:
                written[path] = history.read()
        for application in (with_keytab, without_keytab):
            for path in glob.glob(os.path.join(CLUSTER, "data", "**", application, "**", "*"), recursive=True):
                if (os.path.isfile(path) and "container_tokens" not in path and not path.endswith(".tokens")
                        and not path.endswith("spindle.keytab") and "/filecache/" not in path):
                    with open(path, "rb") as log:
                        written[path] = log.read()
        self.assertTrue(any(path.endswith("stderr") for path in written), "no container logs were searched")
        for form in forms:
            for index, text in enumerate(said):
                self.assertNotIn(form, text, f"a secret appears in output {index}")
            for path, content in written.items():
                self.assertNotIn(form, content, f"a secret appears in {path}")

    def test_a_keytab_sweep_submits_and_reads_its_trials_past_the_tokens_lifetime(self):
        """The controller logs in from the keytab and renews its tokens: it submits its second trial,
        reads its scalars and writes its record after the submit's tokens have died; each trial's
        master renews its own. The keytab goes to application masters only, and leaves with the sweep.
        The same sweep without a keytab fails when its tokens die, saying why."""
        started = time.time()
        output = "hdfs://" + self.base + "/sweep"
        # Trial 0 trains past the first lifetime; trial 1, started after it, for a minute.
        seconds = f"$(( $(date +%s) + ({{{{trial}}}} == 0 ? {LIFETIME_S + 30} : 60) ))"
        spec = {
            "name": "sweep-outlives-its-tokens",
            "output": output,
            "files": {"long_training.py": os.path.join(SOURCE, "tests/python/long_training.py")},
            "env": {"TF_CPP_MIN_LOG_LEVEL": "2"},
            "tasks": {"worker": {"memory": "1 GiB",
                                 "command": f"LONG_JOB_DIR={output}/trial-{{{{trial}}}} UNTIL={seconds} "
                                            "python long_training.py"}},
            "sweep": {"method": "grid", "parallel": 1, "metric": {"tag": "progress", "run": "logs",
                                                                   "goal": "maximize"},
                      "parameters": {"interval": [20, 30]}},
        }
        no_ticket = {"KRB5CCNAME": "FILE:" + os.path.join(self.directory, "no-ticket")}
        submitted = run("sweep", "submit", "--json", "--principal", READY["user_principal"], "--keytab",
                        READY["user_keytab"], self.write_spec(spec, "sweep.json"), env=no_ticket)
        self.assertEqual(submitted.returncode, 0, submitted.stderr)
        self.assertIn("its application master gets new ones from the keytab", submitted.stderr)
        sweep = json.loads(submitted.stdout)["sweep_id"]
        self.addCleanup(run, "sweep", "kill", sweep, env=self.env)
        staging = f"/user/{self.user}/.spindle"
        self.assertIn("spindle.keytab", webhdfs_list(f"{staging}/{sweep}", self.cache))

        # Beside it, the same sweep without a keytab, its trials a minute each: warned at submit, and
        # failed saying why once its tokens die, not left waiting on refusals.
        plain = dict(spec, name="sweep-dies-with-its-tokens", output=output + "-plain")
        plain["tasks"] = {"worker": {"memory": "512 MiB", "command": "sleep 60"}}
        plain["sweep"] = dict(spec["sweep"], parameters={"interval": [20, 30, 40, 50, 60]})
        submitted = run("sweep", "submit", "--json", self.write_spec(plain, "plain-sweep.json"), env=self.env)
        self.assertEqual(submitted.returncode, 0, submitted.stderr)
        self.assertRegex(submitted.stderr, r"warning: the job's delegation tokens end at \d{4}-\d\d-\d\d \d\d:\d\d UTC")
        plain_sweep = json.loads(submitted.stdout)["sweep_id"]
        plain_submitted = time.time()
        self.addCleanup(run, "sweep", "kill", plain_sweep, env=self.env)

        status = self.sweep_end(sweep, time.time() + 3 * LIFETIME_S + 240)
        self.assertEqual(status.get("state"), "succeeded", status)
        trials = {trial["trial"]: trial for trial in status["trials"]}
        self.assertEqual({trial["state"] for trial in trials.values()}, {"succeeded"}, status)
        # Trial 1 was submitted after the submit's tokens had died: by the controller's new ones.
        self.assertGreater(trials[1]["submitted_ms"] / 1000, started + LIFETIME_S, status)
        self.assertGreaterEqual(trials[1]["best"]["value"], 2, status)
        self.assertGreaterEqual(trials[0]["best"]["value"], LIFETIME_S // 30, status)

        # The sweep without a keytab failed within a minute of its tokens' end, saying so.
        plain_status = self.sweep_end(plain_sweep, plain_submitted + LIFETIME_S + 120)
        self.assertEqual(plain_status.get("state"), "failed", plain_status)
        self.assertIn("the sweep's delegation tokens expired at", plain_status["diagnostics"])
        self.assertIn("--principal and --keytab", plain_status["diagnostics"])
        self.assertLess(plain_status["ended_ms"] / 1000 - plain_submitted, LIFETIME_S + 60, plain_status)

        # The keytab was localized by application masters only: the controller's and each trial's.
        applications = [sweep] + [trial["application_id"] for trial in trials.values()]
        for application in applications:
            for path in glob.glob(os.path.join(CLUSTER, "data", "**", application, "**", "spindle.keytab"),
                                  recursive=True):
                if "/container_" not in path:
                    continue  # the node's copy for the application (filecache), linked into its containers
                number = re.search(r"container_(?:e\d+_)?\d+_\d+_\d+_(\d+)/", path)
                self.assertTrue(number and int(number.group(1)) == 1, f"a task container holds the keytab: {path}")
        # The controller logged in and renewed its tokens.
        said = ""
        for path in glob.glob(os.path.join(CLUSTER, "data", "**", sweep, "container_*", "stderr"), recursive=True):
            with open(path, errors="replace") as log:
                said += log.read()
        self.assertIn("new delegation tokens from the keytab", said, said[-3000:])
        # The keytab left HDFS with the sweep's staging directory.
        deadline = time.time() + 30
        while sweep in webhdfs_list(staging, self.cache) and time.time() < deadline:
            time.sleep(1)
        self.assertNotIn(sweep, webhdfs_list(staging, self.cache))


if __name__ == "__main__":
    unittest.main()
