"""Spindle on the secure local YARN of tests/yarn-cluster (Kerberos, MiniKdc):
a real TensorFlow job end to end with delegation tokens only inside YARN, the
sentence and exit code without a ticket, the job API's refusal of requests
without the job's secret, the TensorBoard proxy's refusal of somebody else's
job, and a search for the job's secret and tokens everywhere Spindle writes.

Run by ctest (label secure) with SPINDLE_CLI, SPINDLE_SOURCE_DIR,
SPINDLE_LOCAL_YARN_DIR (the secure cluster), HADOOP_CONF_DIR,
SPINDLE_STATE_DIR and SPINDLE_DATA_DIR set."""

import base64
import functools
import glob
import hashlib
import http.client as http_client
import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import time
import unittest
import urllib.error
import urllib.request

from faults_test import master_of
from jobs_on_yarn_test import assert_saved_model_serves, example_spec
from free_ports import free_port

SPINDLE = os.environ["SPINDLE_CLI"]
CLUSTER = os.environ["SPINDLE_LOCAL_YARN_DIR"]
STATE_DIR = os.environ["SPINDLE_STATE_DIR"]
DATA_DIR = os.environ["SPINDLE_DATA_DIR"]


def ready_line():
    with open(os.path.join(CLUSTER, "ready")) as ready:
        return dict(word.split("=", 1) for word in ready.read().split() if "=" in word)


READY = ready_line()
KERBEROS_DIR = os.path.dirname(READY["user_keytab"])


def cluster_has_tls():
    """Whether the cluster serves HTTPS alone (scripts/local-yarn --tls)."""
    try:
        with open(os.path.join(CLUSTER, "tls")) as tls:
            return tls.read().strip() == "true"
    except FileNotFoundError:
        return False


TLS = cluster_has_tls()
CA_FILE = os.path.join(CLUSTER, "tls-files", "ca.pem")


def kinit(principal, keytab, cache):
    done = subprocess.run(["kinit", "-kt", keytab, principal], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "KRB5_CONFIG": READY["krb5_conf"], "KRB5CCNAME": "FILE:" + cache})
    assert done.returncode == 0, done.stderr


def run(*args, env, timeout=600):
    return subprocess.run([SPINDLE, *args], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "KRB5_CONFIG": READY["krb5_conf"], **env})


def webhdfs_list(path, cache):
    """A WebHDFS listing through SPNEGO, as curl does it with the user's ticket.
    A path that does not exist has nothing in it; every other failure (a refused
    login above all) raises, as it says nothing about what is there."""
    scheme, trust = ("https", ["--cacert", CA_FILE]) if TLS else ("http", [])
    done = subprocess.run(["curl", "-s", *trust, "--negotiate", "-u", ":", "-w", "\n%{http_code}",
                           f"{scheme}://{READY['webhdfs']}/webhdfs/v1{path}?op=LISTSTATUS"],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "KRB5_CONFIG": READY["krb5_conf"], "KRB5CCNAME": "FILE:" + cache})
    body, _, status = done.stdout.rpartition("\n")
    if done.returncode != 0 or not status.isdigit():
        raise AssertionError(f"WebHDFS listing of {path} failed: curl exited {done.returncode}: {done.stderr}")
    if status == "404" and "FileNotFoundException" in body:
        return []
    answer = json.loads(body) if status == "200" else {}
    if "FileStatuses" not in answer:
        raise AssertionError(f"WebHDFS listing of {path} answered {status}: {body[:500]}")
    return sorted(item["pathSuffix"] for item in answer["FileStatuses"]["FileStatus"])


def read_vint(data, at):
    """Hadoop's WritableUtils variable-length integer."""
    first = data[at] if data[at] < 128 else data[at] - 256
    if first >= -112:
        return first, at + 1
    negative = first < -120
    length = (-119 - first) if negative else (-111 - first)
    value = 0
    for byte in data[at + 1:at + length]:
        value = (value << 8) | byte
    return (~value if negative else value), at + length


def read_bytes(data, at):
    length, at = read_vint(data, at)
    return data[at:at + length], at + length


