"""Jobs recorded in MLflow: a real `mlflow server` (its own environment,
SQLite backend, artifacts served by the server) started here, and real jobs
on the local YARN of tests/yarn-cluster. What Spindle recorded is read back
through MLflow's own REST API and compared with the spec, with TensorBoard's
reading of the job's event files, and with what the job's code logged itself
through the MLflow client.

Run by ctest with SPINDLE_CLI, HADOOP_CONF_DIR, SPINDLE_SOURCE_DIR,
SPINDLE_STATE_DIR, SPINDLE_DATA_DIR and SPINDLE_MLFLOW_PYTHON set."""

import json
import math
import os
import shutil
import subprocess
import tempfile
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request

from tensorboard.backend.event_processing import event_accumulator
from tensorboard.util import tensor_util

from jobs_on_yarn_test import SOURCE, JobTest, applications, cluster_user, example_spec, spindle, staged_jobs
from sweep_on_yarn_test import SweepSteps, download, tensorboard_series
from free_ports import free_port
import hdfs_outputs

MLFLOW_PYTHON = os.environ["SPINDLE_MLFLOW_PYTHON"]
SECRET_WORDS = ("SECRET", "PASSWORD", "PASSWD", "TOKEN", "CREDENTIAL", "KEY")


def flattened(value, key=""):
    """The spec as the parameters of its run should be: dotted keys, values as
    text, environment values with secret-looking names hidden."""
    params = {}
    if isinstance(value, dict):
        for name, item in value.items():
            child = f"{key}.{name}" if key else name
            in_env = key == "env" or (key.startswith("tasks.") and key.endswith(".env"))
            if in_env and any(word in name.upper() for word in SECRET_WORDS):
                params[child] = "(hidden)"
            else:
                params.update(flattened(item, child))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            params.update(flattened(item, f"{key}.{index}"))
    elif isinstance(value, bool):
        params[key] = "true" if value else "false"
    elif isinstance(value, str):
        params[key] = value
    else:
        params[key] = json.dumps(value)
    return params


