"""hdfs:// in TensorFlow through Spindle's file system plugin
(hdfs_bridge/, docs/outputs-on-hdfs.md), with no JVM and no libhdfs in the
training process.

- OnAGateway (the plain local YARN): a TensorFlow process outside any job
  loads the plugin with the documented line, its bridge being the `spindle`
  command, and uses every file operation TensorFlow's readers and writers
  use; Hadoop's own client (FsShell from the bed's jars) reads what
  TensorFlow wrote byte for byte, and TensorFlow reads what FsShell wrote.

Run by ctest (one test per case) with SPINDLE_CLI, HADOOP_CONF_DIR,
SPINDLE_SOURCE_DIR and SPINDLE_HDFS_PYTHON (the build's python directory:
the spindle_hdfs package with the plugin) set."""

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import unittest

import hdfs_outputs
from jobs_on_yarn_test import CONF, SPINDLE, cluster_user

HERE = os.path.dirname(os.path.abspath(__file__))
OPERATIONS = os.path.join(HERE, "tensorflow_hdfs_operations.py")
HOOK = os.environ["SPINDLE_HDFS_PYTHON"]
JARS = os.path.join(os.environ.get("SPINDLE_CACHE", os.path.expanduser("~/.cache/spindle")), "yarn-cluster")


def tensorflow(*args, timeout=300):
    """The operations script in a TensorFlow process of its own, as on a
    gateway: the package on PYTHONPATH, `spindle` as its bridge."""
    env = {**os.environ, "PYTHONPATH": HOOK, "SPINDLE_HDFS_BRIDGE": SPINDLE, "HADOOP_USER_NAME": cluster_user()}
    return subprocess.run([sys.executable, OPERATIONS, *args], capture_output=True, text=True, timeout=timeout,
                          env=env)


def fs_shell(*args, timeout=300):
    """Hadoop's own `hdfs dfs`, from the test bed's jars."""
    with open(os.path.join(JARS, "classpath.txt")) as classpath:
        jars = classpath.read().strip()
    return subprocess.run(["java", "-cp", f"{CONF}:{jars}", "org.apache.hadoop.fs.FsShell", *args],
                          capture_output=True, timeout=timeout,
                          env={**os.environ, "HADOOP_USER_NAME": cluster_user()})


class OnAGateway(unittest.TestCase):
    def setUp(self):
        path, _ = hdfs_outputs.fresh_output()
        self.base = "hdfs://" + path
        self.addCleanup(hdfs_outputs.remove, path)

    def test_every_operation_tensorflow_uses_and_hadoops_client_reads_it_byte_for_byte(self):
        done = tensorflow("write", self.base)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr[-4000:])
        found = json.loads(done.stdout.strip().splitlines()[-1])
        # A missing file is named in TensorFlow's error, with what HDFS said.
        self.assertIn(self.base + "/missing", found["missing_error"])

        # What TensorFlow wrote, as Hadoop's client reads it (-get: the bed's log lines go to standard output).
        with tempfile.TemporaryDirectory() as local:
            copy = os.path.join(local, "written.bin")
            get = fs_shell("-get", found["written"], copy)
            self.assertEqual(get.returncode, 0, get.stderr.decode(errors="replace")[-2000:])
            with open(copy, "rb") as read:
                data = read.read()
        self.assertEqual(len(data), found["size"])
        self.assertEqual(hashlib.sha256(data).hexdigest(), found["sha256"])

        # What Hadoop's client wrote, as TensorFlow reads it.
        data = hashlib.shake_256(b"from hadoop").digest(5 * 1024 * 1024 + 3)
        with tempfile.NamedTemporaryFile(suffix=".bin") as local:
            local.write(data)
            local.flush()
            put = fs_shell("-put", local.name, self.base + "/from-hadoop.bin")
        self.assertEqual(put.returncode, 0, put.stderr.decode(errors="replace")[-2000:])
        back = tensorflow("read", self.base + "/from-hadoop.bin", hashlib.sha256(data).hexdigest(), str(len(data)))
        self.assertEqual(back.returncode, 0, back.stdout + back.stderr[-4000:])

    def test_a_missing_bridge_is_one_sentence_naming_what_to_set(self):
        env = {**os.environ, "PYTHONPATH": HOOK, "SPINDLE_HDFS_BRIDGE": "/nonexistent/spindle"}
        done = subprocess.run([sys.executable, "-c", "import tensorflow as tf; tf.io.gfile.exists('hdfs:///x')"],
                              capture_output=True, text=True, timeout=300, env=env)
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("hdfs:///x: cannot start the HDFS bridge /nonexistent/spindle: No such file or directory",
                      done.stderr)


if __name__ == "__main__":
    unittest.main()
