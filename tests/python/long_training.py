"""A training loop that outlives its delegation tokens: every INTERVAL
seconds until UNTIL (seconds since the epoch) it counts a step, writes the
step as the scalar "progress" and a checkpoint, both to hdfs:// under
LONG_JOB_DIR. Started again, it resumes from its newest checkpoint and says
so. Any refused write ends it with the error, as a lost token would."""

import os
import time

import tensorflow as tf

root = os.environ["LONG_JOB_DIR"]
until = float(os.environ["UNTIL"])
interval = float(os.environ.get("INTERVAL", "30"))

step = tf.Variable(0, dtype=tf.int64)
checkpoint = tf.train.Checkpoint(step=step)
manager = tf.train.CheckpointManager(checkpoint, root + "/checkpoints", max_to_keep=3)
if manager.latest_checkpoint:
    checkpoint.restore(manager.latest_checkpoint).assert_consumed()
    print(f"resumed from {manager.latest_checkpoint} at step {int(step)}", flush=True)
writer = tf.summary.create_file_writer(root + "/logs")
while True:
    step.assign_add(1)
    with writer.as_default():
        tf.summary.scalar("progress", float(int(step)), step=int(step))
    writer.flush()
    saved = manager.save(checkpoint_number=int(step))
    print(f"step {int(step)} saved as {saved} at {time.time():.0f}", flush=True)
    if time.time() + interval > until:
        break
    time.sleep(interval)
print("done", flush=True)
