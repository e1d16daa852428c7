"""The job of the README's "A first job on your own cluster", as one file a user would write.

A chief and two workers train a wine classifier in lock step (MultiWorkerMirroredStrategy: each
holds a replica and the gradients are summed across them every step). Everything goes where
SPINDLE_OUTPUT says, with ordinary file calls: on a cluster with `output: hdfs://...` that is a
directory on the task's own node, which Spindle keeps in HDFS.

- The chief writes the checkpoints, TensorBoard's scalars, the SavedModel and training.json.
  The strategy makes every worker save too; theirs go to a scratch directory and are dropped.
- A job that starts again (a task restarted on another node) goes on from the last checkpoint,
  which every task finds in its SPINDLE_OUTPUT before it starts.
"""

import json
import os
import shutil
import tempfile

import tensorflow as tf
from sklearn.datasets import load_wine
from sklearn.preprocessing import StandardScaler

STEPS = int(os.environ.get("TRAIN_STEPS", "3000"))
CHECKPOINT_EVERY = 100
BATCH_PER_REPLICA = 16
FEATURES, CLASSES, HIDDEN = 13, 3, 32


class WineClassifier(tf.Module):
    def __init__(self):
        super().__init__()
        self.w1 = tf.Variable(tf.random.stateless_normal([FEATURES, HIDDEN], seed=[1, 1]) * 0.3)
        self.b1 = tf.Variable(tf.zeros([HIDDEN]))
        self.w2 = tf.Variable(tf.random.stateless_normal([HIDDEN, CLASSES], seed=[1, 2]) * 0.3)
        self.b2 = tf.Variable(tf.zeros([CLASSES]))

    @tf.function(input_signature=[tf.TensorSpec([None, FEATURES], tf.float32)])
    def __call__(self, x):
        return tf.matmul(tf.nn.relu(tf.matmul(x, self.w1) + self.b1), self.w2) + self.b2

    # What the SavedModel serves: each class's probability.
    @tf.function(input_signature=[tf.TensorSpec([None, FEATURES], tf.float32)])
    def probabilities(self, x):
        return tf.nn.softmax(self(x))


def main():
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    resolver = strategy.cluster_resolver
    is_chief = resolver.task_type == "chief"
    print(f"{resolver.task_type}:{resolver.task_id}: {strategy.num_replicas_in_sync} replicas in sync", flush=True)
    output = os.environ["SPINDLE_OUTPUT"]
    # In the container's working directory, which YARN removes with it.
    scratch = tempfile.mkdtemp(prefix="replica-", dir=os.getcwd())
    saves_to = output if is_chief else scratch

    features, labels = load_wine(return_X_y=True)
    features = StandardScaler().fit_transform(features).astype("float32")
    labels = labels.astype("int32")
    global_batch = BATCH_PER_REPLICA * strategy.num_replicas_in_sync

    with strategy.scope():
        model = WineClassifier()
        step = tf.Variable(0, dtype=tf.int64)
    checkpoint = tf.train.Checkpoint(model=model, step=step)
    # Every task restores the chief's last checkpoint, so that the replicas start equal.
    latest = tf.train.latest_checkpoint(os.path.join(output, "checkpoints"))
    if latest:
        checkpoint.restore(latest)
        print(f"going on from {latest}", flush=True)
    manager = tf.train.CheckpointManager(checkpoint, os.path.join(saves_to, "checkpoints"), max_to_keep=3)

    def dataset_fn(context):
        data = tf.data.Dataset.from_tensor_slices((features, labels))
        data = data.shard(context.num_input_pipelines, context.input_pipeline_id)
        return data.shuffle(256, seed=3).repeat().batch(context.get_per_replica_batch_size(global_batch))

    batches = iter(strategy.distribute_datasets_from_function(dataset_fn))

    @tf.function
    def train_step():
        def on_replica(x, y):
            with tf.GradientTape() as tape:
                per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=model(x))
                loss = tf.nn.compute_average_loss(per_example, global_batch_size=global_batch)
            gradients = tape.gradient(loss, model.trainable_variables)
            gradients = tf.distribute.get_replica_context().all_reduce(tf.distribute.ReduceOp.SUM, gradients)
            for variable, gradient in zip(model.trainable_variables, gradients):
                variable.assign_sub(0.1 * gradient)
            step.assign_add(1)
            return loss

        x, y = next(batches)
        return strategy.reduce(tf.distribute.ReduceOp.SUM, strategy.run(on_replica, args=(x, y)), axis=None)

    writer = tf.summary.create_file_writer(os.path.join(saves_to, "train"))
    started_at, first_loss, loss = int(step.numpy()), None, None
    while int(step.numpy()) < STEPS:
        loss = float(train_step())
        first_loss = loss if first_loss is None else first_loss
        current = int(step.numpy())
        if current % 10 == 0:
            with writer.as_default():
                tf.summary.scalar("loss", loss, step=current)
        if current % CHECKPOINT_EVERY == 0:
            manager.save(checkpoint_number=current)
    writer.close()
    manager.save(checkpoint_number=int(step.numpy()))
    tf.saved_model.save(model, os.path.join(saves_to, "saved_model"),
                        signatures={"serving_default": model.probabilities})

    predicted = tf.argmax(model(tf.constant(features)), axis=1, output_type=tf.int32).numpy()
    summary = {"steps": int(step.numpy()), "started_at": started_at, "first_loss": first_loss, "last_loss": loss,
               "train_accuracy": float((predicted == labels).mean()), "replicas": strategy.num_replicas_in_sync}
    if is_chief:
        with open(os.path.join(output, "training.json"), "w", encoding="utf-8") as out:
            json.dump(summary, out)
    print(f"trained: {summary}", flush=True)
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