class MlflowServer:
    def __init__(self):
        self.directory = tempfile.mkdtemp(prefix="spindle-mlflow-")
        self.port = free_port()
        self.uri = f"http://127.0.0.1:{self.port}"
        self.log = open(os.path.join(self.directory, "server.log"), "w")
        self.process = subprocess.Popen(
            [MLFLOW_PYTHON, "-m", "mlflow", "server", "--host", "127.0.0.1", "--port", str(self.port),
             "--workers", "1", "--backend-store-uri", f"sqlite:///{self.directory}/mlflow.sqlite",
             "--artifacts-destination", os.path.join(self.directory, "artifacts")],
            stdout=self.log, stderr=subprocess.STDOUT, cwd=self.directory)
        # Its first start creates the tracking database (a few dozen migrations), which takes
        # minutes while the other beds' tests hold both cores.
        deadline = time.time() + 300
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"mlflow server exited with {self.process.returncode}: {self.server_log()}")
            try:
                with urllib.request.urlopen(self.uri + "/health", timeout=5) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.5)
        log = self.server_log()  # before stop() removes the directory
        self.stop()
        raise RuntimeError(f"mlflow server did not answer {self.uri}/health within 300 s: {log}")

    def server_log(self):
        with open(os.path.join(self.directory, "server.log"), errors="replace") as log:
            return log.read()[-3000:]

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()
        shutil.rmtree(self.directory, ignore_errors=True)

    def get(self, path, **query):
        url = f"{self.uri}{path}?{urllib.parse.urlencode(query)}"
        with urllib.request.urlopen(url, timeout=30) as answer:
            return answer.read()

    def api(self, endpoint, **query):
        return json.loads(self.get(f"/api/2.0/mlflow/{endpoint}", **query))

    def run(self, run_id):
        return self.api("runs/get", run_id=run_id)["run"]

    def runs_of(self, experiment_name):
        experiment = self.api("experiments/get-by-name", experiment_name=experiment_name)["experiment"]
        request = urllib.request.Request(f"{self.uri}/api/2.0/mlflow/runs/search",
                                         data=json.dumps({"experiment_ids": [experiment["experiment_id"]]}).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.load(answer).get("runs", [])

    def history(self, run_id, key):
        return self.api("metrics/get-history", run_id=run_id, metric_key=key).get("metrics", [])


class MlflowTracking(SweepSteps, JobTest):
    @classmethod
    def setUpClass(cls):
        cls.server = MlflowServer()

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def test_a_job_is_recorded_with_its_spec_scalars_and_the_codes_own_metric(self):
        output = os.path.join(self.directory, "output")
        spec = example_spec("wine-quality/wine_quality.yaml", output, check_environment=False)
        spec["env"]["WINE_DATA_API_KEY"] = "not-for-mlflow"
        # The job's own code logs into the run Spindle made, through the MLflow client.
        spec["tasks"]["chief"]["command"] += (
            f" && {MLFLOW_PYTHON} -c \"import mlflow; mlflow.log_metric('logged_by_the_job', 42.0, step=7)\"")
        spec["mlflow"] = {"tracking_uri": self.server.uri, "experiment": "wine-quality-tests",
                          "run_name": "wine-quality-run"}
        result, outcome = self.submit_and_wait(self.write_spec(spec))
        self.assertEqual(result.returncode, 0, result.stderr)
        application = outcome["application_id"]
        self.assertIn("MLflow run: " + self.server.uri + "/#/experiments/", result.stderr)
        self.assertIn("ended as FINISHED", result.stderr)

        record = json.loads(spindle("history", application, "--json").stdout)
        self.assertIsNotNone(record["mlflow"], record)
        self.assertFalse(record["mlflow"]["open"])
        run_id = record["mlflow"]["run_id"]
        self.assertTrue(record["mlflow"]["url"].endswith("/runs/" + run_id))
        run = self.server.run(run_id)
        info, data = run["info"], run["data"]
        self.assertEqual(info["status"], "FINISHED")
        self.assertEqual(info["run_name"], "wine-quality-run")
        self.assertGreater(info["end_time"], info["start_time"])

        tags = {tag["key"]: tag["value"] for tag in data["tags"]}
        self.assertEqual(tags["spindle.application_id"], application)
        self.assertEqual(tags["spindle.queue"], "default")
        self.assertEqual(tags["mlflow.user"], cluster_user())
        self.assertIn(f"/proxy/{application}/", tags["spindle.tracking_url"])
        self.assertEqual(tags["spindle.final_state"], "succeeded")

        # The parameters are the spec Spindle ran, flattened; the secret-looking value is not among them.
        normalized = json.loads(spindle("validate", "--json", self.write_spec(spec)).stdout)["spec"]
        normalized.pop("mlflow")
        params = {param["key"]: param["value"] for param in data["params"]}
        self.assertEqual(params, flattened(normalized))
        self.assertEqual(params["env.WINE_DATA_API_KEY"], "(hidden)")
        self.assertEqual(params["tasks.chief.memory"], "2048")

        # The spec file is the run's artifact, as the history keeps it.
        artifact = self.server.get(f"/api/2.0/mlflow-artifacts/artifacts/{info['experiment_id']}/{run_id}/"
                                   "artifacts/spec.yaml")
        self.assertEqual(artifact.decode(), record["spec"])

        # Each training scalar, step by step, as TensorBoard reads the event files.
        compared = 0
        for directory in ("train", "eval"):
            events = event_accumulator.EventAccumulator(
                os.path.join(output, directory),
                size_guidance={event_accumulator.TENSORS: 0, event_accumulator.SCALARS: 0})
            events.Reload()
            series = {tag: [(event.step, float(tensor_util.make_ndarray(event.tensor_proto)))
                            for event in events.Tensors(tag)] for tag in events.Tags()["tensors"]}
            series.update({tag: [(event.step, event.value) for event in events.Scalars(tag)]
                           for tag in events.Tags()["scalars"]})
            for tag, points in series.items():
                expected = sorted(points)
                logged = sorted((point["step"], point["value"])
                                for point in self.server.history(run_id, f"{directory}/{tag}"))
                self.assertEqual([step for step, _ in logged], [step for step, _ in expected], tag)
                for (_, got), (_, want) in zip(logged, expected):
                    self.assertTrue(math.isclose(got, want, rel_tol=1e-6), (tag, got, want))
                compared += len(expected)
        self.assertGreater(compared, 20, "the job wrote too few scalars to compare")
        self.assertEqual([(point["step"], point["value"]) for point in self.server.history(run_id, "loss")], [],
                         "a scalar was logged without its run's directory")

        self.assertEqual([(point["step"], point["value"])
                          for point in self.server.history(run_id, "logged_by_the_job")], [(7, 42.0)])
        self.assertEqual([point["value"] for point in self.server.history(run_id, "spindle.restarts")], [0.0])
        duration = self.server.history(run_id, "spindle.duration_seconds")[0]["value"]
        self.assertGreater(duration, 1)
        self.assertLess(duration, 600)

    def test_the_shells_tracking_uri_is_used_without_an_mlflow_block(self):
        output = os.path.join(self.directory, "output")
        os.makedirs(output)
        os.chmod(output, 0o777)
        spec = {"name": "mlflow-from-the-shell", "output": output,
                "tasks": {"chief": {"memory": "256 MiB", "command":
                                    "env | grep ^MLFLOW_ | sort > $DTF_OUTPUT_PATH/mlflow-env.txt"}}}
        result, outcome = self.submit_and_wait(self.write_spec(spec), env={
            "MLFLOW_TRACKING_URI": self.server.uri + "/", "MLFLOW_EXPERIMENT_NAME": "from-the-shell"})
        self.assertEqual(result.returncode, 0, result.stderr)
        runs = self.server.runs_of("from-the-shell")
        self.assertEqual(len(runs), 1, runs)
        run = runs[0]
        self.assertEqual(run["info"]["status"], "FINISHED")
        self.assertEqual(run["info"]["run_name"], "mlflow-from-the-shell")
        tags = {tag["key"]: tag["value"] for tag in run["data"]["tags"]}
        self.assertEqual(tags["spindle.application_id"], outcome["application_id"])
        with open(os.path.join(output, "mlflow-env.txt")) as seen:
            exported = dict(line.strip().split("=", 1) for line in seen if "=" in line)
        self.assertEqual(exported, {"MLFLOW_TRACKING_URI": self.server.uri,
                                    "MLFLOW_EXPERIMENT_ID": run["info"]["experiment_id"],
                                    "MLFLOW_RUN_ID": run["info"]["run_id"]})

    def test_nested_runs_give_each_task_its_own_run_under_the_jobs(self):
        output = os.path.join(self.directory, "output")
        os.makedirs(output)
        os.chmod(output, 0o777)
        # Each task logs into the run it was given, with MLflow's client, and notes which that was.
        log = (f"{MLFLOW_PYTHON} -c \"import mlflow, os; mlflow.log_metric('task_index', "
               "float(os.environ['SPINDLE_TASK'].split(':')[1]))\" && "
               "env | grep ^MLFLOW_ | sort > $DTF_OUTPUT_PATH/$(echo $SPINDLE_TASK | tr : -).txt")
        spec = {"name": "mlflow-nested", "output": output, "framework": "generic",
                "mlflow": {"tracking_uri": self.server.uri, "experiment": "nested", "nested": True},
                # The chief ends the job: it waits until both workers have noted their runs.
                "tasks": {"chief": {"memory": "256 MiB", "command": log + " && until [ -f $DTF_OUTPUT_PATH/worker-0.txt ]"
                                    " && [ -f $DTF_OUTPUT_PATH/worker-1.txt ]; do sleep 0.2; done"},
                          "worker": {"instances": 2, "memory": "256 MiB", "command": log + " && exit 3",
                                     "fails_job": False},
                          "tensorboard": {"memory": "512 MiB"}}}
        result, outcome = self.submit_and_wait(self.write_spec(spec))
        self.assertEqual(result.returncode, 0, result.stderr)
        runs = {run["info"]["run_name"]: run for run in self.server.runs_of("nested")}
        self.assertEqual(set(runs), {"mlflow-nested", "chief:0", "worker:0", "worker:1"}, list(runs))
        parent = runs.pop("mlflow-nested")
        self.assertEqual(parent["info"]["status"], "FINISHED")
        for task, run in runs.items():
            tags = {tag["key"]: tag["value"] for tag in run["data"]["tags"]}
            self.assertEqual(tags["mlflow.parentRunId"], parent["info"]["run_id"], task)
            self.assertEqual(tags["spindle.task"], task)
            self.assertEqual(tags["spindle.application_id"], outcome["application_id"])
            with open(os.path.join(output, task.replace(":", "-") + ".txt")) as seen:
                exported = dict(line.strip().split("=", 1) for line in seen if "=" in line)
            self.assertEqual(exported["MLFLOW_RUN_ID"], run["info"]["run_id"], task)
            self.assertEqual(exported["MLFLOW_PARENT_RUN_ID"], parent["info"]["run_id"], task)
            self.assertEqual([point["value"] for point in self.server.history(run["info"]["run_id"], "task_index")],
                             [float(task.split(":")[1])], task)
            # The chief succeeded. The workers exit with 3, which this spec lets them; whether
            # that is seen before the chief's success stops them is a race, so either end is right,
            # as long as the run says the same as the task.
            expected = {"succeeded": "FINISHED", "failed": "FAILED", "stopped": "KILLED"}
            self.assertEqual(run["info"]["status"], expected[tags["spindle.final_state"]], task)
            if task == "chief:0":
                self.assertEqual(tags["spindle.final_state"], "succeeded")
            else:
                self.assertIn(tags["spindle.final_state"], ("failed", "stopped"), task)

    def test_a_job_writing_to_hdfs_charts_its_scalars_while_it_trains_and_keeps_each_once(self):
        """The application master sends what the tasks' event files add in HDFS to the job's run while
        the job trains; the client that closes the run sends them all again, and MLflow keeps each once."""
        output_path, output = hdfs_outputs.fresh_output()
        self.addCleanup(hdfs_outputs.remove, output_path)
        spec = example_spec("wine-quality/wine_quality.yaml", output, check_environment=False)
        del spec["tasks"]["evaluator"], spec["tasks"]["tensorboard"]
        # Paced to a scalar a second, five minutes of training: the job is killed once its run charts it.
        spec["env"].update(TRAIN_STEPS="3000", SECONDS_PER_LOG="1")
        spec["mlflow"] = {"tracking_uri": self.server.uri, "experiment": "live-jobs"}
        submitted = spindle("submit", "--json", self.write_spec(spec))
        self.assertEqual(submitted.returncode, 0, submitted.stderr)
        application = json.loads(submitted.stdout)["application_id"]
        self.addCleanup(spindle, "kill", application)
        run_id = json.loads(spindle("history", application, "--json").stdout)["mlflow"]["run_id"]
        deadline = time.time() + 300
        steps = []
        while time.time() < deadline:
            steps = [point["step"] for point in self.server.history(run_id, "train/loss")]
            if steps:
                break
            time.sleep(2)
        else:
            self.fail(f"the run of {application} had no train/loss within 300 s")
        self.assertEqual(self.server.run(run_id)["info"]["status"], "RUNNING")
        self.assertLess(max(steps), 3000, "the run charted the job while it trained, before its last step")
        self.assertEqual(json.loads(spindle("status", "--json", application).stdout)["state"], "RUNNING")

        killed = spindle("kill", application)
        self.assertEqual(killed.returncode, 0, killed.stderr)
        deadline = time.time() + 120
        while time.time() < deadline:
            spindle("status", "--json", application)  # what records the end, and closes the run
            record = json.loads(spindle("history", application, "--json").stdout)
            if not record["mlflow"]["open"]:
                break
            time.sleep(2)
        else:
            self.fail(f"the run of {application} was not closed within 120 s of its kill: {record['mlflow']}")
        self.assertEqual(self.server.run(run_id)["info"]["status"], "KILLED")
        local = os.path.join(self.directory, "live-output")
        download(output_path, local)
        expected = tensorboard_series(os.path.join(local, "train"), "loss")
        logged = sorted((point["step"], point["value"]) for point in self.server.history(run_id, "train/loss"))
        self.assertEqual([step for step, _ in logged], [step for step, _ in expected])
        for (_, got), (_, want) in zip(logged, expected):
            self.assertTrue(math.isclose(got, want, rel_tol=1e-6), (got, want))

    def test_an_unreachable_server_warns_and_the_job_runs(self):
        nobody = f"http://127.0.0.1:{free_port()}"
        spec = {"name": "mlflow-unreachable", "mlflow": {"tracking_uri": nobody},
                "tasks": {"chief": {"memory": "256 MiB", "command": "test -z \"$MLFLOW_RUN_ID\""}}}
        result, outcome = self.submit_and_wait(self.write_spec(spec))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("warning: the job runs without an MLflow run: MLflow at " + nobody + " could not be reached",
                      result.stderr)
        self.assertEqual(outcome["final_status"], "SUCCEEDED")
        record = json.loads(spindle("history", outcome["application_id"], "--json").stdout)
        self.assertIsNone(record["mlflow"])

    def test_a_required_run_that_cannot_be_made_submits_nothing(self):
        nobody = f"http://127.0.0.1:{free_port()}"
        before = applications()
        spec = {"name": "mlflow-required", "mlflow": {"tracking_uri": nobody, "required": True},
                "tasks": {"chief": {"memory": "256 MiB", "command": "true"}}}
        result = spindle("submit", "--json", self.write_spec(spec))
        self.assertEqual(result.returncode, 3, result.stdout + result.stderr)
        self.assertIn("MLflow at " + nobody + " could not be reached", result.stderr)
        self.assertIn("the job was not submitted, since its spec says mlflow.required", result.stderr)
        self.assertEqual(set(applications()) - set(before), set(), "an application was started")
        self.assertEqual(set(staged_jobs()) - set(self.staged_before), set(), "something was left staged")

    def test_a_sweep_is_a_parent_run_with_a_child_run_per_trial_and_its_kill_ends_them(self):
        """The sweep's controller, inside YARN, makes each trial's run and ends it; the trial's own
        code logs into it; the parent ends with the best trial. A killed sweep leaves no run running."""
        log_own = (f" && {MLFLOW_PYTHON} -c \"import mlflow, os; "
                   "mlflow.log_metric('logged_by_the_trial', float(os.environ['SWEEP_TRIAL']))\"")
        validated = json.loads(spindle("validate", "--json", os.path.join(
            SOURCE, "resources/examples/wine-sweep/wine_sweep.yaml")).stdout)
        chief = dict(validated["spec"]["tasks"]["chief"])
        chief["command"] += log_own
        spec_path = self.sweep_spec(
            example_overrides={"mlflow": {"tracking_uri": self.server.uri, "experiment": "sweeps"}},
            search={"trials": 3, "parallel": 2}, tasks={"chief": chief})
        sweep = self.submit(spec_path)
        status = self.wait_for_end(sweep, 900)
        self.assertEqual(status["state"], "succeeded", status)
        runs = {run["info"]["run_name"]: run for run in self.server.runs_of("sweeps")}
        parent = runs.pop("wine-sweep")
        parent_id = parent["info"]["run_id"]
        self.assertEqual(status["mlflow"], f"{self.server.uri}/#/experiments/{parent['info']['experiment_id']}"
                                           f"/runs/{parent_id}")
        self.assertEqual(parent["info"]["status"], "FINISHED")
        tags = {tag["key"]: tag["value"] for tag in parent["data"]["tags"]}
        params = {param["key"]: param["value"] for param in parent["data"]["params"]}
        self.assertEqual(tags["spindle.application_id"], sweep)
        self.assertEqual(tags["spindle.final_state"], "succeeded")
        self.assertEqual(tags["spindle.best_trial"], str(status["best_trial"]))
        self.assertEqual(params["sweep.method"], "random")
        self.assertEqual(params["sweep.trials"], "3")
        self.assertEqual(params["sweep.metric.tag"], "loss")
        self.assertEqual(params["sweep.parameters.width.grid.1"], "32")
        self.assertEqual(params["sweep.parameters.learning_rate.log_uniform.1"], "0.5")
        self.assertEqual(params["sweep.early_stopping.rule"], "asha")
        best = next(trial for trial in status["trials"] if trial["trial"] == status["best_trial"])
        self.assertEqual([(point["step"], point["value"]) for point in self.server.history(parent_id, "best/train/loss")],
                         [(best["best"]["step"], best["best"]["value"])])
        self.assertEqual(tags["spindle.best_run_id"], best["mlflow_run_id"])

        self.assertEqual(set(runs), {f"wine-sweep-trial-{n}" for n in range(3)}, list(runs))
        status_of_run = {"succeeded": "FINISHED", "stopped by the sweep": "FINISHED", "failed": "FAILED",
                         "killed": "KILLED"}
        for trial in status["trials"]:
            run = runs[f"wine-sweep-trial-{trial['trial']}"]
            run_id = run["info"]["run_id"]
            self.assertEqual(run_id, trial["mlflow_run_id"])
            tags = {tag["key"]: tag["value"] for tag in run["data"]["tags"]}
            params = {param["key"]: param["value"] for param in run["data"]["params"]}
            self.assertEqual(tags["mlflow.parentRunId"], parent_id)
            self.assertEqual(tags["spindle.application_id"], trial["application_id"])
            self.assertEqual(tags["spindle.trial"], str(trial["trial"]))
            self.assertEqual(tags["spindle.final_state"], trial["state"])
            self.assertEqual(params, trial["parameters"])
            self.assertEqual(run["info"]["status"], status_of_run[trial["state"]], trial)
            # Every training scalar as TensorBoard reads it from the trial's event files in HDFS.
            local = os.path.join(self.directory, f"trial-{trial['trial']}")
            download(f"{self.output_path}/trial-{trial['trial']}", local)
            expected = tensorboard_series(os.path.join(local, "train"), "loss")
            logged = sorted((point["step"], point["value"]) for point in self.server.history(run_id, "train/loss"))
            self.assertEqual([step for step, _ in logged], [step for step, _ in expected], trial)
            for (_, got), (_, want) in zip(logged, expected):
                self.assertTrue(math.isclose(got, want, rel_tol=1e-6), (trial, got, want))
            if trial["state"] == "succeeded":
                # The trial's own code logged into its run, the one MLFLOW_RUN_ID named.
                self.assertEqual([point["value"] for point in self.server.history(run_id, "logged_by_the_trial")],
                                 [float(trial["trial"])])

        # A sweep killed while its first trial runs, once that trial's run charts the scalars it has
        # logged so far: that trial's run and the sweep's end as KILLED.
        killed_spec = self.sweep_spec(
            example_overrides={"mlflow": {"tracking_uri": self.server.uri, "experiment": "killed-sweeps"},
                               "env": {**validated["spec"]["env"], "TRAIN_STEPS": "3000"}},
            search={"trials": 2, "parallel": 1})
        killed = self.submit(killed_spec)
        deadline = time.time() + 300
        live = None
        while time.time() < deadline and live is None:
            now = self.status(killed)
            for trial in now["trials"]:
                if trial["state"] != "running" or not trial["mlflow_run_id"]:
                    continue
                run = self.server.run(trial["mlflow_run_id"])
                steps = [point["step"] for point in self.server.history(trial["mlflow_run_id"], "train/loss")]
                if run["info"]["status"] == "RUNNING" and steps:
                    live = (trial, steps)
            time.sleep(2)
        if live is None:
            self.fail(f"no trial of {killed} had scalars in its running MLflow run within 300 s: {now}")
        trial, steps = live
        self.assertLess(max(steps), 3000, "the run charted the trial while it trained, before its last step")
        result = spindle("sweep", "kill", killed)
        self.assertEqual(result.returncode, 0, result.stderr)
        runs = self.server.runs_of("killed-sweeps")
        self.assertEqual({run["info"]["status"] for run in runs}, {"KILLED"},
                         [(run["info"]["run_name"], run["info"]["status"]) for run in runs])
        self.assertEqual(len(runs), 2, [run["info"]["run_name"] for run in runs])


if __name__ == "__main__":
    unittest.main()
