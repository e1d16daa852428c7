"""ParameterServerStrategy: workers and parameter servers run TensorFlow
servers, the chief coordinates training through them, an evaluator scores
the chief's checkpoints from beside the cluster.
"""

import json
import os
import sys

import tensorflow as tf

from example_support import describe_environment, mark_training_done, output_dir, wine_splits
from local_training import export_saved_model
from wine_model import WineClassifier, evaluate_checkpoints, loss_and_accuracy


def run_server(resolver):
    # Workers and parameter servers serve the chief until the job stops them.
    server = tf.distribute.Server(resolver.cluster_spec(), job_name=resolver.task_type,
                                  task_index=resolver.task_id, protocol="grpc", start=True)
    print(f"{resolver.task_type}:{resolver.task_id} serving at {server.target}", flush=True)
    server.join()


def coordinate(resolver, output, steps, learning_rate=0.1):
    strategy = tf.distribute.ParameterServerStrategy(resolver)
    coordinator = tf.distribute.coordinator.ClusterCoordinator(strategy)
    x_train, y_train, _, _ = wine_splits()
    with strategy.scope():
        model = WineClassifier()
        step = tf.Variable(0, dtype=tf.int64)

    def dataset_fn():
        return tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(256, seed=3).repeat().batch(16)

    @tf.function
    def per_worker_dataset_fn():
        return strategy.distribute_datasets_from_function(lambda _: dataset_fn())

    per_worker_iterator = iter(coordinator.create_per_worker_dataset(per_worker_dataset_fn))

    @tf.function
    def train_step(iterator):
        def replica_step(x, y):
            with tf.GradientTape() as tape:
                loss, _ = loss_and_accuracy(model, x, y)
            gradients = tape.gradient(loss, model.trainable_variables)
            for variable, gradient in zip(model.trainable_variables, gradients):
                variable.assign_sub(learning_rate * gradient)
            step.assign_add(1)
            return loss

        x, y = next(iterator)
        # Which worker ran the step, so the summary can show that each took part.
        return strategy.run(replica_step, args=(x, y)), tf.distribute.coordinator.experimental_get_current_worker_index()

    # The variables live on the parameter servers, which by default would each write their part
    # of a checkpoint from their own host. On nodes that share no disk (the output is a directory
    # of each node, kept in HDFS) the chief must do all the writing: it reads the variables and
    # writes the files itself.
    on_chief = "/job:chief/replica:0/task:0/device:CPU:0"
    checkpoint_options = tf.train.CheckpointOptions(experimental_io_device=on_chief)
    checkpoint_dir = os.path.join(output, "checkpoints")
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(model=model, step=step), checkpoint_dir, max_to_keep=20)
    writer = tf.summary.create_file_writer(os.path.join(output, "train"))
    first_loss = None
    steps_per_worker = {}
    rounds = max(1, steps // 50)
    for _ in range(rounds):
        results = [coordinator.schedule(train_step, args=(per_worker_iterator,)) for _ in range(50)]
        coordinator.join()
        for result in results:
            worker = str(int(result.fetch()[1]))
            steps_per_worker[worker] = steps_per_worker.get(worker, 0) + 1
        loss = float(results[-1].fetch()[0])
        first_loss = loss if first_loss is None else first_loss
        current = int(step.numpy())
        with writer.as_default():
            tf.summary.scalar("loss", loss, step=current)
        writer.flush()
        manager.save(checkpoint_number=current, options=checkpoint_options)
        print(f"step {current} loss {loss:.4f}", flush=True)

    full_loss, full_accuracy = loss_and_accuracy(model, x_train, y_train)
    export_saved_model(model, os.path.join(output, "saved_model"), io_device=on_chief)
    summary = {"first_loss": first_loss, "last_loss": float(full_loss), "train_accuracy": float(full_accuracy),
               "steps": int(step.numpy()), "workers": len(resolver.cluster_spec().as_dict().get("worker", [])),
               "steps_per_worker": steps_per_worker}
    with open(os.path.join(output, "training.json"), "w", encoding="utf-8") as out:
        json.dump(summary, out)
    mark_training_done(checkpoint_dir)
    print(f"trained {summary}", flush=True)


def main():
    describe_environment()
    resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
    output = output_dir()
    if resolver.task_type in ("worker", "ps"):
        run_server(resolver)
    elif resolver.task_type == "chief":
        tf.io.gfile.makedirs(output)
        coordinate(resolver, output, steps=int(os.environ.get("TRAIN_STEPS", "300")))
    elif resolver.task_type == "evaluator":
        _, _, x_test, y_test = wine_splits()
        evaluate_checkpoints(os.path.join(output, "checkpoints"), os.path.join(output, "eval"), x_test, y_test)
    else:
        sys.exit(f"this example has no role for a {resolver.task_type}")


if __name__ == "__main__":
    main()
