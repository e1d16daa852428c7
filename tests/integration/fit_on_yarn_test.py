"""`spindle validate --cluster` against the local YARN of tests/yarn-cluster:
a job fits now; once a running job holds both GPUs of the `gpu` node, a job
asking for one waits, saying how many are free; GPUs asked without a label
can never be met there, since the only GPU node is labelled.

Run by ctest with SPINDLE_CLI, HADOOP_CONF_DIR, SPINDLE_SOURCE_DIR,
SPINDLE_STATE_DIR and SPINDLE_DATA_DIR set."""

import json
import time

from jobs_on_yarn_test import JobTest, spindle


class WillItFit(JobTest):
    def fit(self, spec):
        checked = spindle("validate", "--cluster", "--json", self.write_spec(spec))
        self.assertIn(checked.returncode, (0, 2), checked.stderr)
        return checked.returncode, json.loads(checked.stdout)["fit"]

    def test_a_job_waits_while_another_holds_the_gpus_and_unlabelled_gpus_never_fit(self):
        gpu_task = {"instances": 1, "memory": "256 MiB", "gpus": 1, "node_label": "gpu", "command": "true"}
        code, fit = self.fit({"name": "fits", "queue": "ml-gpu", "tasks": {"worker": gpu_task}})
        self.assertEqual(code, 0)
        self.assertTrue(fit["fits_now"], fit)
        worker = [line for line in fit["types"] if line["type"] == "worker"][0]
        self.assertEqual(worker["sentence"], "worker: fits now (1 container of 256 MiB, 1 vcore, 1 GPU on label gpu)")

        # A running job takes both GPUs of the gpu node.
        holder = spindle("submit", "--json", self.write_spec(
            {"name": "holds-the-gpus", "queue": "ml-gpu",
             "tasks": {"worker": {"memory": "256 MiB", "gpus": 2, "node_label": "gpu", "command": "sleep 600"}}}))
        self.assertEqual(holder.returncode, 0, holder.stderr)
        application = json.loads(holder.stdout)["application_id"]
        try:
            deadline = time.time() + 120
            while time.time() < deadline:
                code, fit = self.fit({"name": "waits", "queue": "ml-gpu", "tasks": {"worker": gpu_task}})
                if not fit["fits_now"]:
                    break
                time.sleep(1)
            self.assertEqual(code, 0, "a job that waits is not a bad spec")
            worker = [line for line in fit["types"] if line["type"] == "worker"][0]
            self.assertEqual(worker["verdict"], "waits", fit)
            self.assertRegex(worker["sentence"],
                             r"^worker: waits: 0 of 1 container fit now; label gpu has 0 of its 2 GPUs free \(2 in use\), "
                             r"and each worker container needs 1; queue ml-gpu runs [1-9]\d* applications?")
            text = spindle("validate", "--cluster", self.write_spec(
                {"name": "waits", "queue": "ml-gpu", "tasks": {"worker": gpu_task}}))
            self.assertEqual(text.returncode, 0, text.stderr)
            self.assertIn("# waits\n", text.stdout)
            self.assertIn("# " + worker["sentence"] + "\n", text.stdout)
        finally:
            killed = spindle("kill", application)
            self.assertEqual(killed.returncode, 0, killed.stderr)

        code, fit = self.fit({"name": "never", "queue": "ml-gpu",
                              "tasks": {"chief": {"memory": "256 MiB", "gpus": 1, "command": "true"}}})
        self.assertEqual(code, 2)
        chief = [line for line in fit["types"] if line["type"] == "chief"][0]
        self.assertEqual(chief["verdict"], "never fits")
        self.assertIn("without a node label, but every node with GPUs carries a label (gpu)", chief["sentence"])


if __name__ == "__main__":
    import unittest
    unittest.main()
