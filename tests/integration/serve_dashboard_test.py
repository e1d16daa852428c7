"""`spindle serve` in a real browser (Debian's headless Chromium, driven
through ChromeDriver's WebDriver protocol) against the local YARN of
tests/yarn-cluster, with a real job: the spec is checked and submitted in the
page, its containers turn running without a reload, a task's log is
followed, the charts hold exactly the points TensorBoard reads, its
TensorBoard opens inside the page, and the job is killed from it. Also the
server's refusals: no token, another user's job, cross-site requests.

Run by ctest with SPINDLE_CLI, HADOOP_CONF_DIR, SPINDLE_SOURCE_DIR,
SPINDLE_STATE_DIR, SPINDLE_DATA_DIR and SPINDLE_SCREENSHOT_DIR set."""

import base64
import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request
from free_ports import free_port

SPINDLE = os.environ["SPINDLE_CLI"]
SOURCE = os.environ["SPINDLE_SOURCE_DIR"]
SCREENSHOTS = os.environ.get("SPINDLE_SCREENSHOT_DIR", tempfile.gettempdir())

SPEC = """\
name: dashboard-job
queue: default
files:
  write_scalar_events.py: {source}/tests/python/write_scalar_events.py
env:
  TF_CPP_MIN_LOG_LEVEL: "2"
output: {output}
tasks:
  chief:
    memory: 1 GiB
    command: echo dashboard-log-line && python write_scalar_events.py "$DTF_OUTPUT_PATH" --steps 50 && sleep 600
  tensorboard:
    memory: 1 GiB
"""


