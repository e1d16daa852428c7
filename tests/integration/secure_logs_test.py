"""`spindle logs` on a cluster that keeps no logs after a job (the secure local
YARN, whose NodeManagers do not aggregate): the sentence says so, with a
non-zero exit, instead of printing nothing.

Run by ctest (label secure) with the environment of secure_test.py."""

import json
import os
import shutil
import tempfile
import unittest

from secure_test import READY, kinit, run


class LogsNotKept(unittest.TestCase):
    def test_a_finished_job_on_a_cluster_without_aggregation(self):
        directory = tempfile.mkdtemp(prefix="spindle-secure-logs-")
        self.addCleanup(shutil.rmtree, directory, True)
        cache = os.path.join(directory, "root.ccache")
        kinit(READY["user_principal"], READY["user_keytab"], cache)
        env = {"KRB5CCNAME": "FILE:" + cache}
        submitted = run("submit", "--wait", "--json", "-r", "worker:1", "--", "echo kept nowhere", env=env)
        self.assertEqual(submitted.returncode, 0, submitted.stdout + submitted.stderr)
        application = json.loads(submitted.stdout)["application_id"]
        shown = run("logs", application, "worker:0", env=env)
        self.assertEqual(shown.returncode, 3, shown.stdout + shown.stderr)
        self.assertIn("keeps no logs after a job ends", shown.stderr)
        self.assertIn("yarn.log-aggregation-enable", shown.stderr)
        self.assertEqual(shown.stdout, "")


if __name__ == "__main__":
    unittest.main()
