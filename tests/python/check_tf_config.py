"""Reads the environment Spindle rendered for one task and reports what
TensorFlow's own code makes of it, as one JSON object on stdout.

TensorFlow decides: TFConfigClusterResolver parses TF_CONFIG, and
multi_worker_util applies the rules its strategies enforce (allowed job
names, at most one chief and evaluator, the evaluator outside the cluster,
who is chief, each task's id in the cluster).
"""

import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf  # noqa: E402
from tensorflow.python.distribute import multi_worker_util  # noqa: E402

TRAINING = ("chief", "worker", "ps")


def main():
    resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
    cluster = resolver.cluster_spec()
    report = {
        "has_tf_config": "TF_CONFIG" in os.environ,
        "cluster": {job: cluster.job_tasks(job) for job in cluster.jobs},
        "task_type": resolver.task_type,
        "task_id": resolver.task_id,
    }
    if resolver.task_type in TRAINING + ("evaluator",):
        # Raises ValueError when TensorFlow's strategies would refuse the spec.
        multi_worker_util._validate_cluster_spec(cluster, resolver.task_type, resolver.task_id)  # pylint: disable=protected-access
        report["validated"] = True
    if resolver.task_type in TRAINING:
        report["master"] = resolver.master()
        report["is_chief"] = multi_worker_util.is_chief(cluster, resolver.task_type, resolver.task_id)
    if resolver.task_type in ("chief", "worker"):
        report["worker_count"] = multi_worker_util.worker_count(cluster, resolver.task_type)
        report["id_in_cluster"] = multi_worker_util.id_in_cluster(cluster, resolver.task_type, resolver.task_id)
    # ClusterSpec is what tf.distribute.Server takes; it must accept the cluster as is.
    tf.train.ClusterSpec(report["cluster"])
    json.dump(report, sys.stdout)


if __name__ == "__main__":
    main()