def token_passwords(path):
    """The passwords (and whole identifiers) of the tokens in a credentials
    file in Hadoop's Writable format, and the values of its secret keys."""
    with open(path, "rb") as tokens:
        data = tokens.read()
    assert data[:4] == b"HDTS" and data[4] == 0, path
    found = []
    count, at = read_vint(data, 5)
    for _ in range(count):
        _alias, at = read_bytes(data, at)
        _identifier, at = read_bytes(data, at)
        password, at = read_bytes(data, at)
        kind, at = read_bytes(data, at)
        _service, at = read_bytes(data, at)
        found.append((kind.decode(), password))
    count, at = read_vint(data, at)
    for _ in range(count):
        alias, at = read_bytes(data, at)
        value, at = read_bytes(data, at)
        found.append((alias.decode(), value))
    return found


def forms_of(secret):
    """Every way a secret could be written out: raw, hex, Base64 of both alphabets."""
    forms = {secret, secret.hex().encode(), base64.b64encode(secret), base64.urlsafe_b64encode(secret).rstrip(b"=")}
    return {form for form in forms if len(form) >= 8}


def am_api_address(application, env):
    record = json.loads(run("history", application, "--json", env=env).stdout)
    for event in record["events"]:
        if "job API at " in event["message"]:
            return event["message"].rsplit("job API at ", 1)[1]
    return None


def http(method, url, secret=None, body=None, pin=None):
    """An exchange with the job API or a page; over https:// the server's certificate must have
    the SHA-256 `pin`, as Spindle's own clients check it."""
    if url.startswith("https://"):
        authority, _, path = url[len("https://"):].partition("/")
        host, _, port = authority.rpartition(":")
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        connection = http_client.HTTPSConnection(host, int(port), context=context, timeout=30)
        try:
            connection.connect()
            presented = hashlib.sha256(connection.sock.getpeercert(binary_form=True)).hexdigest()
            assert presented == pin, f"the job API presented certificate {presented}, not the job's {pin}"
            headers = {"X-Spindle-Secret": secret} if secret is not None else {}
            connection.request(method, "/" + path, body=body, headers=headers)
            answer = connection.getresponse()
            return answer.status, answer.read()
        finally:
            connection.close()
    request = urllib.request.Request(url, data=body.encode() if body else None, method=method)
    if secret is not None:
        request.add_header("X-Spindle-Secret", secret)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


