"""hdfs:// in TensorFlow through Spindle's file system plugin
(hdfs_bridge/, docs/outputs-on-hdfs.md), with no JVM and no libhdfs in the
training process.

- OnAGateway (the plain local YARN): a TensorFlow process outside any job
  loads the plugin with the documented line, its bridge being the `spindle`
  command, and uses every file operation TensorFlow's readers and writers
  use; Hadoop's own client (FsShell from the bed's jars) reads what
  TensorFlow wrote byte for byte, and TensorFlow reads what FsShell wrote.
- AcrossHosts (the hosts that share nothing but HDFS, with an HA
  nameservice): the tensorflow-on-hdfs example, whose every path is an
  hdfs://spindle-ns/ URI, reads a TFRecord data set that Hadoop's client put
  there, trains with MultiWorkerMirroredStrategy on two hosts, writes
  checkpoints, summaries and a SavedModel; its evaluator follows the
  checkpoints and its TensorBoard serves the scalars from HDFS; afterwards a
  fresh process loads the SavedModel from hdfs:// and predicts.
- FaultsAcrossHosts (the same hosts): a NameNode failover while TensorFlow
  writes checkpoints loses none of them, and a DataNode cut off while
  tf.data reads a data set leaves the read whole, from the other replicas.

Run by ctest (one test per case) with SPINDLE_CLI, HADOOP_CONF_DIR,
SPINDLE_SOURCE_DIR and SPINDLE_HDFS_PYTHON (the build's python directory:
the spindle_hdfs package with the plugin) set."""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.request

import hdfs_outputs
from free_ports import free_port
from jobs_on_yarn_test import CONF, SOURCE, SPINDLE, cluster_user, configuration, spindle

HERE = os.path.dirname(os.path.abspath(__file__))
OPERATIONS = os.path.join(HERE, "tensorflow_hdfs_operations.py")
HOOK = os.environ["SPINDLE_HDFS_PYTHON"]
JARS = os.path.join(os.environ.get("SPINDLE_CACHE", os.path.expanduser("~/.cache/spindle")), "yarn-cluster")


def tensorflow(*args, timeout=300):
    """The operations script in a TensorFlow process of its own, as on a
    gateway: the package on PYTHONPATH, `spindle` as its bridge."""
    return subprocess.run([sys.executable, OPERATIONS, *args], capture_output=True, text=True, timeout=timeout,
                          env=gateway_env())


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

    def test_a_cluster_that_encrypts_block_transfers_over_plain_http_is_refused_in_one_sentence(self):
        """WebHDFS over HTTP would carry in clear what the cluster encrypts on its own block transfers."""
        with tempfile.TemporaryDirectory() as conf:
            for name in os.listdir(CONF):
                if os.path.isfile(os.path.join(CONF, name)):
                    shutil.copy(os.path.join(CONF, name), conf)
            with open(os.path.join(conf, "hdfs-site.xml")) as site:
                text = site.read()
            with open(os.path.join(conf, "hdfs-site.xml"), "w") as site:
                site.write(text.replace("</configuration>", "<property><name>dfs.encrypt.data.transfer</name>"
                                                            "<value>true</value></property></configuration>"))
            done = subprocess.run([sys.executable, "-c", "import tensorflow as tf; tf.io.gfile.exists('hdfs:///x')"],
                                  capture_output=True, text=True, timeout=300,
                                  env={**gateway_env(), "HADOOP_CONF_DIR": conf})
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("this cluster encrypts its block transfers (dfs.encrypt.data.transfer is true) but its WebHDFS "
                      "speaks plain HTTP", done.stderr)
        self.assertIn("hdfs:///x: the HDFS bridge ended without answering (it exited with status 2", done.stderr)

    def test_a_missing_bridge_is_one_sentence_naming_what_to_set(self):
        env = {**os.environ, "PYTHONPATH": HOOK, "SPINDLE_HDFS_BRIDGE": "/nonexistent/spindle"}
        done = subprocess.run([sys.executable, "-c", "import tensorflow as tf; tf.io.gfile.exists('hdfs:///x')"],
                              capture_output=True, text=True, timeout=300, env=env)
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("hdfs:///x: cannot start the HDFS bridge /nonexistent/spindle: No such file or directory",
                      done.stderr)


EXAMPLE = os.path.join(SOURCE, "resources/examples/tensorflow-on-hdfs")


FAULTS = os.path.join(HERE, "tensorflow_hdfs_faults.py")
LOCAL_YARN = os.path.join(SOURCE, "scripts/local-yarn")


