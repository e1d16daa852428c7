"""TensorFlow on hdfs:// while the cluster fails under it, run in a process
of its own by tensorflow_hdfs_test.py (the plugin on PYTHONPATH, `spindle` as
its bridge).

  checkpoints BASE STOP_FILE   saves a 128 MB checkpoint to BASE again and
      again, restoring each and comparing it with what was saved, until
      STOP_FILE exists, then once more; prints a JSON line per save with its
      start and end (time.time()).
  read URI SHA256 SIZE         reads URI through tf.data in 1 MiB records of
      a FixedLengthRecordDataset, slowly, and compares the whole.

Exits non-zero on the first difference or error, saying which."""

import hashlib
import json
import os
import sys
import time

import tensorflow as tf


def checkpoints(base, stop_file):
    weights = tf.Variable(tf.random.stateless_uniform([32 * 1024 * 1024], seed=[4, 2]))
    expected = hashlib.sha256(weights.numpy().tobytes()).hexdigest()
    restored = tf.Variable(tf.zeros([32 * 1024 * 1024]))
    saves, last = 0, False
    while not last:
        last = os.path.exists(stop_file)
        started = time.time()
        prefix = tf.train.Checkpoint(weights=weights).write(f"{base}/ckpt-{saves}")
        ended = time.time()
        tf.train.Checkpoint(weights=restored).read(prefix).assert_consumed()
        found = hashlib.sha256(restored.numpy().tobytes()).hexdigest()
        if found != expected:
            raise SystemExit(f"checkpoint {prefix} read back differs")
        print(json.dumps({"save": saves, "started": started, "ended": ended}), flush=True)
        if saves % 4 == 3:  # room in HDFS
            tf.io.gfile.rmtree(base)
        saves += 1


def read(uri, sha256, size):
    digest = hashlib.sha256()
    records = tf.data.FixedLengthRecordDataset(uri, record_bytes=1024 * 1024, buffer_size=1024 * 1024)
    total = 0
    for index, record in enumerate(records):
        data = record.numpy()
        digest.update(data)
        total += len(data)
        if index % 16 == 0:
            print(json.dumps({"read": total, "at": time.time()}), flush=True)
            time.sleep(0.5)
    if total != size or digest.hexdigest() != sha256:
        raise SystemExit(f"{uri}: read {total} bytes with SHA-256 {digest.hexdigest()}, wanted {size} and {sha256}")
    print(json.dumps({"read": total, "done": True}), flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "checkpoints":
        checkpoints(sys.argv[2], sys.argv[3])
    else:
        read(sys.argv[2], sys.argv[3], int(sys.argv[4]))
