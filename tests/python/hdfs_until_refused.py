"""A task that uses hdfs:// through TensorFlow until HDFS refuses it: writes
BASE/alive, then reads it back every second. When a read fails it prints
the error TensorFlow raised and exits 3; after LIMIT seconds (default 300)
without a refusal it exits 4, saying so.

Usage: hdfs_until_refused.py BASE [LIMIT]"""

import sys
import time

import tensorflow as tf

base = sys.argv[1]
limit = float(sys.argv[2]) if len(sys.argv) > 2 else 300
with tf.io.gfile.GFile(base + "/alive", "w") as out:
    out.write("alive")
deadline = time.monotonic() + limit
while time.monotonic() < deadline:
    try:
        tf.io.gfile.GFile(base + "/alive").read()
    except tf.errors.OpError as error:
        print(f"refused after {time.monotonic() - deadline + limit:.1f} s: {type(error).__name__}: {error.message}",
              file=sys.stderr, flush=True)
        sys.exit(3)
    time.sleep(1)
print(f"HDFS never refused in {limit} s", file=sys.stderr)
sys.exit(4)
