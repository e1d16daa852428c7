"""Helpers the example training scripts share.

The wine data set ships inside scikit-learn, so the examples train on real
data without downloading anything.
"""

import os
import sys
import time

import numpy as np
from sklearn.datasets import load_wine
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

FEATURES = 13
CLASSES = 3


def wine_splits(seed=7):
    """Standardized (x_train, y_train, x_test, y_test) as float32/int32 arrays."""
    data = load_wine()
    x_train, x_test, y_train, y_test = train_test_split(
        data.data, data.target, test_size=0.25, random_state=seed, stratify=data.target)
    scaler = StandardScaler().fit(x_train)
    return (scaler.transform(x_train).astype(np.float32), y_train.astype(np.int32),
            scaler.transform(x_test).astype(np.float32), y_test.astype(np.int32))


def output_dir(default="/tmp/spindle-example"):
    """The job's output directory: Spindle's, else YARN-DTF's, else a local default."""
    return os.environ.get("SPINDLE_OUTPUT") or os.environ.get("DTF_OUTPUT_PATH") or default


def task():
    """(type, index) of this task as TensorFlow reads it from TF_CONFIG, or
    ("chief", 0) when run by hand outside any job. Inside a Spindle job
    (SPINDLE_TASK set) a TF_CONFIG that does not name this very task is an
    error: training as chief instead would hide it."""
    import tensorflow as tf

    resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
    launched = os.environ.get("SPINDLE_TASK")
    if resolver.task_type is None:
        if launched:
            sys.exit(f"{launched}: TF_CONFIG names no task")
        return "chief", 0
    kind, index = resolver.task_type, int(resolver.task_id)
    if launched and launched != f"{kind}:{index}":
        sys.exit(f"{launched}: TF_CONFIG names {kind}:{index}")
    return kind, index


def describe_environment():
    """One line naming this task, printed first so logs say who wrote them."""
    print(f"task {os.environ.get('SPINDLE_TASK', '-')} app={os.environ.get('SPINDLE_APP_ID', '-')} "
          f"attempt={os.environ.get('SPINDLE_ATTEMPT', '0')} output={output_dir()}", flush=True)


DONE_MARKER = "TRAINING_DONE"


def mark_training_done(directory):
    """A marker beside the checkpoints; through tf.io.gfile, so that `directory` may be an hdfs:// URI."""
    import tensorflow as tf

    with tf.io.gfile.GFile(directory.rstrip("/") + "/" + DONE_MARKER, "w") as marker:
        marker.write(str(time.time()))


def training_done(directory):
    import tensorflow as tf

    return tf.io.gfile.exists(directory.rstrip("/") + "/" + DONE_MARKER)


def follow_checkpoints(checkpoint_dir, poll_seconds=2.0, give_up_seconds=1800):
    """Yields each new checkpoint prefix the chief writes, until it marks training done.

    The evaluator runs beside training (TensorFlow's side-car evaluator
    pattern): it never joins the training cluster and only reads checkpoints.
    """
    import tensorflow as tf

    seen = None
    started = time.time()
    while time.time() - started < give_up_seconds:
        latest = tf.train.latest_checkpoint(checkpoint_dir)
        if latest and latest != seen:
            seen = latest
            yield latest
            continue
        if training_done(checkpoint_dir) and seen == tf.train.latest_checkpoint(checkpoint_dir):
            return
        time.sleep(poll_seconds)
    raise TimeoutError(f"no new checkpoint in {checkpoint_dir} for {give_up_seconds} s")