class SecureJobs(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.mkdtemp(prefix="spindle-secure-test-")
        os.chmod(self.directory, 0o755)
        self.cache = os.path.join(self.directory, "root.ccache")
        kinit(READY["user_principal"], READY["user_keytab"], self.cache)
        self.env = {"KRB5CCNAME": "FILE:" + self.cache}

    def tearDown(self):
        shutil.rmtree(self.directory, ignore_errors=True)

    def wait_for_running(self, application, count, seconds=240):
        """The job's running tasks once `count` of them run."""
        deadline = time.time() + seconds
        running = {}
        while time.time() < deadline and len(running) < count:
            shown = run("status", application, "--json", env=self.env)
            if shown.returncode == 0 and json.loads(shown.stdout).get("job"):
                running = {t["task"]: t for t in json.loads(shown.stdout)["job"]["tasks"] if t["phase"] == "running"}
            time.sleep(1)
        self.assertEqual(len(running), count, shown.stdout + shown.stderr)
        return running

    def write_spec(self, spec, name="spec.json"):
        path = os.path.join(self.directory, name)
        with open(path, "w") as out:
            json.dump(spec, out)
        return path

    def test_without_a_ticket_nothing_is_submitted_and_the_sentence_says_kinit(self):
        user = READY["user_principal"].split("@")[0]
        # "Nothing staged" means something only if the listing shows what a submission stages.
        control = {"name": "staging-seen", "tasks": {"worker": {"command": "sleep 60"}}}
        accepted = run("submit", "--json", self.write_spec(control, "control.json"), env=self.env)
        self.assertEqual(accepted.returncode, 0, accepted.stderr)
        answer = json.loads(accepted.stdout)
        try:
            staged = webhdfs_list(f"/user/{user}/.spindle", self.cache)
        finally:
            killed = run("kill", answer["application_id"], env=self.env)
        self.assertIn(answer["application_id"], staged, f"the accepted job is not staged in /user/{user}/.spindle")
        self.assertTrue(answer["staging"].endswith(f"/user/{user}/.spindle/{answer['application_id']}"), answer)
        self.assertEqual(killed.returncode, 0, killed.stderr)
        staged_before = webhdfs_list(f"/user/{user}/.spindle", self.cache)
        listed = run("list", "--all", "--json", env=self.env)
        self.assertEqual(listed.returncode, 0, listed.stderr)
        known_before = {job["application_id"] for job in json.loads(listed.stdout)}

        empty = {"KRB5CCNAME": "FILE:" + os.path.join(self.directory, "no-ticket")}
        spec = {"name": "no-ticket", "tasks": {"worker": {"command": "true"}}}
        submitted = run("submit", self.write_spec(spec), env=empty)
        self.assertEqual(submitted.returncode, 3, submitted.stdout + submitted.stderr)
        self.assertIn("no Kerberos ticket", submitted.stderr)
        self.assertIn("kinit", submitted.stderr)
        self.assertEqual(len(submitted.stderr.strip().splitlines()), 1, submitted.stderr)

        for command in (["cluster", "info"], ["list", "--all"]):
            refused = run(*command, env=empty)
            self.assertEqual(refused.returncode, 3, command)
            self.assertIn("kinit", refused.stderr, command)

        self.assertEqual(webhdfs_list(f"/user/{user}/.spindle", self.cache), staged_before)
        listed = run("list", "--all", "--json", env=self.env)
        self.assertEqual({job["application_id"] for job in json.loads(listed.stdout)}, known_before)

    def test_the_submit_names_when_the_tokens_end_and_the_status_carries_it(self):
        # The cluster's tokens live at most Hadoop's default week; a timeout past it is warned of.
        spec = {"name": "outlives-its-tokens", "timeout": "200h", "tasks": {"worker": {"command": "sleep 60"}}}
        before_ms = time.time() * 1000
        submitted = run("submit", "--json", self.write_spec(spec), env=self.env)
        self.assertEqual(submitted.returncode, 0, submitted.stderr)
        application = json.loads(submitted.stdout)["application_id"]
        try:
            warning = [line for line in submitted.stderr.splitlines() if "delegation tokens end at" in line]
            self.assertEqual(len(warning), 1, submitted.stderr)
            self.assertTrue(warning[0].startswith("warning: the job's delegation tokens end at "), warning[0])
            self.assertIn("before its timeout of 200 h 0 min", warning[0])
            self.wait_for_running(application, 1)
            shown = json.loads(run("status", application, "--json", env=self.env).stdout)["job"]
            week_ms = 7 * 24 * 3600 * 1000
            self.assertLessEqual(before_ms + week_ms - 60_000, shown["tokens_end_ms"], shown)
            self.assertLessEqual(shown["tokens_end_ms"], time.time() * 1000 + week_ms, shown)
            self.assertIn(shown["tokens_end_kind"], ("HDFS_DELEGATION_TOKEN", "RM_DELEGATION_TOKEN"))
            # A week away is not near: the status table says nothing of it yet.
            table = run("status", application, env=self.env)
            self.assertNotIn("delegation tokens", table.stdout)
        finally:
            run("kill", application, env=self.env)

    def test_doctor_checks_a_secure_cluster_end_to_end(self):
        user = READY["user_principal"].split("@")[0]
        done = run("doctor", env=self.env, timeout=300)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        lines = done.stdout.splitlines()
        for start in ("OK    RPC protection: ", f"OK    staging: wrote and read back a file in hdfs://",
                      "OK    token lifetime: the job's delegation tokens live at most 7.0 days (",
                      # read from the ResourceManager's own configuration, which the bed leaves at the default
                      "OK    token renewal: jobs with --principal and --keytab renew their own tokens; the "
                      "ResourceManager does not renew as a proxy user",
                      "OK    application: "):
            self.assertEqual(len([line for line in lines if line.startswith(start)]), 1, (start, done.stdout))
        self.assertIn(f"/user/{user}/.spindle/spindle-doctor-", done.stdout)

    def test_a_spec_with_a_keytab_needs_no_ticket(self):
        empty = {"KRB5CCNAME": "FILE:" + os.path.join(self.directory, "no-ticket")}
        spec = {"name": "keytab-login", "tasks": {"worker": {"command": "echo trained"}},
                "kerberos": {"principal": READY["user_principal"], "keytab": READY["user_keytab"]}}
        submitted = run("submit", "--wait", "--json", self.write_spec(spec), env=empty)
        self.assertEqual(submitted.returncode, 0, submitted.stdout + submitted.stderr)
        self.assertEqual(json.loads(submitted.stdout)["final_status"], "SUCCEEDED", submitted.stdout)
        self.assertFalse(os.path.exists(os.path.join(self.directory, "no-ticket")),
                         "the keytab login must not write the user's credentials cache")

    def test_a_tensorflow_job_runs_end_to_end_and_keeps_its_secrets(self):
        output = os.path.join(self.directory, "output")
        spec = example_spec("wine-quality/wine_quality.yaml", output, check_environment=False)
        spec["env"]["TRAIN_STEPS"] = "3000"
        # The cluster's tokens live 30 s unless renewed: the chief stays long
        # enough for its job to outlive them thrice, so that the application
        # master's last use of its HDFS token (removing the staging directory)
        # works only if the ResourceManager renewed it.
        spec["tasks"]["chief"]["command"] += " && sleep 95"
        user = READY["user_principal"].split("@")[0]
        submitted = run("submit", "--json", self.write_spec(spec), env=self.env)
        self.assertEqual(submitted.returncode, 0, submitted.stderr)
        application = json.loads(submitted.stdout)["application_id"]

        # While it runs: the staging directory (so its absence later means something), the
        # containers' credentials, and the job API.
        running = self.wait_for_running(application, 3)
        self.assertIn(application, webhdfs_list(f"/user/{user}/.spindle", self.cache),
                      "the job's staging directory is not where this test looks for it")

        token_files = [f for f in glob.glob(os.path.join(CLUSTER, "data", "**", "container_tokens"), recursive=True)
                       if application[len("application_"):] in f]
        self.assertGreaterEqual(len(token_files), 4, "the AM's and three tasks' credentials")
        secrets = {}
        for path in token_files:
            for name, value in token_passwords(path):
                secrets.setdefault(name, set()).add(value)
        for kind in ("HDFS_DELEGATION_TOKEN", "RM_DELEGATION_TOKEN", "spindle.job.secret"):
            self.assertIn(kind, secrets, f"{kind} is not in the containers' credentials")
        with open(glob.glob(os.path.join(STATE_DIR, "**", application + ".json"), recursive=True)[0]) as record:
            saved = json.load(record)
        job_secret = saved["secret"]
        pin = saved.get("api_certificate_sha256", "")
        self.assertIn(job_secret.encode(), secrets["spindle.job.secret"])
        if TLS:
            # An encrypted cluster: the job API speaks TLS with the job's own certificate, whose
            # key only the master's credentials hold; the tasks get its pin.
            self.assertRegex(pin, "^[0-9a-f]{64}$")
            self.assertEqual(secrets.get("spindle.job.api.sha256"), {pin.encode()})
            holding_key = [path for path in token_files
                           if "spindle.job.api.key" in dict(token_passwords(path))]
            self.assertEqual(len(holding_key), 1, "only the master's credentials hold the API's key")

        api = am_api_address(application, self.env)
        self.assertIsNotNone(api)
        base = f"https://{api}" if TLS else f"http://{api}"
        if TLS:
            # Clear HTTP gets no answer at all.
            with self.assertRaises((http_client.HTTPException, ConnectionError, OSError)):
                host, _, port = api.rpartition(":")
                plain = http_client.HTTPConnection(host, int(port), timeout=10)
                plain.request("GET", "/v1/status", headers={"X-Spindle-Secret": job_secret})
                plain.getresponse()
        call = functools.partial(http, pin=pin)
        before = json.loads(call("GET", base + "/v1/status", job_secret)[1])
        chief = next(t for t in before["tasks"] if t["task"] == "chief:0")
        for secret in (None, "", "0" * 64, job_secret[:-1] + ("0" if job_secret[-1] != "0" else "1")):
            self.assertEqual(call("GET", base + "/v1/status", secret)[0], 401)
            self.assertEqual(call("GET", base + "/v1/cluster?after=0", secret)[0], 401)
            stolen = json.dumps({"host": "attacker.example", "port": 1, "container": chief["container"]})
            self.assertEqual(call("PUT", base + "/v1/tasks/chief/0", secret, stolen)[0], 401)
            ended = json.dumps({"container": chief["container"], "exit_code": 1, "description": "forged"})
            self.assertEqual(call("POST", base + "/v1/tasks/chief/0/result", secret, ended)[0], 401)
        after = json.loads(call("GET", base + "/v1/status", job_secret)[1])
        chief_after = next(t for t in after["tasks"] if t["task"] == "chief:0")
        self.assertEqual(chief_after["address"], chief["address"])
        self.assertEqual(chief_after["phase"], "running")
        page_status, page = call("GET", base + "/")
        self.assertEqual(page_status, 200)

        watched = run("watch", application, env=self.env, timeout=900)
        self.assertEqual(watched.returncode, 0, watched.stdout + watched.stderr)
        record = json.loads(run("history", application, "--json", env=self.env).stdout)
        self.assertEqual(record["state"], "succeeded", record["diagnostics"])
        # The chief really trained: the loss fell, every step ran, and the model it exported loads.
        with open(os.path.join(output, "training.json")) as report:
            training = json.load(report)
        self.assertEqual(training["steps"], 3000, training)
        self.assertLess(training["last_loss"], training["first_loss"], training)
        assert_saved_model_serves(os.path.join(output, "saved_model"))
        self.assertGreater(record["finished_ms"] - record["started_ms"], 95_000)
        deadline = time.time() + 30
        while application in webhdfs_list(f"/user/{user}/.spindle", self.cache) and time.time() < deadline:
            time.sleep(1)
        self.assertNotIn(application, webhdfs_list(f"/user/{user}/.spindle", self.cache),
                         "the staging directory is still there: was the HDFS token renewed?")

        # Everything Spindle showed, wrote or logged about the job.
        said = [page, watched.stdout.encode(), watched.stderr.encode()]
        for command in (["status", application], ["status", application, "--json"], ["history", application],
                        ["history", application, "--json"], ["list", "--all", "--json"], ["metrics", application],
                        ["logs", application], ["logs", application, "chief:0"]):
            shown = run(*command, env=self.env)
            said += [shown.stdout.encode(), shown.stderr.encode()]
        refused = run("status", application, env={"KRB5CCNAME": "FILE:" + os.path.join(self.directory, "none")})
        said.append(refused.stderr.encode())
        written = {}
        for path in glob.glob(os.path.join(DATA_DIR, "history.sqlite*")):
            with open(path, "rb") as history:
                written[path] = history.read()
        for path in glob.glob(os.path.join(CLUSTER, "data", "**", application, "**", "*"), recursive=True):
            if os.path.isfile(path) and "container_tokens" not in path and not path.endswith(".tokens"):
                with open(path, "rb") as log:
                    written[path] = log.read()
        self.assertTrue(any("stderr" in path for path in written), "no container logs were searched")
        forms = set(forms_of(job_secret.encode()))
        for name, values in secrets.items():
            if name == "YARN_AM_RM_TOKEN":
                continue
            for value in values:
                forms |= forms_of(value)
        for form in forms:
            for index, text in enumerate(said):
                self.assertNotIn(form, text, f"a secret appears in output {index}")
            for path, content in written.items():
                self.assertNotIn(form, content, f"a secret appears in {path}")

    def test_nothing_of_the_job_crosses_the_network_in_clear(self):
        """Under RPC privacy and TLS, a job's secret, its tokens' passwords, its cluster spec and
        what it prints never cross the network in clear: every packet on the loopback during the
        job (where this cluster's hosts all are) is recorded and searched."""
        if not TLS or open(os.path.join(CLUSTER, "protection")).read().strip() != "privacy":
            self.fail("this test needs the cluster at its strictest: scripts/local-yarn --secure --protection privacy --tls")
        capture = os.path.join(self.directory, "loopback.pcap")
        dump = subprocess.Popen(["tcpdump", "-i", "lo", "-U", "-s", "0", "-w", capture],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            self.assertIn("listening on lo", dump.stderr.readline())
            output = os.path.join(self.directory, "output")
            spec = example_spec("wine-quality/wine_quality.yaml", output, check_environment=False)
            spec["env"]["TRAIN_STEPS"] = "300"
            submitted = run("submit", "--json", self.write_spec(spec), env=self.env)
            self.assertEqual(submitted.returncode, 0, submitted.stderr)
            application = json.loads(submitted.stdout)["application_id"]
            # A second job prints a string and fails, so that its stderr travels: from its
            # executor to the master's API, to the ResourceManager's diagnostics and to this
            # client. The string is computed, so that the spec (staged in HDFS) does not hold it.
            prefix = "printed-by-the-job-" + base64.b32encode(os.urandom(10)).decode().lower() + "-"
            marker = prefix + "1337"
            printer = {"name": "printer", "tasks": {"chief": {"command": f"echo {prefix}$((1000 + 337)) >&2; exit 3"}}}
            printed = run("submit", "--json", self.write_spec(printer, "printer.json"), env=self.env)
            self.assertEqual(printed.returncode, 0, printed.stderr)
            printer_id = json.loads(printed.stdout)["application_id"]
            self.wait_for_running(application, 3)
            told = run("watch", printer_id, env=self.env, timeout=600)
            self.assertIn(marker, told.stdout + told.stderr, "the printed string did not reach the client")
            token_files = [f for f in glob.glob(os.path.join(CLUSTER, "data", "**", "container_tokens"),
                                                recursive=True) if application[len("application_"):] in f]
            passwords = {value for path in token_files for name, value in token_passwords(path)
                         if name.endswith("TOKEN") or name.startswith("spindle.job.api.key")}
            watched = run("watch", application, env=self.env, timeout=900)
            self.assertEqual(watched.returncode, 0, watched.stdout + watched.stderr)
        finally:
            dump.send_signal(signal.SIGINT)
            dump.wait(timeout=30)
        with open(glob.glob(os.path.join(STATE_DIR, "**", application + ".json"), recursive=True)[0]) as record:
            job_secret = json.load(record)["secret"]
        with open(capture, "rb") as recorded:
            traffic = recorded.read()
        # The capture saw the job's traffic: RPC connections open with a clear preamble.
        self.assertIn(b"hrpc", traffic)
        self.assertGreater(len(traffic), 100_000)
        self.assertGreater(len(passwords), 2, "the job's tokens were not found")
        self.assertNotIn(job_secret.encode(), traffic, "the job secret crossed the network in clear")
        self.assertNotIn(marker.encode(), traffic, "what the job printed crossed the network in clear")
        self.assertNotIn(b'"chief":["', traffic, "the cluster spec crossed the network as clear JSON")
        for password in passwords:
            for form in (password, base64.b64encode(password), password.hex().encode()):
                if len(form) >= 16:
                    self.assertNotIn(form, traffic, "a token password or the API's key crossed in clear")

    def test_a_restarted_master_adopts_its_tasks_with_tokens_only(self):
        # The executors find the next attempt through the ResourceManager with
        # the job's RM delegation token: nothing in a container holds a ticket.
        spec = example_spec("wine-quality/wine_quality.yaml", os.path.join(self.directory, "output"),
                            check_environment=False)
        spec["env"]["TRAIN_STEPS"] = "20000"
        spec["max_attempts"] = 2
        submitted = run("submit", "--json", self.write_spec(spec), env=self.env)
        self.assertEqual(submitted.returncode, 0, submitted.stderr)
        application = json.loads(submitted.stdout)["application_id"]
        running = self.wait_for_running(application, 3)
        master = master_of(application)
        self.assertIsNotNone(master, "no application master process")
        os.kill(master, signal.SIGKILL)

        watched = run("watch", application, env=self.env, timeout=900)
        self.assertEqual(watched.returncode, 0, watched.stdout + watched.stderr)
        record = json.loads(run("history", application, "--json", env=self.env).stdout)
        self.assertEqual(record["state"], "succeeded", record["diagnostics"])
        self.assertEqual([m["attempt"] for m in record["master_attempts"]], [1, 2], record["master_attempts"])
        reattached = sorted(e["task"] for e in record["events"] if e["kind"] == "reattached")
        self.assertEqual(reattached, sorted(running), record["events"])

    def test_the_tensorboard_proxy_refuses_somebody_elses_job(self):
        alice_cache = os.path.join(self.directory, "alice.ccache")
        kinit("alice@" + READY["realm"], os.path.join(KERBEROS_DIR, "alice.keytab"), alice_cache)
        alice_state = os.path.join(self.directory, "alice-state")
        alice = {"KRB5CCNAME": "FILE:" + alice_cache, "SPINDLE_STATE_DIR": alice_state,
                 "SPINDLE_DATA_DIR": os.path.join(self.directory, "alice-data")}
        spec = {"name": "alices-job", "tasks": {"worker": {"command": "sleep 120"},
                                                 "tensorboard": {"memory": "1 GiB"}},
                "output": os.path.join(self.directory, "alice-output")}
        submitted = run("submit", "--json", self.write_spec(spec), env=alice)
        self.assertEqual(submitted.returncode, 0, submitted.stderr)
        application = json.loads(submitted.stdout)["application_id"]
        try:
            # Her job's record, with its secret, has reached root's machine.
            records = glob.glob(os.path.join(alice_state, "**", application + ".json"), recursive=True)
            self.assertEqual(len(records), 1)
            mine = os.path.join(self.directory, "root-state")
            os.makedirs(os.path.join(mine, "jobs"))
            shutil.copy(records[0], os.path.join(mine, "jobs", application + ".json"))
            proxy = subprocess.Popen([SPINDLE, "tensorboard", application], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True,
                                     env={**os.environ, "KRB5_CONFIG": READY["krb5_conf"], **self.env,
                                          "SPINDLE_STATE_DIR": mine})
            try:
                url = proxy.stdout.readline().strip()
                self.assertTrue(url.startswith("http://"), proxy.stderr.read() if not url else url)
                status, body = http("GET", url)
                self.assertEqual(status, 403, body)
                self.assertIn(f"belongs to alice, not to {READY['user_principal'].split('@')[0]}".encode(), body)
            finally:
                proxy.terminate()
                proxy.wait(timeout=30)
        finally:
            run("kill", application, env=alice)

    def test_the_tensorboard_behind_tls_is_reached_through_the_proxy(self):
        """On an encrypted cluster the job's TensorBoard serves TLS alone, with a certificate its
        executor made, and the proxy reaches it by that certificate's pin."""
        if not TLS:
            self.fail("this test needs the cluster's traffic encrypted: scripts/local-yarn --secure --tls")
        spec = {"name": "tensorboard-behind-tls",
                "files": {"write_scalar_events.py": os.path.join(os.environ["SPINDLE_SOURCE_DIR"],
                                                                 "tests/python/write_scalar_events.py")},
                "env": {"TF_CPP_MIN_LOG_LEVEL": "2"},
                "output": os.path.join(self.directory, "output"),
                "tasks": {"chief": {"memory": "1 GiB",
                                    "command": 'python write_scalar_events.py "$DTF_OUTPUT_PATH" --steps 20 '
                                               "&& sleep 600"},
                          "tensorboard": {"memory": "1 GiB"}}}
        submitted = run("submit", "--json", self.write_spec(spec), env=self.env)
        self.assertEqual(submitted.returncode, 0, submitted.stderr)
        application = json.loads(submitted.stdout)["application_id"]
        proxy = None
        try:
            board = self.wait_for_running(application, 2)["tensorboard:0"]
            deadline = time.time() + 30
            while not board.get("certificate_sha256") and time.time() < deadline:
                time.sleep(1)
                board = self.wait_for_running(application, 2)["tensorboard:0"]
            pin = board.get("certificate_sha256", "")
            self.assertRegex(pin, "^[0-9a-f]{64}$", board)
            host, _, port = board["address"].rpartition(":")
            # Its port speaks TLS with the pinned certificate, and nothing in clear.
            context = ssl.create_default_context()
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
            with socket.create_connection((host, int(port)), timeout=30) as raw:
                with context.wrap_socket(raw) as secured:
                    presented = hashlib.sha256(secured.getpeercert(binary_form=True)).hexdigest()
            self.assertEqual(presented, pin)
            with socket.create_connection((host, int(port)), timeout=30) as raw:
                raw.sendall(b"GET / HTTP/1.1\r\nHost: tensorboard\r\n\r\n")
                answer = b""
                try:
                    while chunk := raw.recv(4096):
                        answer += chunk
                except (ConnectionResetError, socket.timeout):
                    pass
            self.assertNotIn(b"HTTP/1.", answer, "TensorBoard answered in clear")

            proxy = subprocess.Popen([SPINDLE, "tensorboard", application], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True,
                                     env={**os.environ, "KRB5_CONFIG": READY["krb5_conf"], **self.env})
            url = proxy.stdout.readline().strip()
            self.assertTrue(url.startswith("http://"), url)
            deadline = time.time() + 240
            tags = {}
            while time.time() < deadline and "train" not in tags:
                status, body = http("GET", url + "data/plugin/scalars/tags")
                if status == 200:
                    tags = json.loads(body)
                else:
                    self.assertEqual(status, 502, body)
                    time.sleep(1)
            self.assertIn("loss", tags.get("train", {}), "TensorBoard behind TLS never showed the chief's scalars")
            status, body = http("GET", url)
            self.assertEqual(status, 200, body)
            self.assertIn(b"<title>TensorBoard</title>", body)
        finally:
            if proxy:
                proxy.terminate()
                proxy.communicate(timeout=30)
            run("kill", application, env=self.env)


if __name__ == "__main__":
    unittest.main()


class Certificates(unittest.TestCase):
    """Web servers whose certificates the client must refuse, each with its own sentence: a TLS
    server (openssl s_server) stands in for the ResourceManager's web server in a copy of the
    cluster's client configuration; RPC still goes to the real ResourceManager."""

    def setUp(self):
        if not TLS:
            self.fail("these tests need the cluster's TLS (scripts/local-yarn --secure --tls)")
        self.directory = tempfile.mkdtemp(prefix="spindle-tls-test-")
        self.cache = os.path.join(self.directory, "root.ccache")
        kinit(READY["user_principal"], READY["user_keytab"], self.cache)
        self.conf = os.path.join(self.directory, "conf")
        shutil.copytree(os.path.join(CLUSTER, "conf"), self.conf)
        self.server = None

    def tearDown(self):
        if self.server:
            self.server.terminate()
            self.server.wait(timeout=30)
        shutil.rmtree(self.directory, ignore_errors=True)

    def serve(self, certificate, key, host="127.0.0.1"):
        """An HTTPS server with that certificate, named as the ResourceManager's web address."""
        port = free_port()
        files = os.path.join(CLUSTER, "tls-files")
        self.server = subprocess.Popen(["openssl", "s_server", "-quiet", "-www", "-accept", f"{host}:{port}",
                                        "-cert", os.path.join(files, certificate), "-key", os.path.join(files, key)],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 30
        while time.time() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex((host, port)) == 0:
                    break
            time.sleep(0.1)
        site = os.path.join(self.conf, "yarn-site.xml")
        with open(site) as f:
            text = f.read()
        text = re.sub(r"(<name>yarn\.resourcemanager\.webapp\.https\.address</name><value>)[^<]*(</value>)",
                      rf"\g<1>{host}:{port}\g<2>", text)
        with open(site, "w") as f:
            f.write(text)
        return f"https://{host}:{port}"

    def doctor(self):
        done = run("doctor", env={"HADOOP_CONF_DIR": self.conf, "KRB5CCNAME": "FILE:" + self.cache}, timeout=300)
        self.assertNotEqual(done.returncode, 0, done.stdout)
        return done.stdout + done.stderr

    def test_a_certificate_of_another_ca_is_refused_naming_the_endpoint(self):
        endpoint = self.serve("untrusted.pem", "untrusted.key")
        said = self.doctor()
        self.assertIn(f"the certificate of {endpoint} is not signed by a CA in the truststore "
                      f"{os.path.join(CLUSTER, 'tls-files', 'truststore.p12')}", said)
        self.assertIn("add the cluster's CA certificate to the truststore", said)

    def test_an_expired_certificate_is_refused(self):
        endpoint = self.serve("expired.pem", "expired.key")
        self.assertIn(f"the certificate of {endpoint} has expired; whoever runs that server must renew it",
                      self.doctor())

    def test_a_certificate_for_another_name_is_refused(self):
        # The cluster's own certificate, made out to localhost and 127.0.0.1, reached as 127.0.0.2.
        endpoint = self.serve("server.pem", "server.key", host="127.0.0.2")
        self.assertIn(f"the certificate of {endpoint} is not made out to 127.0.0.2", self.doctor())

    def test_a_java_keystore_is_the_truststore_its_sentences_name(self):
        jks = os.path.join(self.directory, "truststore.jks")
        keytool = os.path.join(os.path.dirname(os.path.realpath(shutil.which("java"))), "keytool")
        subprocess.run([keytool, "-importcert", "-noprompt", "-alias", "ca", "-storetype", "JKS",
                        "-file", os.path.join(CLUSTER, "tls-files", "ca.pem"), "-keystore", jks,
                        "-storepass", "changeit"], check=True, capture_output=True)
        client = os.path.join(self.conf, "ssl-client.xml")
        with open(client) as f:
            text = f.read()
        for key, value in (("location", jks), ("type", "jks"), ("password", "changeit")):
            text = re.sub(rf"(<name>ssl\.client\.truststore\.{key}</name><value>)[^<]*(</value>)",
                          rf"\g<1>{value}\g<2>", text)
        with open(client, "w") as f:
            f.write(text)
        # The cluster's CA comes from the JKS store: another CA's certificate is refused naming it.
        endpoint = self.serve("untrusted.pem", "untrusted.key")
        said = self.doctor()
        self.assertIn(f"the certificate of {endpoint} is not signed by a CA in the truststore {jks}", said)
        self.assertNotIn("Java KeyStore", said)
