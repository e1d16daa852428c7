"""PyTorch jobs on the local YARN of tests/yarn-cluster: the pytorch-ddp
examples train with real PyTorch (scripts/requirements-torch.txt) over gloo,
one process per container, two per container (processes: 2) and under
torchrun, and a job whose environment a node lacks fails saying so.

The nodes of the single-host cluster hand containers the TensorFlow venv;
PyTorch's environment (5 GB, mostly CUDA libraries) is installed beside it on
the same host, so the jobs name it as an environment on the nodes
(python_env: node:DIR) instead of shipping it.

Run by ctest (one test per case) with SPINDLE_CLI, HADOOP_CONF_DIR,
SPINDLE_SOURCE_DIR and SPINDLE_TORCH_PYTHON set."""

import json
import os
import unittest

from jobs_on_yarn_test import JobTest, example_spec

TORCH_ENV = os.path.dirname(os.path.dirname(os.environ["SPINDLE_TORCH_PYTHON"]))


class PyTorchJobs(JobTest):
    def run_example(self, example, tasks):
        output = os.path.join(self.directory, "output")
        spec = example_spec(example, output)
        spec["python_env"] = "node:" + TORCH_ENV
        result, outcome = self.submit_and_wait(self.write_spec(spec))
        self.assertEqual(result.returncode, 0, result.stderr + outcome.get("diagnostics", ""))
        self.assertEqual(outcome["final_status"], "SUCCEEDED", outcome)
        self.assert_environment_checked(output, tasks)
        with open(os.path.join(output, "training.json")) as report:
            training = json.load(report)
        self.assertLess(training["last_loss"], training["first_loss"], training)
        # Only rank 0 writes: its checkpoint, the model and its report, beside each task's environment check.
        self.assertEqual(sorted(os.listdir(output)), ["checkpoint.pt", "environment", "model.pt", "training.json"])
        self.assertGreater(os.path.getsize(os.path.join(output, "model.pt")), 0)
        self.assert_left_nothing(outcome)
        return training

    def assert_one_group(self, training, tasks, processes):
        """Every rank reported once, from the task and local rank the
        contract gives it, all meeting at one master."""
        views = sorted(training["ranks"], key=lambda view: view["rank"])
        world = len(tasks) * processes
        self.assertEqual(training["world_size"], world)
        self.assertEqual([view["rank"] for view in views], list(range(world)))
        for view in views:
            self.assertEqual(view["task"], tasks[view["rank"] // processes], view)
            self.assertEqual(view["local_rank"], view["rank"] % processes, view)
            self.assertEqual(view["local_world_size"], processes, view)
            self.assertEqual(view["world_size"], world, view)
            self.assertEqual(view["master"], views[0]["master"], view)
            self.assertLess(view["last_loss"], view["first_loss"], view)

    def test_ddp_over_gloo_chief_and_two_workers(self):
        tasks = ["chief:0", "worker:0", "worker:1"]
        training = self.run_example("pytorch-ddp/pytorch_ddp.yaml", tasks)
        self.assert_one_group(training, tasks, processes=1)

    def test_torchrun_two_containers_of_two_processes(self):
        tasks = ["chief:0", "worker:0"]
        training = self.run_example("pytorch-ddp/torchrun.yaml", tasks)
        self.assert_one_group(training, tasks, processes=2)

    def test_two_containers_of_two_processes_started_by_spindle(self):
        tasks = ["chief:0", "worker:0"]
        training = self.run_example("pytorch-ddp/processes.yaml", tasks)
        self.assert_one_group(training, tasks, processes=2)

    def test_a_killed_worker_restarts_the_group_which_resumes_from_its_checkpoint(self):
        output = os.path.join(self.directory, "output")
        spec = example_spec("pytorch-ddp/pytorch_ddp.yaml", output)
        spec["python_env"] = "node:" + TORCH_ENV
        # 400 steps of at least 50 ms: 20 s or more, with a checkpoint every 50 steps.
        spec["env"].update({"TRAIN_STEPS": "400", "STEP_SECONDS": "0.05", "CHECKPOINT_EVERY": "50"})
        spec["tasks"]["worker"]["max_restarts"] = 1
        outcome, _ = self.run_with_a_member_killed(spec, os.path.join(output, "checkpoint.pt"), output,
                                                   ["chief:0", "worker:0", "worker:1"])
        with open(os.path.join(output, "training.json")) as report:
            training = json.load(report)
        self.assertLess(training["last_loss"], training["first_loss"], training)
        for view in training["ranks"]:
            self.assertGreater(view["resumed_from"], 0, view)
            self.assertEqual(view["resumed_from"] % 50, 0, view)
        self.assert_left_nothing(outcome)

    def test_an_environment_a_node_lacks_fails_the_job_saying_so(self):
        spec = example_spec("pytorch-ddp/pytorch_ddp.yaml", os.path.join(self.directory, "output"),
                            check_environment=False)
        spec["python_env"] = "node:/nonexistent/envs/torch"
        result, outcome = self.submit_and_wait(self.write_spec(spec))
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertEqual(outcome["final_status"], "FAILED")
        self.assertIn("python_env node:/nonexistent/envs/torch is not installed on node", outcome["diagnostics"])
        self.assertIn("/nonexistent/envs/torch/bin is missing", outcome["diagnostics"])
        self.assert_left_nothing(outcome)


if __name__ == "__main__":
    unittest.main()