def local_yarn_hosts(*args):
    done = subprocess.run([LOCAL_YARN, "--hosts", *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def nameservice():
    """The cluster's file system as users name it: its HA nameservice, else its NameNode."""
    return configuration("dfs.nameservices") or configuration("fs.defaultFS").split("//")[1].split("/")[0]


def gateway_env():
    return {**os.environ, "PYTHONPATH": HOOK, "SPINDLE_HDFS_BRIDGE": SPINDLE, "HADOOP_USER_NAME": cluster_user()}


class AcrossHosts(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.mkdtemp(prefix="spindle-tensorflow-hdfs-")
        os.chmod(self.directory, 0o755)
        self.addCleanup(shutil.rmtree, self.directory, True)
        self.path, _ = hdfs_outputs.fresh_output()
        self.addCleanup(hdfs_outputs.remove, self.path)
        # The nameservice by name, as users of an HA cluster write it.
        self.base = "hdfs://" + nameservice() + self.path

    def put_data(self):
        """The wine records, made by TensorFlow here and put in HDFS by Hadoop's own client."""
        local = os.path.join(self.directory, "data")
        made = subprocess.run([sys.executable, os.path.join(EXAMPLE, "make_data.py"), local], capture_output=True,
                              text=True, timeout=300)
        self.assertEqual(made.returncode, 0, made.stderr[-3000:])
        for args in (["-mkdir", "-p", self.path + "/data"],
                     ["-put", os.path.join(local, "train.tfrecord"), os.path.join(local, "test.tfrecord"),
                      self.path + "/data"]):
            done = fs_shell(*args)
            self.assertEqual(done.returncode, 0, done.stderr.decode(errors="replace")[-2000:])

    def spec(self):
        import yaml

        with open(os.path.join(EXAMPLE, "tensorflow_on_hdfs.yaml")) as shipped:
            spec = yaml.safe_load(shipped)
        for name in list(spec["files"]):
            spec["files"][name] = os.path.normpath(os.path.join(EXAMPLE, spec["files"][name]))
        # TensorFlow is in the hosts' image (every host sees this venv), as in the other tests of these hosts.
        del spec["python_env"]
        spec["env"].update({"DATA": self.base + "/data", "MODEL_DIR": self.base + "/model",
                            "PATH": f"{os.path.dirname(sys.executable)}:/usr/bin:/bin", "TRAIN_STEPS": "100",
                            "CHECKPOINT_EVERY": "20", "STEP_SECONDS": "0.3"})
        for task in spec["tasks"].values():
            task["memory"] = "2560 MiB" if task is spec["tasks"]["worker"] else "1 GiB"
        path = os.path.join(self.directory, "job.json")
        with open(path, "w") as out:
            json.dump(spec, out)
        return path

    def scalars_while_it_runs(self, application_id, deadline):
        """TensorBoard's tags through `spindle tensorboard`, until it shows the training loss and the
        evaluator's accuracy (both read by TensorBoard from HDFS), or the job ends."""
        port = free_port()
        proxy = subprocess.Popen([SPINDLE, "tensorboard", application_id, "--port", str(port)],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        tags = {}
        try:
            url = proxy.stdout.readline().strip()
            self.assertTrue(url.startswith("http://"), f"spindle tensorboard printed no address: {url!r}")
            while time.monotonic() < deadline and not ("loss" in tags.get("train", {})
                                                       and "accuracy" in tags.get("eval", {})):
                try:
                    with urllib.request.urlopen(url + "data/plugin/scalars/tags", timeout=60) as answer:
                        tags = json.load(answer)
                except urllib.error.HTTPError as error:
                    self.assertEqual(error.code, 502, error.read())
                except urllib.error.URLError:
                    pass
                time.sleep(1)
        finally:
            proxy.kill()
            proxy.wait()
            proxy.stdout.close()
            proxy.stderr.close()
        return tags

    def test_a_job_reads_trains_checkpoints_evaluates_and_serves_scalars_through_hdfs_alone(self):
        self.put_data()
        submitted = spindle("submit", self.spec(), "--json")
        self.assertEqual(submitted.returncode, 0, submitted.stdout + submitted.stderr)
        application_id = json.loads(submitted.stdout)["application_id"]
        self.addCleanup(spindle, "kill", application_id)
        tags = self.scalars_while_it_runs(application_id, time.monotonic() + 600)
        self.assertIn("loss", tags.get("train", {}), f"TensorBoard never showed the training loss: {tags}")
        self.assertIn("accuracy", tags.get("eval", {}), f"TensorBoard never showed the evaluator's accuracy: {tags}")
        watched = spindle("watch", application_id, timeout=600)
        self.assertEqual(watched.returncode, 0, watched.stdout[-2000:] + watched.stderr[-3000:])
        status = json.loads(spindle("status", application_id, "--json").stdout)
        self.assertEqual(status["final_status"], "SUCCEEDED", status)
        hosts = {task["node"].split(":")[0] for task in status["job"]["tasks"] if task["task"].startswith("worker")}
        self.assertEqual(len(hosts), 2, f"the two workers ran on {hosts}")

        training = json.loads(hdfs_outputs.read(self.path + "/model/training.json"))
        self.assertEqual(training["replicas"], 2, training)
        self.assertLess(training["last_loss"], training["first_loss"], training)
        held = hdfs_outputs.tree(self.path + "/model")
        for wanted in ("checkpoints/checkpoint", "checkpoints/ckpt-100.index", "saved_model/saved_model.pb"):
            self.assertIn(wanted, held)
        self.assertTrue(any(name.startswith("train/events.out.tfevents") for name in held), held)
        self.assertTrue(any(name.startswith("eval/events.out.tfevents") for name in held), held)
        self.assertFalse([name for name in held if name.startswith("replicas/")], "worker 1's scratch is left")

        # A fresh process, outside the job, loads the model from HDFS and predicts.
        served = subprocess.run([sys.executable, os.path.join(SOURCE, "tests/python/saved_model_predict.py"),
                                 self.base + "/model/saved_model"], capture_output=True, text=True, timeout=300,
                                env=gateway_env())
        self.assertEqual(served.returncode, 0, served.stderr[-3000:])
        self.assertGreaterEqual(json.loads(served.stdout.strip().splitlines()[-1])["accuracy"], 0.85)


class FaultsAcrossHosts(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.mkdtemp(prefix="spindle-tensorflow-hdfs-faults-")
        self.addCleanup(shutil.rmtree, self.directory, True)
        self.path, _ = hdfs_outputs.fresh_output()
        self.addCleanup(hdfs_outputs.remove, self.path)
        self.base = "hdfs://" + nameservice() + self.path

    def start(self, *args):
        with open(os.path.join(self.directory, "stderr"), "w") as stderr:
            process = subprocess.Popen([sys.executable, FAULTS, *args], stdout=subprocess.PIPE, stderr=stderr,
                                       text=True, env=gateway_env())

        def stop():
            if process.poll() is None:
                process.kill()
            process.wait()
            process.stdout.close()

        self.addCleanup(stop)
        return process

    def stderr(self):
        with open(os.path.join(self.directory, "stderr")) as err:
            return "".join(line for line in err if not line.startswith(("I0000", "WARNING: All")))[-4000:]

    def next_report(self, process):
        line = process.stdout.readline()
        self.assertTrue(line, "the TensorFlow process ended early: " + self.stderr())
        return json.loads(line)

    def test_a_namenode_failover_while_tensorflow_writes_checkpoints_loses_none(self):
        stop = os.path.join(self.directory, "stop")
        process = self.start("checkpoints", self.base + "/checkpoints", stop)
        saves = [self.next_report(process)]
        failover_started = time.time()
        said = local_yarn_hosts("failover-nn")
        failover_ended = time.time()
        self.assertRegex(said, r"^nn[12] is active")
        open(stop, "w").close()
        saves += [json.loads(line) for line in process.stdout]
        self.assertEqual(process.wait(timeout=600), 0, self.stderr())
        # Every save was read back whole; at least one was under way while the NameNodes changed places.
        self.assertTrue(any(save["started"] < failover_ended and save["ended"] > failover_started for save in saves),
                        f"no save overlapped the failover ({failover_started}-{failover_ended}): {saves}")

    def test_a_datanode_cut_off_while_tf_data_reads_leaves_the_read_whole(self):
        data = hashlib.shake_256(b"the data set").digest(160 * 1024 * 1024)
        local = os.path.join(self.directory, "data.bin")
        with open(local, "wb") as out:
            out.write(data)
        made = fs_shell("-mkdir", "-p", self.path)
        self.assertEqual(made.returncode, 0, made.stderr.decode(errors="replace")[-2000:])
        put = fs_shell("-D", "dfs.replication=2", "-put", local, self.path + "/data.bin")
        self.assertEqual(put.returncode, 0, put.stderr.decode(errors="replace")[-2000:])
        # The host the NameNode names first for a block of the second half: the reader meets the cut there.
        with hdfs_outputs._call(self.path + "/data.bin", "GETFILEBLOCKLOCATIONS") as answer:
            blocks = json.load(answer)["BlockLocations"]["BlockLocation"]
        late = next(block for block in blocks if block["offset"] + block["length"] > len(data) * 3 // 4)
        host = late["hosts"][0]
        self.assertTrue(host.startswith("spindle-node"), late)
        process = self.start("read", self.base + "/data.bin", hashlib.sha256(data).hexdigest(), str(len(data)))
        first = self.next_report(process)
        cut = time.time()
        local_yarn_hosts("partition", host)
        try:
            reports = [first] + [json.loads(line) for line in process.stdout]
            self.assertEqual(process.wait(timeout=900), 0, self.stderr())
        finally:
            local_yarn_hosts("heal", host)
        after = [report["read"] for report in reports if report.get("at", 0) > cut]
        self.assertGreater(max(after, default=0) - first["read"], len(data) // 2, "the read was not under way at the cut")
        gaps = [b["at"] - a["at"] for a, b in zip(reports, reports[1:]) if "at" in a and "at" in b]
        print(f"cut {host} off; the longest wait between two reports was {max(gaps, default=0):.1f} s")
        self.assertTrue(reports and reports[-1].get("done"), reports[-3:])


if __name__ == "__main__":
    unittest.main()
