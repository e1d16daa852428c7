"""What a job needs on nodes that have nothing of ours, on the hosts of the local YARN of several
hosts (scripts/local-yarn --hosts): the container binary runs in a root directory that holds
nothing but itself, and resolves names from that root's /etc/hosts; TensorFlow jobs run with the
Python environment they ship (python_env), which each node localizes once.

Run by ctest (label cluster) like cluster_test.py. Needs root (chroot, mount, the hosts' namespaces)."""

import glob
import json
import os
import secrets
import sys
import shutil
import socket
import subprocess
import tempfile
import unittest

import ha_test
import hdfs_outputs
from ha_test import status_of
from jobs_on_yarn_test import SOURCE, assert_saved_model_serves, example_spec, spindle

LOCAL_YARN = os.path.join(SOURCE, "scripts/local-yarn")
CONTAINER_BINARY = os.path.join(os.path.dirname(os.environ["SPINDLE_CLI"]), "spindle-container")
MASTER_HOST = "spindle-master"
WORKER_HOST = "spindle-node1"
# Known only to the roots' own /etc/hosts, not to this machine's: a lookup that succeeds read the root's.
API_NAME = "job-api.self-check"


def on_host(host, *command):
    return [LOCAL_YARN, "--hosts", "exec", host, *command]


class EmptyRoot:
    """A root directory on a host with the binary, /proc, /dev/null and an /etc/hosts; nothing else.
    It is in the host's /tmp, which this machine reaches as data/hosts/HOST/tmp; its mounts are the
    host's."""

    def __init__(self, host, hosts_lines):
        self.host = host
        host_tmp = os.path.join(os.environ["SPINDLE_LOCAL_YARN_DIR"], "data/hosts", host, "tmp")
        self.path = tempfile.mkdtemp(prefix="spindle-empty-root-", dir=host_tmp)
        self.path_on_host = "/tmp/" + os.path.basename(self.path)
        for directory in ("etc", "proc", "dev"):
            os.mkdir(os.path.join(self.path, directory))
        shutil.copy2(CONTAINER_BINARY, os.path.join(self.path, "spindle-container"))
        with open(os.path.join(self.path, "etc/hosts"), "w") as hosts:
            hosts.write("\n".join(hosts_lines) + "\n")
        open(os.path.join(self.path, "dev/null"), "w").close()
        self.mounts = []
        self._mount(["--bind", "/dev/null"], "dev/null")
        self._mount(["-t", "proc", "proc"], "proc")

    def _mount(self, source, target):
        target = os.path.join(self.path_on_host, target)
        subprocess.run(on_host(self.host, "mount", *source, target), check=True)
        self.mounts.append(target)

    def files(self):
        found = []
        for directory, subdirectories, names in os.walk(self.path):
            if directory == os.path.join(self.path, "proc"):
                subdirectories.clear()
                continue
            found += [os.path.relpath(os.path.join(directory, name), self.path) for name in names]
        return sorted(found)

    def run(self, *args, **popen):
        return subprocess.Popen(on_host(self.host, "chroot", self.path_on_host, "/spindle-container", *args),
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **popen)

    def remove(self):
        for target in reversed(self.mounts):
            subprocess.run(on_host(self.host, "umount", target), check=False)
        shutil.rmtree(self.path, ignore_errors=True)


class ContainerBinaryInAnEmptyRoot(unittest.TestCase):
    def setUp(self):
        self.master_address = socket.gethostbyname(MASTER_HOST)
        self.worker_address = socket.gethostbyname(WORKER_HOST)
        with self.assertRaises(OSError, msg=f"{API_NAME} must be unknown outside the roots"):
            socket.gethostbyname(API_NAME)
        hosts = [f"{self.master_address} {MASTER_HOST} {API_NAME}", f"{self.worker_address} {WORKER_HOST}"]
        self.master_root = EmptyRoot(MASTER_HOST, hosts)
        self.addCleanup(self.master_root.remove)
        self.worker_root = EmptyRoot(WORKER_HOST, hosts)
        self.addCleanup(self.worker_root.remove)

    def test_version_then_a_master_and_an_executor_on_two_hosts(self):
        self.assertEqual(self.worker_root.files(), ["dev/null", "etc/hosts", "spindle-container"])
        own_version = spindle("--version").stdout.split()[1]
        printed = self.worker_root.run("--version").communicate(timeout=30)[0]
        self.assertEqual(printed, f"spindle-container {own_version}\n")

        secret = secrets.token_hex(16)
        master = self.master_root.run("self-check", "master", "--listen", API_NAME, "--secret", secret)
        self.addCleanup(master.kill)
        master_lines = []
        while True:
            line = master.stdout.readline()
            self.assertTrue(line, "the self-check master ended early:\n" + "".join(master_lines))
            master_lines.append(line)
            if " job API at " in line:
                api = line.rsplit(" ", 1)[1].strip()
                break
        self.assertIn(f"{API_NAME} resolves to {self.master_address}\n", "".join(master_lines))
        self.assertTrue(api.startswith(API_NAME + ":"), api)

        task = self.worker_root.run("self-check", "task", "--api", api, "--secret", secret, "--host",
                                       WORKER_HOST)
        task_output = task.communicate(timeout=120)[0]
        self.assertEqual(task.returncode, 0, task_output)
        self.assertIn(f"registered at {WORKER_HOST}:", task_output)
        self.assertIn(f'ran a program, which printed "spindle-container {own_version}"', task_output)

        master_output = "".join(master_lines) + master.communicate(timeout=30)[0]
        self.assertEqual(master.returncode, 0, master_output)
        self.assertIn(f"worker:0 registered from {WORKER_HOST}:", master_output)