def request(url, data=None, headers=None, method=None):
    """(status, headers, body) whatever the status."""
    call = urllib.request.Request(url, data=data, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(call, timeout=120) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def wait_for(what, check, seconds=180, every=0.25):
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("waited %d s for %s" % (seconds, what))
        time.sleep(every)


def addresses_of_this_machine():
    shown = subprocess.run(["ip", "-4", "-o", "addr", "show"], capture_output=True, text=True, check=True).stdout
    return [line.split()[3].split("/")[0] for line in shown.splitlines()]


class Browser:
    """Headless Chromium through ChromeDriver (W3C WebDriver over HTTP). On this machine, or on another
    host when `launch` runs its command there and `host` is that host's address; `args` go to Chromium."""

    def __init__(self, host="127.0.0.1", launch=(), args=()):
        self.host = host
        self.port = free_port()
        remote = ["--allowed-ips=" + ",".join(addresses_of_this_machine())] if launch else []
        # A session of its own, so that stopping it stops the driver and not only a launching script.
        self.driver = subprocess.Popen([*launch, "chromedriver", "--port=%d" % self.port, *remote],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        wait_for("chromedriver", lambda: self.alive(), seconds=30)
        self.profile = tempfile.mkdtemp(prefix="spindle-chromium-")
        try:
            answer = self.call("POST", "/session", {"capabilities": {"alwaysMatch": {
                "browserName": "chrome",
                "goog:chromeOptions": {"binary": "/usr/bin/chromium", "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900",
                    "--user-data-dir=" + self.profile, "--lang=en-US", *args]}}}})
            self.session = answer["value"]["sessionId"]
        except BaseException:
            # No browser to close: the driver and the profile go here.
            self.stop_driver()
            shutil.rmtree(self.profile, ignore_errors=True)
            raise

    def alive(self):
        try:
            with urllib.request.urlopen("http://%s:%d/status" % (self.host, self.port), timeout=2) as answer:
                return json.load(answer)["value"]["ready"]
        except OSError:
            return False

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        call = urllib.request.Request("http://%s:%d%s" % (self.host, self.port, path), data=data, method=method,
                                      headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(call, timeout=120) as answer:
                return json.load(answer)
        except urllib.error.HTTPError as error:
            raise AssertionError("WebDriver %s %s: %s" % (method, path, error.read().decode()))

    def session_call(self, method, path, body=None):
        return self.call(method, "/session/%s%s" % (self.session, path), body)["value"]

    def open(self, url):
        self.session_call("POST", "/url", {"url": url})

    def run(self, script, *args):
        return self.session_call("POST", "/execute/sync", {"script": script, "args": list(args)})

    def press(self, key):
        """One key as a keyboard gives it (WebDriver key codes: Tab \\ue004, Enter \\ue007, Space \\ue00d)."""
        self.session_call("POST", "/actions", {"actions": [{"type": "key", "id": "keyboard", "actions": [
            {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]}]})

    def choose_file(self, selector, path):
        """The browser's own file chooser given `path`, as a person would pick it."""
        chooser = self.session_call("POST", "/element", {"using": "css selector", "value": selector})
        self.session_call("POST", "/element/%s/value" % next(iter(chooser.values())), {"text": path})

    def submit_for_job(self, seconds):
        """Clicks the submit page's Submit and waits for the job's page: the job's application id."""
        self.run("document.getElementById('submit').click()")
        hash_ = wait_for("the job's page", lambda: (lambda h: h.startswith("#/job/") and h)(
            self.run("return location.hash")), seconds)
        return hash_.split("/")[2]

    def both_themes(self, name):
        """A screenshot in the light theme and one in the dark, switched with the page's own button."""
        for theme in ("light", "dark"):
            if self.run("return document.documentElement.dataset.theme") != theme:
                self.run("document.getElementById('theme').click()")
                time.sleep(0.5)
            self.screenshot("%s-%s" % (name, theme))

    def screenshot(self, name):
        png = base64.b64decode(self.session_call("GET", "/screenshot"))
        os.makedirs(SCREENSHOTS, exist_ok=True)
        with open(os.path.join(SCREENSHOTS, "serve-" + name + ".png"), "wb") as out:
            out.write(png)

    def close(self):
        try:
            self.call("DELETE", "/session/" + self.session)
        finally:
            self.stop_driver()
            shutil.rmtree(self.profile, ignore_errors=True)

    def stop_driver(self):
        try:
            os.killpg(self.driver.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        self.driver.wait(30)


class DashboardInBrowser(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.mkdtemp(prefix="spindle-serve-test-")
        os.chmod(self.directory, 0o755)
        self.server = subprocess.Popen([SPINDLE, "serve"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.url = self.server.stdout.readline().strip()
        self.assertIn("?token=", self.url, self.server.stderr.read() if not self.url else self.url)
        parts = urllib.parse.urlsplit(self.url)
        self.base = "%s://%s" % (parts.scheme, parts.netloc)
        self.token = urllib.parse.parse_qs(parts.query)["token"][0]
        self.jobs = []

    def tearDown(self):
        for job in self.jobs:
            subprocess.run([SPINDLE, "kill", job], capture_output=True, timeout=120)
        self.server.terminate()
        self.server.wait(60)
        shutil.rmtree(self.directory, ignore_errors=True)

    def api(self, path, data=None, headers=None):
        headers = dict(headers or {})
        headers.setdefault("Authorization", "Bearer " + self.token)
        status, _, body = request(self.base + "/api/v1/" + path, data=data, headers=headers,
                                  method="POST" if data is not None else None)
        return status, json.loads(body or b"{}")

    def test_refusals_without_the_token_across_sites_and_for_another_users_job(self):
        status, _, body = request(self.base + "/api/v1/jobs")
        self.assertEqual(status, 401, body)
        status, _, _ = request(self.base + "/api/v1/jobs", headers={"Authorization": "Bearer " + "0" * 64})
        self.assertEqual(status, 403)
        # A page of another site may neither post a form here nor script one.
        status, answer = self.api("submit", data=b"name: x", headers={"Content-Type": "text/plain"})
        self.assertEqual(status, 403, answer)
        self.assertIn("X-Spindle-Request", answer["error"])
        status, answer = self.api("submit", data=b"name: x",
                                  headers={"X-Spindle-Request": "1", "Origin": "http://evil.example"})
        self.assertEqual(status, 403, answer)
        self.assertIn("evil.example", answer["error"])
        status, answer = self.api("submit", data=b"name: x",
                                  headers={"X-Spindle-Request": "1", "Sec-Fetch-Site": "cross-site"})
        self.assertEqual(status, 403, answer)
        # The page itself: strict policy, and no framing by anyone.
        status, headers, _ = request(self.base + "/", headers={"Authorization": "Bearer " + self.token})
        self.assertEqual(status, 200)
        policy = headers["Content-Security-Policy"]
        self.assertIn("script-src 'self'", policy)
        self.assertIn("frame-ancestors 'none'", policy)
        # A job of another user is neither shown nor killed.
        env = dict(os.environ, HADOOP_USER_NAME="someone-else")
        submitted = subprocess.run([SPINDLE, "submit", "-r", "worker:1", "--", "sleep", "120"], env=env,
                                   capture_output=True, text=True, timeout=300)
        self.assertEqual(submitted.returncode, 0, submitted.stderr)
        other = submitted.stdout.split()[-1]
        try:
            for path, data in (("jobs/" + other, None), ("jobs/" + other + "/kill", b"")):
                status, answer = self.api(path, data=data, headers={"X-Spindle-Request": "1"})
                self.assertEqual(status, 403, answer)
                self.assertIn("belongs to someone-else", answer["error"])
            status, answer = self.api("jobs")
            self.assertEqual(status, 200)
            self.assertNotIn(other, [job["application_id"] for job in answer["jobs"]])
        finally:
            subprocess.run([SPINDLE, "kill", other], env=env, capture_output=True, timeout=120)

    def test_a_job_submitted_followed_charted_and_killed_in_the_browser(self):
        browser = Browser()
        try:
            self.run_job_in(browser)
        finally:
            browser.close()

    def test_a_sweep_its_trials_chart_comparison_and_a_stopped_trial_in_the_browser(self):
        validated = subprocess.run([SPINDLE, "validate", "--json",
                                    os.path.join(SOURCE, "resources/examples/wine-sweep/wine_sweep.yaml")],
                                   capture_output=True, text=True, timeout=120)
        self.assertEqual(validated.returncode, 0, validated.stderr)
        answer = json.loads(validated.stdout)
        spec = answer["spec"]
        spec.pop("python_env", None)  # the single-host cluster hands containers the venv of scripts/setup
        spec["name"] = "sweep-in-browser"
        spec["output"] = "hdfs:///tmp/spindle-serve-sweep-%d" % os.getpid()
        spec["env"]["TRAIN_STEPS"] = "600"  # a minute of training: long enough to stop one from the page
        spec["sweep"] = {**answer["sweep"], "method": "grid", "parallel": 3, "early_stopping": {"rule": "none"},
                         "parameters": {"learning_rate": ["0.02", "0.1", "0.3"]}}
        spec["sweep"].pop("trials", None)
        path = os.path.join(self.directory, "sweep.json")
        with open(path, "w") as out:
            json.dump(spec, out)
        submitted = subprocess.run([SPINDLE, "sweep", "submit", "--json", path], capture_output=True, text=True,
                                   timeout=300)
        self.assertEqual(submitted.returncode, 0, submitted.stderr)
        sweep = json.loads(submitted.stdout)["sweep_id"]
        try:
            browser = Browser()
            try:
                browser.open(self.url)
                self.wait_page(browser, "jobs")
                browser.open(self.base + "/#/sweeps")
                self.wait_page(browser, "sweeps")
                self.assertTrue(browser.run("return !!document.querySelector('#sweeps tr[data-sweep=\"%s\"]')" % sweep))
                browser.open(self.base + "/#/sweep/" + sweep)
                self.wait_page(browser, "sweep")
                rows = lambda: browser.run("return Array.from(document.querySelectorAll('#trials tr[data-trial]'))"
                                           ".map(row => row.querySelector('[data-state]').dataset.state)")
                self.assertEqual(len(rows()), 3)
                # Every trial runs, and the chart fills with the points the trials log, without a reload.
                wait_for("three running trials", lambda: rows() == ["running"] * 3, 300, 1)
                wait_for("the chart of every trial", lambda: browser.run(
                    "return document.querySelectorAll('[data-chart=sweep] .u-legend .u-series').length") == 4, 120, 1)
                # Two ticked trials are compared side by side, and charted alone.
                browser.run("document.getElementById('pick-0').click(); document.getElementById('pick-2').click()")
                compared = browser.run("return document.getElementById('comparison').innerText")
                status = json.loads(subprocess.run([SPINDLE, "sweep", "status", "--json", sweep], capture_output=True,
                                                   text=True, timeout=120).stdout)
                rates = [trial["parameters"]["learning_rate"] for trial in status["trials"]]
                self.assertIn("learning_rate\t%s\t%s" % (rates[0], rates[2]), compared)
                self.assertEqual(browser.run(
                    "return document.querySelectorAll('[data-chart=sweep] .u-legend .u-series').length"), 3)
                # Pictures of a chart with a few points of each trial, and the best trial named.
                wait_for("a few points of every trial", lambda: (lambda series: len(series) == 3 and all(
                    len(points) >= 3 for points in series.values()))(self.api("sweeps/" + sweep)[1]["series"]),
                    120, 1)
                wait_for("the page to name the best trial and chart both ticked trials", lambda: browser.run(
                    "return document.getElementById('best').textContent") != "\u2014" and browser.run(
                    "return document.querySelector('[data-chart=sweep]').dataset.drawn") == "2", 30, 1)
                browser.both_themes("sweep")
                # Trial 1 stopped from the page ends as stopped by the sweep; the others run on.
                browser.run("window.confirm = () => true; document.getElementById('stop-1').click()")
                wait_for("trial 1 stopped", lambda: rows()[1] == "stopped by the sweep", 120, 1)
                self.assertEqual([rows()[0], rows()[2]], ["running", "running"])
                why = browser.run("return document.querySelector('#trials tr[data-trial=\"1\"] td.why').innerText")
                self.assertIn("stopped by its owner", why)
                # Killing the sweep from the page stops the rest. YARN may say the controller was killed a
                # moment before the record says so of its trials: the page shows both as they come.
                browser.run("window.confirm = () => true; document.getElementById('kill-sweep').click()")
                wait_for("the sweep and its running trials killed", lambda: browser.run(
                    "return document.querySelector('h1 + .state').textContent") == "killed" and
                    [rows()[0], rows()[2]] == ["killed", "killed"], 120, 1)
            finally:
                browser.close()
        finally:
            subprocess.run([SPINDLE, "sweep", "kill", sweep], capture_output=True, timeout=300)

    def test_a_file_only_the_browsers_machine_has_is_attached_and_runs(self):
        # The spec names the file where it is on the laptop; the server's machine has nothing there.
        laptop = os.path.join(self.directory, "laptop")
        os.makedirs(laptop)
        script = os.path.join(laptop, "attached.py")
        with open(script, "w") as out:
            out.write("print('attached-script-ran')\n")
        elsewhere = "/nonexistent-laptop-dir/attached.py"
        spec = ("name: attached-file\nframework: generic\nfiles:\n  attached.py: %s\n"
                "tasks:\n  worker:\n    memory: 512 MiB\n    command: python3 attached.py\n" % elsewhere)
        browser = Browser()
        try:
            browser.open(self.url)
            browser.open(self.base + "/#/submit")
            self.wait_page(browser, "submit")
            browser.run("const box = document.getElementById('spec-text'); box.value = arguments[0];"
                        "box.dispatchEvent(new Event('input'))", spec)
            wait_for("the file to attach", lambda: browser.run("return !!document.getElementById('attach-0')"), 60)
            self.assertTrue(browser.run("return !!document.getElementById('valid')"))
            self.assertIn("files: attached.py (%s)" % elsewhere,
                          browser.run("return document.getElementById('attachments').innerText"))
            # The browser's own file chooser, given the laptop's file as a person would pick it.
            browser.choose_file("#attach-0", script)
            wait_for("the file attached", lambda: "attached: attached.py" in browser.run(
                "return document.getElementById('attachments').innerText"), 30)
            browser.both_themes("submit-attached")
            job = browser.submit_for_job(120)
        finally:
            browser.close()
        self.jobs.append(job)
        wait_for("the job to finish", lambda: self.api("jobs/" + job)[1].get("job", {}).get("finished"), 300, 1)
        self.assertEqual(self.api("jobs/" + job)[1]["job"]["final_status"], "SUCCEEDED")
        # Right after the end, the NodeManagers may still be collecting the logs (503 says so).
        status, log = wait_for("the worker's log", lambda: (lambda answer: answer[0] != 503 and answer)(
            self.api("jobs/%s/logs?task=worker:0&file=stdout" % job)), 120, 1)
        self.assertEqual(status, 200, log)
        self.assertIn("attached-script-ran", log["text"])
        # What the server wrote for the submit is gone once the job is staged.
        self.assertEqual([name for name in os.listdir(tempfile.gettempdir())
                          if name.startswith("spindle-serve-upload-")], [])

    def test_every_control_is_reached_and_used_by_keyboard(self):
        browser = Browser()
        try:
            browser.open(self.url)
            self.wait_page(browser, "jobs")
            focused = "const e = document.activeElement; return [e.tagName, e.id || e.dataset.nav || " \
                      "e.getAttribute('type') || e.className, getComputedStyle(e).outlineStyle]"

            def tab_to(name):
                # Every job of the list is a link on the way, so the bound is what the page holds now:
                # the list grows while other tests submit jobs, and is redrawn live (keeping the focus).
                def most():
                    return 20 + browser.run("return document.querySelectorAll("
                                            "'a[href], button, input, select, textarea, [tabindex]').length")
                walked = []
                while len(walked) < most():
                    browser.press("\ue004")
                    walked.append(browser.run(focused))
                    if walked[-1][1] == name:
                        return walked
                raise AssertionError("Tab never reached %s; it went %s" % (name, walked))

            # Tab goes from the page's content round through the header and back: every control
            # is reached, the header's in reading order, each drawn with its focus ring.
            walk = tab_to("search")
            walk += tab_to("search")
            names = [each[1] for each in walk]
            for wanted in ("jobs", "cluster", "submit", "theme", "language", "checkbox", "search"):
                self.assertIn(wanted, names, walk)
            header = [names.index(each) for each in ("jobs", "cluster", "submit", "theme", "language")]
            self.assertEqual(header, sorted(header), walk)
            for tag, name, outline in walk:
                if tag in ("A", "BUTTON", "INPUT"):
                    self.assertNotEqual(outline, "none", (tag, name, walk))
            # Keys do what clicks do: the language, the theme, then a page.
            tab_to("language")
            browser.press("\ue007")
            wait_for("German", lambda: browser.run("return document.documentElement.lang") == "de", 10)
            self.assertEqual(browser.run("return document.querySelector('[data-nav=submit]').textContent"), "Starten")
            # Drawn again in the new language, the page may move the focus; back to the button.
            tab_to("language")
            browser.press("\ue007")
            wait_for("English", lambda: browser.run("return document.documentElement.lang") == "en", 10)
            theme = browser.run("return document.documentElement.dataset.theme")
            tab_to("theme")
            browser.press("\ue00d")
            wait_for("the other theme", lambda: browser.run("return document.documentElement.dataset.theme") != theme,
                     10)
            tab_to("cluster")
            browser.press("\ue007")
            self.wait_page(browser, "cluster")
            self.assertEqual(browser.run("return location.hash"), "#/cluster")
        finally:
            browser.close()

    def wait_page(self, browser, view):
        wait_for("the %s page" % view, lambda: browser.run("return document.body.dataset.ready") == view, 60)

    def run_job_in(self, browser):
        browser.open(self.url)
        self.wait_page(browser, "jobs")
        loaded = browser.run("const entries = performance.getEntriesByType('resource')"
                             ".concat(performance.getEntriesByType('navigation'));"
                             "return [entries.reduce((sum, e) => sum + (e.transferSize || 0), 0),"
                             "performance.getEntriesByType('navigation')[0].loadEventEnd]")
        print("first load: %d bytes in %.0f ms" % (loaded[0], loaded[1]))
        # The token went into a cookie; the address no longer carries it.
        self.assertNotIn("token=", browser.run("return location.href"))
        browser.both_themes("jobs")

        # Submit: the spec is checked beside the text, then submitted.
        spec = SPEC.format(source=SOURCE, output=os.path.join(self.directory, "output"))
        browser.open(self.base + "/#/submit")
        self.wait_page(browser, "submit")
        browser.run("const box = document.getElementById('spec-text'); box.value = arguments[0] + 'tasks: 3\\n';"
                    "box.dispatchEvent(new Event('input'))", spec)
        problems = wait_for("the spec's problems", lambda: browser.run(
            "const list = document.getElementById('problems'); return list && list.innerText"), 30)
        self.assertIn("tasks", problems)
        browser.run("const box = document.getElementById('spec-text'); box.value = arguments[0];"
                    "box.dispatchEvent(new Event('input'))", spec)
        wait_for("the spec judged valid", lambda: browser.run("return !!document.getElementById('valid')"), 60)
        fit = browser.run("return document.getElementById('verdict').innerText")
        self.assertIn("chief: fits now", fit)
        browser.both_themes("submit")
        browser.run("document.getElementById('submit').click()")
        hash_ = wait_for("the job's page", lambda: (lambda h: h.startswith("#/job/") and h)(
            browser.run("return location.hash")), 120)
        job = hash_.split("/")[2]
        self.jobs.append(job)
        self.wait_page(browser, "job")

        # Containers turn running while the page stays open. Beside the page, the CLI asks the
        # application master directly, which gives the page's delay.
        version_before = browser.run("return Number(document.body.dataset.version || 0)")
        seen = {}
        direct = {}
        stop = threading.Event()

        def ask_directly():
            while not stop.is_set() and len([key for key in direct if key.endswith("=running")]) < 2:
                answer = subprocess.run([SPINDLE, "status", job, "--json"], capture_output=True, text=True)
                now = time.time()
                if answer.returncode in (0, 1) and answer.stdout.strip():
                    for task in (json.loads(answer.stdout).get("job") or {}).get("tasks", []):
                        direct.setdefault(task["task"] + "=" + task["phase"], now)

        watcher = threading.Thread(target=ask_directly)
        watcher.start()

        def running():
            phases = browser.run("return Array.from(document.querySelectorAll('#containers tr[data-task]'))"
                                 ".map(row => row.dataset.task + '=' + row.querySelector('[data-phase]').dataset.phase)")
            now = time.time()
            for phase in phases or []:
                seen.setdefault(phase, now)
            return phases and all(p.endswith("=running") for p in phases) and len(phases) == 2

        try:
            wait_for("both containers running", running, 240, every=0.05)
        finally:
            stop.set()
            watcher.join()
        self.assertGreater(browser.run("return Number(document.body.dataset.version || 0)"), version_before)
        self.assertIn("chief:0=running", seen)
        for key in sorted(set(seen) & set(direct)):
            if key.endswith("=running"):
                print("live update: %s shown %.2f s after the application master said so" %
                      (key, seen[key] - direct[key]))
        browser.both_themes("job")

        # Follow the chief's log.
        browser.open(self.base + "/#/job/%s/logs/chief:0" % job)
        self.wait_page(browser, "job")
        browser.run("const choice = document.getElementById('log-file'); choice.value = 'stdout';"
                    "choice.dispatchEvent(new Event('change'))")
        wait_for("the chief's log line", lambda: "dashboard-log-line" in (
            browser.run("return document.getElementById('log').textContent") or ""), 120)
        browser.both_themes("logs")

        # Charts hold what TensorBoard reads, point for point.
        browser.open(self.base + "/#/job/%s/charts" % job)
        self.wait_page(browser, "job")

        def charted():
            points = browser.run("return (window.spindleCharts ? window.spindleCharts.points : [])"
                                 ".filter(p => p.source === 'tfevents')")
            by_series = {}
            for point in points:
                by_series.setdefault((point["run"], point["tag"]), {})[point["step"]] = point["value"]
            full = [key for key, steps in by_series.items() if len(steps) == 50]
            return len(full) == 4 and by_series

        series = wait_for("50 points of loss and accuracy in both runs", charted, 300, every=1)
        for (run, tag), steps in series.items():
            def tensorboard_reading():
                status, _, body = request(
                    self.base + "/tb/%s/data/plugin/scalars/scalars?run=%s&tag=%s" % (job, run, tag),
                    headers={"Authorization": "Bearer " + self.token})
                # 502 while TensorBoard starts; then it may still be loading the files.
                if status != 200:
                    return None
                points = json.loads(body)
                return len(points) == len(steps) and points

            read = {step: value for _, step, value in wait_for("TensorBoard's reading of %s/%s" % (run, tag),
                                                               tensorboard_reading, 180, every=1)}
            self.assertEqual(sorted(read), sorted(steps), (run, tag))
            for step, value in read.items():
                self.assertAlmostEqual(steps[step], value, places=5, msg=(run, tag, step))
        # The containers' memory and CPU, from the executors' samples, beside the training scalars.
        wait_for("the containers' memory and CPU charts", lambda: browser.run(
            "return !!document.querySelector('.chart[data-chart=memory] canvas') && "
            "!!document.querySelector('.chart[data-chart=cpu] canvas')"), 120, every=1)
        drawn = browser.run("return document.querySelectorAll('.chart canvas').length")
        self.assertGreaterEqual(drawn, 4)
        browser.both_themes("charts")

        # TensorBoard inside the page, through the same server.
        browser.open(self.base + "/#/job/%s/tensorboard" % job)
        self.wait_page(browser, "job")
        wait_for("TensorBoard in its frame", lambda: browser.run(
            "const frame = document.getElementById('tensorboard');"
            "return !!(frame && frame.contentDocument && frame.contentDocument.querySelector('tf-tensorboard, tb-webapp'))"),
            120, every=1)
        time.sleep(3)
        browser.both_themes("tensorboard")

        # The cluster view.
        browser.open(self.base + "/#/cluster")
        self.wait_page(browser, "cluster")
        nodes = browser.run("return document.querySelectorAll('#nodes tr[data-node]').length")
        self.assertGreaterEqual(nodes, 2)
        browser.both_themes("cluster")

        # German.
        browser.run("document.getElementById('language').click()")
        wait_for("German words", lambda: browser.run("return document.querySelector('[data-nav=submit]').textContent")
                 == "Starten", 10)
        self.assertTrue(browser.run("return document.getElementById('user').textContent").startswith("handelt als"))
        browser.screenshot("cluster-de")
        browser.run("document.getElementById('language').click()")

        # Kill from the job's page.
        browser.open(self.base + "/#/job/%s" % job)
        self.wait_page(browser, "job")
        browser.run("window.confirm = () => true; document.getElementById('kill').click()")
        wait_for("the job killed", lambda: self.api("jobs/" + job)[1].get("job", {}).get("state") == "killed", 120)
        wait_for("the page saying so", lambda: "killed" in browser.run(
            "return document.querySelector('.toolbar .state').textContent"), 30)
        self.jobs.remove(job)


if __name__ == "__main__":
    unittest.main()
