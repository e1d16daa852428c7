"""TensorFlow straight to HDFS: every path this job reads or writes is an
hdfs:// URI, which Spindle's file system plugin serves in each task.

- `DATA`: a directory in HDFS with train.tfrecord and test.tfrecord
  (make_data.py writes them);
- `MODEL_DIR`: where worker 0 writes its checkpoints, summaries (train/),
  SavedModel (saved_model/) and training.json, and the evaluator its
  summaries (eval/).

Two workers train with MultiWorkerMirroredStrategy, each reading its shard
of the records. The other workers save to scratch directories in HDFS, as
the strategy requires every worker to save, and remove them at the end. The
evaluator follows the checkpoints; the TensorBoard task reads MODEL_DIR.
"""

import json
import os
import time

import tensorflow as tf

from example_support import FEATURES, mark_training_done
from wine_model import WineClassifier, evaluate_checkpoints, loss_and_accuracy

DATA = os.environ["DATA"].rstrip("/")
MODEL_DIR = os.environ["MODEL_DIR"].rstrip("/")
BATCH_PER_WORKER = 16
SCHEMA = {"x": tf.io.FixedLenFeature([FEATURES], tf.float32), "y": tf.io.FixedLenFeature([], tf.int64)}


def parse(record):
    example = tf.io.parse_single_example(record, SCHEMA)
    return example["x"], tf.cast(example["y"], tf.int32)


def whole(path):
    """Every record of a file, as one batch."""
    return next(iter(tf.data.TFRecordDataset(path).map(parse).batch(100_000)))


def export_saved_model(model, directory):
    serve = tf.function(lambda x: tf.nn.softmax(model(x)), input_signature=[tf.TensorSpec([None, FEATURES], tf.float32)])
    tf.saved_model.save(model, directory, signatures={"serving_default": serve})


def train():
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    resolver = strategy.cluster_resolver
    is_chief = resolver.task_id == 0
    workdir = MODEL_DIR if is_chief else f"{MODEL_DIR}/replicas/{resolver.task_type}-{resolver.task_id}"
    tf.io.gfile.makedirs(workdir)
    global_batch = BATCH_PER_WORKER * strategy.num_replicas_in_sync
    learning_rate = 0.1

    with strategy.scope():
        model = WineClassifier()
        step = tf.Variable(0, dtype=tf.int64)

    def dataset_fn(context):
        records = tf.data.TFRecordDataset(DATA + "/train.tfrecord")
        records = records.shard(context.num_input_pipelines, context.input_pipeline_id)
        # Kept in memory after the first pass: a small data set is read from HDFS once, not once an epoch.
        records = records.map(parse).cache()
        return records.shuffle(256, seed=3).repeat().batch(context.get_per_replica_batch_size(global_batch))

    iterator = iter(strategy.distribute_datasets_from_function(dataset_fn))

    @tf.function
    def train_step():
        def replica_step(x, y):
            with tf.GradientTape() as tape:
                per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=model(x))
                loss = tf.nn.compute_average_loss(per_example, global_batch_size=global_batch)
            gradients = tape.gradient(loss, model.trainable_variables)
            gradients = tf.distribute.get_replica_context().all_reduce(tf.distribute.ReduceOp.SUM, gradients)
            for variable, gradient in zip(model.trainable_variables, gradients):
                variable.assign_sub(learning_rate * gradient)
            step.assign_add(1)
            return loss

        x, y = next(iterator)
        return strategy.reduce(tf.distribute.ReduceOp.SUM, strategy.run(replica_step, args=(x, y)), axis=None)

    checkpoint = tf.train.Checkpoint(model=model, step=step)
    latest = tf.train.latest_checkpoint(MODEL_DIR + "/checkpoints")
    resumed_from = 0
    if latest:
        checkpoint.restore(latest).assert_existing_objects_matched()
        resumed_from = int(step.numpy())
        print(f"resumed from step {resumed_from} ({latest})", flush=True)
    manager = tf.train.CheckpointManager(checkpoint, workdir + "/checkpoints", max_to_keep=5)
    # Flushed every 5 s rather than at each scalar: each flush is a request to HDFS, which makes what was
    # written visible to TensorBoard.
    writer = tf.summary.create_file_writer(workdir + "/train", flush_millis=5000)
    steps = int(os.environ.get("TRAIN_STEPS", "200"))
    pause = float(os.environ.get("STEP_SECONDS", "0"))
    checkpoint_every = int(os.environ.get("CHECKPOINT_EVERY", "50"))
    first_loss = None
    while int(step.numpy()) < steps:
        loss = float(train_step())
        time.sleep(pause)
        first_loss = loss if first_loss is None else first_loss
        current = int(step.numpy())
        if current % 10 == 0:
            with writer.as_default():
                tf.summary.scalar("loss", loss, step=current)
        if current % checkpoint_every == 0:
            manager.save(checkpoint_number=current)
    manager.save(checkpoint_number=int(step.numpy()))
    writer.close()
    export_saved_model(model, workdir + "/saved_model")

    x_train, y_train = whole(DATA + "/train.tfrecord")
    full_loss, accuracy = loss_and_accuracy(model, x_train, y_train)
    summary = {"first_loss": first_loss, "last_loss": float(full_loss), "train_accuracy": float(accuracy),
               "steps": int(step.numpy()), "replicas": strategy.num_replicas_in_sync, "resumed_from": resumed_from}
    print(f"trained {summary}", flush=True)
    if is_chief:
        with tf.io.gfile.GFile(MODEL_DIR + "/training.json", "w") as out:
            out.write(json.dumps(summary))
        mark_training_done(MODEL_DIR + "/checkpoints")
    else:
        tf.io.gfile.rmtree(workdir)


def evaluate():
    x_test, y_test = whole(DATA + "/test.tfrecord")
    evaluate_checkpoints(MODEL_DIR + "/checkpoints", MODEL_DIR + "/eval", x_test, y_test)


if __name__ == "__main__":
    if os.environ.get("JOB_NAME") == "evaluator":
        evaluate()
    else:
        train()