# The environment these tests run in: the venv of scripts/setup, with TensorFlow.
CURRENT_ENV = {"VIRTUAL_ENV": sys.prefix}
WORKERS = ["spindle-node1", "spindle-node2", "spindle-node3"]


def localized_copies(name):
    """Per worker host, the NodeManager's cached copies of the archive `name`."""
    data = os.path.join(os.environ["SPINDLE_LOCAL_YARN_DIR"], "data/hosts")
    return {host: sorted(glob.glob(f"{data}/{host}/nm-local/usercache/*/filecache/*/{name}")) for host in WORKERS}


class PythonEnvTest(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.mkdtemp(prefix="spindle-python-env-")
        os.chmod(self.directory, 0o755)
        self.addCleanup(shutil.rmtree, self.directory, True)

    def write_spec(self, spec, name="spec.json"):
        path = os.path.join(self.directory, name)
        with open(path, "w") as out:
            json.dump(spec, out)
        return path

    def one_task_spec(self, command, python_env=None, memory="1 GiB"):
        spec = {"name": "python-env-check", "framework": "tensorflow",
                "tasks": {"worker": {"instances": 1, "memory": memory, "command": command}}}
        if python_env:
            spec["python_env"] = python_env
        return self.write_spec(spec)

    def submit(self, spec, env=None):
        submitted = spindle("submit", "--json", spec, env=env)
        self.assertEqual(submitted.returncode, 0, submitted.stderr)
        return json.loads(submitted.stdout), submitted.stderr

    def run_to_end(self, spec, env=None):
        answer, progress = self.submit(spec, env)
        ha_test.wait_for(answer["application_id"], timeout=900)
        return answer, status_of(answer["application_id"]), progress

    def make_venv(self, name):
        venv = os.path.join(self.directory, name)
        subprocess.run([os.path.join(sys.base_prefix, "bin/python3"), "-m", "venv", "--without-pip", venv], check=True)
        return venv


class WithoutPythonEnv(PythonEnvTest):
    def test_a_tensorflow_job_fails_naming_the_missing_module_and_the_task(self):
        spec = self.one_task_spec("python3 -c 'import tensorflow'")
        _, status, _ = self.run_to_end(spec)
        self.assertEqual(status["final_status"], "FAILED", status)
        self.assertIn("worker:0", status["diagnostics"])
        self.assertIn("No module named 'tensorflow'", status["diagnostics"])


class CurrentEnvironment(PythonEnvTest):
    def test_the_parameter_server_example_succeeds_and_a_second_job_uploads_and_localizes_nothing(self):
        packed = spindle("env", "pack", "current", env=CURRENT_ENV)
        self.assertEqual(packed.returncode, 0, packed.stderr)
        name = os.path.basename(packed.stdout.strip())
        spindle("env", "rm", name)  # so that this test sees the first upload, whatever ran before
        output_path, output = hdfs_outputs.fresh_output()
        self.addCleanup(hdfs_outputs.remove, output_path)
        spec = example_spec("parameter-server/parameter_server.yaml", output, check_environment=False)
        spec["python_env"] = "current"
        first, status, progress = self.run_to_end(self.write_spec(spec), env=CURRENT_ENV)
        self.assertEqual(status["final_status"], "SUCCEEDED", status)
        self.assertEqual(first["python_env"]["name"], name)
        self.assertGreater(first["python_env"]["uploaded_bytes"], 100 * 1024 * 1024)
        self.assertEqual(first["python_env"]["uploaded_bytes"], first["python_env"]["bytes"])
        written = hdfs_outputs.tree(output_path)
        self.assertIn("saved_model/saved_model.pb", written, sorted(written))
        assert_saved_model_serves(hdfs_outputs.download(f"{output_path}/saved_model",
                                                        os.path.join(self.directory, "saved_model")))
        hosts = {task["node"].split(":")[0] for task in status["job"]["tasks"]}
        self.assertGreaterEqual(len(hosts), 2, status["job"]["tasks"])
        # TensorBoard, a service that could fail without failing the job, ran from the environment.
        board = next(task for task in status["job"]["tasks"] if task["task"] == "tensorboard:0")
        self.assertNotEqual(board["phase"], "failed", board)
        self.assertEqual(board["restarts"], 0, board)
        # The job has just ended: --follow waits for the NodeManagers to finish collecting its logs.
        logs = spindle("logs", first["application_id"], "tensorboard:0", "--follow", timeout=300)
        self.assertEqual(logs.returncode, 0, logs.stderr)
        self.assertIn("TensorBoard", logs.stdout + logs.stderr)

        copies_before = localized_copies(name)
        for host in hosts:
            self.assertEqual(len(copies_before[host]), 1, f"{host} ran a task but holds {copies_before[host]}")
        check = self.one_task_spec("python -c 'import sys, tensorflow; print(\"TF from\", sys.prefix)'",
                                   python_env="current")
        second, status, progress = self.run_to_end(check, env=CURRENT_ENV)
        self.assertEqual(status["final_status"], "SUCCEEDED", status)
        self.assertEqual(second["python_env"]["name"], name)
        self.assertEqual(second["python_env"]["uploaded_bytes"], 0)
        self.assertFalse(second["python_env"]["packed_now"])
        self.assertIn("already; 0 bytes uploaded", progress)
        copies_after = localized_copies(name)
        for host in WORKERS:
            if copies_before[host]:
                self.assertEqual(copies_after[host], copies_before[host], f"{host} localized {name} again")
            self.assertLessEqual(len(copies_after[host]), 1, copies_after[host])


class ChangedEnvironment(PythonEnvTest):
    def test_a_package_added_gives_a_new_name_uploaded_once(self):
        venv = self.make_venv("small")
        env = {"VIRTUAL_ENV": venv}
        spec = self.one_task_spec("python -c 'import sys; print(sys.prefix)'", python_env="current")
        first, status, _ = self.run_to_end(spec, env=env)
        self.assertEqual(status["final_status"], "SUCCEEDED", status)
        self.assertGreater(first["python_env"]["uploaded_bytes"], 0)

        site = glob.glob(os.path.join(venv, "lib/python3*/site-packages"))[0]
        os.makedirs(os.path.join(site, "addedpkg"))
        with open(os.path.join(site, "addedpkg/__init__.py"), "w") as module:
            module.write("ANSWER = 42\n")
        spec = self.one_task_spec("python -c 'import addedpkg; assert addedpkg.ANSWER == 42'", python_env="current")
        changed, status, _ = self.run_to_end(spec, env=env)
        self.assertEqual(status["final_status"], "SUCCEEDED", status)
        self.assertNotEqual(changed["python_env"]["name"], first["python_env"]["name"])
        self.assertTrue(changed["python_env"]["packed_now"])
        self.assertGreater(changed["python_env"]["uploaded_bytes"], 0)

        again, _ = self.submit(spec, env=env)
        spindle("kill", again["application_id"])
        self.assertEqual(again["python_env"]["name"], changed["python_env"]["name"])
        self.assertEqual(again["python_env"]["uploaded_bytes"], 0)
        listed = json.loads(spindle("env", "list", "--json").stdout)
        names = [each["name"] for each in listed["environments"]]
        self.assertIn(first["python_env"]["name"], names)
        self.assertIn(changed["python_env"]["name"], names)
        removed = spindle("env", "rm", first["python_env"]["name"])
        self.assertEqual(removed.returncode, 0, removed.stderr)
        gone = spindle("env", "rm", first["python_env"]["name"])
        self.assertEqual(gone.returncode, 2)
        self.assertIn("is not in", gone.stderr)


class PreparedArchives(PythonEnvTest):
    def test_a_pex_is_the_tasks_python(self):
        source = os.path.join(self.directory, "source")
        os.makedirs(os.path.join(source, "pexmodule"))
        with open(os.path.join(source, "pexmodule/__init__.py"), "w") as module:
            module.write("ANSWER = 42\n")
        pex = os.path.join(self.directory, "tools.pex")
        subprocess.run([os.path.join(sys.prefix, "bin/pex"), "-D", source, "--python", "/usr/bin/python3", "-o", pex],
                       check=True, capture_output=True)
        spec = self.one_task_spec("python -c 'import pexmodule; assert pexmodule.ANSWER == 42'", python_env=pex)
        answer, status, _ = self.run_to_end(spec)
        self.assertEqual(status["final_status"], "SUCCEEDED", status)
        self.assertTrue(answer["python_env"]["name"].endswith(".pex"), answer)

    def test_an_archive_packed_by_hand_is_shipped_as_it_is(self):
        venv = self.make_venv("by-hand")
        site = glob.glob(os.path.join(venv, "lib/python3*/site-packages"))[0]
        with open(os.path.join(site, "handmade.py"), "w") as module:
            module.write("ANSWER = 7\n")
        archive = os.path.join(self.directory, "by-hand.tar.gz")
        packed = spindle("env", "pack", venv, "-o", archive)
        self.assertEqual(packed.returncode, 0, packed.stderr)
        spec = self.one_task_spec("python -c 'import handmade; assert handmade.ANSWER == 7'", python_env=archive)
        answer, status, _ = self.run_to_end(spec)
        self.assertEqual(status["final_status"], "SUCCEEDED", status)
        self.assertEqual(answer["python_env"]["bytes"], os.path.getsize(archive))


class Refusals(PythonEnvTest):
    def assert_refused(self, spec, env, *phrases):
        refused = spindle("submit", "--json", spec, env=env)
        self.assertEqual(refused.returncode, 2, refused.stderr)
        said = refused.stderr
        try:  # spec errors come in the JSON answer, the rest on stderr
            said += "\n".join(error["message"] for error in json.loads(refused.stdout).get("errors", []))
        except ValueError:
            pass
        for phrase in phrases:
            self.assertIn(phrase, said)
        self.assertNotIn("application_", refused.stdout)
        self.assertNotIn("submitting application_", refused.stderr)

    def test_a_missing_directory(self):
        missing = os.path.join(self.directory, "no-such-env")
        self.assert_refused(self.one_task_spec("true", python_env=missing), None, f"{missing} does not exist")

    def test_a_directory_that_is_no_python_environment(self):
        plain = os.path.join(self.directory, "plain")
        os.mkdir(plain)
        self.assert_refused(self.one_task_spec("true", python_env=plain), None, "is not a Python environment")

    def test_current_without_a_venv(self):
        env = {"VIRTUAL_ENV": "", "CONDA_PREFIX": "", "PATH": "/usr/bin:/bin"}
        self.assert_refused(self.one_task_spec("true", python_env="current"), env,
                            "the first python3 on PATH, /usr/bin/python3, belongs to no venv or conda environment")

    def test_a_corrupt_archive(self):
        archive = os.path.join(self.directory, "broken.tar.gz")
        with open(archive, "wb") as out:
            out.write(b"\x1f\x8b\x08\x00" + os.urandom(4096))
        self.assert_refused(self.one_task_spec("true", python_env=archive), None, f"{archive} is a corrupt archive")

    def test_a_base_interpreter_the_nodes_lack(self):
        # The gateway has this interpreter, in a mount only its own processes see; the nodes
        # see the empty directory under it.
        base = tempfile.mkdtemp(prefix="spindle-gateway-only-python-")
        self.addCleanup(os.rmdir, base)
        venv = self.make_venv("gateway-base")
        for name in ("python3", "python"):
            if os.path.lexists(os.path.join(venv, "bin", name)):
                os.remove(os.path.join(venv, "bin", name))
        os.symlink(f"{base}/bin/python3", os.path.join(venv, "bin/python3"))
        os.symlink("python3", os.path.join(venv, "bin/python"))
        spec = self.one_task_spec("python -c pass", python_env=venv)
        real = os.path.join(sys.base_prefix, "bin/python3")
        script = (f"mount -t tmpfs gateway-python {base} && mkdir {base}/bin && ln -s {real} {base}/bin/python3 && "
                  f"exec {os.environ['SPINDLE_CLI']} submit --json {spec}")
        submitted = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", script],
                                   capture_output=True, text=True, timeout=600)
        self.assertEqual(submitted.returncode, 0, submitted.stderr)
        application_id = json.loads(submitted.stdout)["application_id"]
        ha_test.wait_for(application_id, timeout=600)
        status = status_of(application_id)
        self.assertEqual(status["final_status"], "FAILED", status)
        self.assertIn(f"python_env needs the base interpreter {base}/bin/python3", status["diagnostics"])
        self.assertRegex(status["diagnostics"], r"which node spindle-node\d lacks")
        self.assertIn("worker:0 failed", status["diagnostics"])

if __name__ == "__main__":
    unittest.main()
