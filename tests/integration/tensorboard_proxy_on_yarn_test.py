"""`spindle tensorboard` in front of a real job on the local YARN of
tests/yarn-cluster: its TensorBoard task serves, through the proxy, the
scalars the chief wrote with real TensorFlow; while TensorBoard starts the
page says so and retries; once the job is killed the page says it ended.

Run by ctest with SPINDLE_CLI, HADOOP_CONF_DIR, SPINDLE_SOURCE_DIR and
SPINDLE_STATE_DIR set."""

import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import unittest
import urllib.error
import urllib.request
from free_ports import free_port

SPINDLE = os.environ["SPINDLE_CLI"]
SOURCE = os.environ["SPINDLE_SOURCE_DIR"]

SPEC = """\
name: tensorboard-proxy
queue: default
files:
  write_scalar_events.py: {source}/tests/python/write_scalar_events.py
env:
  TF_CPP_MIN_LOG_LEVEL: "2"
output: {output}
tasks:
  chief:
    memory: 1 GiB
    vcores: 1
    command: python write_scalar_events.py "$DTF_OUTPUT_PATH" --steps 50 && sleep 600
  tensorboard:
    memory: 1 GiB
"""


def fetch(url, data=None):
    """(status, headers, body) whatever the status."""
    try:
        with urllib.request.urlopen(url, data=data, timeout=150) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


class TensorBoardProxyOnYarn(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.mkdtemp(prefix="spindle-tb-proxy-test-")
        os.chmod(self.directory, 0o755)
        self.application = None
        self.proxy = None

    def tearDown(self):
        if self.proxy:
            if self.proxy.poll() is None:
                self.proxy.kill()
                self.proxy.wait()
            self.proxy.stdout.close()
        if self.application:
            subprocess.run([SPINDLE, "kill", self.application], capture_output=True, timeout=120)
        shutil.rmtree(self.directory, ignore_errors=True)

    def test_proxy_serves_the_jobs_tensorboard_until_the_job_ends(self):
        spec = os.path.join(self.directory, "spec.yaml")
        with open(spec, "w") as out:
            out.write(SPEC.format(source=SOURCE, output=os.path.join(self.directory, "output")))
        submitted = subprocess.run([SPINDLE, "submit", "--json", spec], capture_output=True, text=True, timeout=300)
        self.assertEqual(submitted.returncode, 0, submitted.stderr)
        self.application = json.loads(submitted.stdout)["application_id"]

        port = free_port()
        self.proxy = subprocess.Popen([SPINDLE, "tensorboard", self.application, "--port", str(port)],
                                      stdout=subprocess.PIPE, text=True)
        url = self.proxy.stdout.readline().strip()
        self.assertEqual(url, f"http://127.0.0.1:{port}/tb/{self.application}/")

        # Until TensorBoard runs and has read the chief's events, the proxy answers
        # with a page that retries; nothing else.
        deadline = time.time() + 300
        tags = {}
        while time.time() < deadline:
            status, headers, body = fetch(url + "data/plugin/scalars/tags")
            if status == 200:
                tags = json.loads(body)
                if "train" in tags and "eval" in tags:
                    break
            else:
                self.assertEqual(status, 502, body)
                self.assertEqual(headers["Refresh"], "5")
            time.sleep(1)
        self.assertIn("loss", tags.get("train", {}), "TensorBoard never showed the chief's scalars")

        status, headers, body = fetch(url)
        self.assertEqual(status, 200)
        self.assertIn(b"<title>TensorBoard</title>", body)
        # TensorBoard loads event files in the background, a part at a time, so
        # the first answers may hold only some of the 50 steps; it must reach all
        # 50 of each run, and never more.
        deadline = time.time() + 120
        counts = {}
        while time.time() < deadline:
            status, _, body = fetch(url + "data/plugin/scalars/scalars_multirun", b"tag=loss&runs=train&runs=eval")
            self.assertEqual(status, 200, body)
            counts = {run: len(points) for run, points in json.loads(body).items()}
            self.assertLessEqual(max(counts.values(), default=0), 50, counts)
            if counts == {"train": 50, "eval": 50}:
                break
            time.sleep(1)
        self.assertEqual(counts, {"train": 50, "eval": 50})

        killed = subprocess.run([SPINDLE, "kill", self.application], capture_output=True, text=True, timeout=120)
        self.assertEqual(killed.returncode, 0, killed.stderr)
        deadline = time.time() + 60
        status = None
        while time.time() < deadline:
            status, _, body = fetch(url)
            if status == 410:
                break
            time.sleep(1)
        self.assertEqual(status, 410, body)
        self.assertIn(b"has ended", body)

        self.proxy.send_signal(signal.SIGINT)
        self.assertEqual(self.proxy.wait(timeout=30), 0)


if __name__ == "__main__":
    unittest.main()
