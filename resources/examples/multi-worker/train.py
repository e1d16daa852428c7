"""MultiWorkerMirroredStrategy: every worker holds a replica, gradients are
all-reduced each step. Worker 0 (TensorFlow's chief when there is no chief
task) writes the checkpoints and summaries; the others write theirs to
scratch directories, as the strategy requires every worker to save, and
remove them at the end.

When a worker dies, its peers would wait in their all-reduce for good, so
Spindle restarts the whole group; every worker then resumes from worker 0's
newest checkpoint, so that all of them start again from the same step.
"""

import json
import os
import shutil
import tempfile
import time

import tensorflow as tf

from example_support import describe_environment, output_dir, wine_splits
from wine_model import WineClassifier, loss_and_accuracy

BATCH_PER_WORKER = 16


def main():
    describe_environment()
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    resolver = strategy.cluster_resolver
    is_chief = resolver.task_type == "chief" or (resolver.task_type == "worker" and resolver.task_id == 0
                                                 and "chief" not in resolver.cluster_spec().as_dict())
    output = output_dir()
    # In the task's working directory (the container's, which YARN also removes), not the node's /tmp.
    workdir = output if is_chief else tempfile.mkdtemp(prefix="replica-", dir=os.getcwd())
    tf.io.gfile.makedirs(workdir)
    learning_rate = 0.1
    global_batch = BATCH_PER_WORKER * strategy.num_replicas_in_sync
    x_train, y_train, _, _ = wine_splits()

    with strategy.scope():
        model = WineClassifier()
        step = tf.Variable(0, dtype=tf.int64)

    def dataset_fn(context):
        data = tf.data.Dataset.from_tensor_slices((x_train, y_train))
        data = data.shard(context.num_input_pipelines, context.input_pipeline_id)
        return data.shuffle(256, seed=3).repeat().batch(context.get_per_replica_batch_size(global_batch))

    iterator = iter(strategy.distribute_datasets_from_function(dataset_fn))

    @tf.function
    def train_step():
        def replica_step(x, y):
            with tf.GradientTape() as tape:
                logits = model(x)
                per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits)
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
    latest = tf.train.latest_checkpoint(os.path.join(output, "checkpoints"))
    resumed_from = 0
    if latest:
        checkpoint.restore(latest).assert_existing_objects_matched()
        resumed_from = int(step.numpy())
        print(f"resumed from step {resumed_from}", flush=True)
    manager = tf.train.CheckpointManager(checkpoint, os.path.join(workdir, "checkpoints"), max_to_keep=5)
    writer = tf.summary.create_file_writer(os.path.join(workdir, "train"))
    steps = int(os.environ.get("TRAIN_STEPS", "200"))
    pause = float(os.environ.get("STEP_SECONDS", "0"))  # to make a short job last, for tests
    first_loss = None
    while int(step.numpy()) < steps:
        loss = float(train_step())
        time.sleep(pause)
        first_loss = loss if first_loss is None else first_loss
        current = int(step.numpy())
        if current % 10 == 0:
            with writer.as_default():
                tf.summary.scalar("loss", loss, step=current)
        if current % 50 == 0:
            manager.save(checkpoint_number=current)
    writer.flush()
    manager.save(checkpoint_number=int(step.numpy()))

    full_loss, full_accuracy = loss_and_accuracy(model, x_train, y_train)
    summary = {"first_loss": first_loss, "last_loss": float(full_loss), "train_accuracy": float(full_accuracy),
               "steps": int(step.numpy()), "replicas": strategy.num_replicas_in_sync,
               "resumed_from": resumed_from}
    if is_chief:
        with open(os.path.join(output, "training.json"), "w", encoding="utf-8") as out:
            json.dump(summary, out)
    # Each worker's own word that it took part, beside the chief's summary.
    tf.io.gfile.makedirs(os.path.join(output, "workers"))
    with tf.io.gfile.GFile(os.path.join(output, "workers", f"{resolver.task_type}-{resolver.task_id}.json"), "w") as out:
        out.write(json.dumps({"steps": int(step.numpy()), "last_loss": float(full_loss), "resumed_from": resumed_from}))
    print(f"trained {summary}", flush=True)
    if not is_chief:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
