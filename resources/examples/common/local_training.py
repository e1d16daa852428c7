"""Single-process training with checkpoints and summaries, used by the chief
of the wine-quality example."""

import json
import os
import time

import tensorflow as tf

from example_support import mark_training_done, wine_splits
from wine_model import WineClassifier, loss_and_accuracy


def export_saved_model(model, directory, io_device=None):
    """`io_device`: the device whose host writes the files (the chief's, when the variables live
    on parameter servers whose hosts share no disk with it)."""
    serve = tf.function(lambda x: tf.nn.softmax(model(x)),
                        input_signature=[tf.TensorSpec([None, model.w1.shape[0]], tf.float32)])
    tf.saved_model.save(model, directory, signatures={"serving_default": serve},
                        options=tf.saved_model.SaveOptions(experimental_io_device=io_device))


def train(output, steps=300, learning_rate=0.1, checkpoint_every=50, width=32, seconds_per_log=0.0):
    """`seconds_per_log` paces training, so that a sweep's rungs see trials in the middle of their run."""
    x_train, y_train, _, _ = wine_splits()
    model = WineClassifier(hidden=width)
    step = tf.Variable(0, dtype=tf.int64)
    checkpoint_dir = os.path.join(output, "checkpoints")
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(model=model, step=step), checkpoint_dir, max_to_keep=20)
    # A chief that starts again (a restart, on whatever node) goes on from its last checkpoint.
    manager.restore_or_initialize()
    resumed_from = int(step.numpy())
    if resumed_from:
        print(f"resuming from step {resumed_from} ({manager.latest_checkpoint})", flush=True)
    # Flushed every second: a sweep reads the scalars while the trial runs.
    writer = tf.summary.create_file_writer(os.path.join(output, "train"), flush_millis=1000)
    batches = iter(tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(256, seed=3).repeat().batch(16))

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss, accuracy = loss_and_accuracy(model, x, y)
        for variable, gradient in zip(model.trainable_variables, tape.gradient(loss, model.trainable_variables)):
            variable.assign_sub(learning_rate * gradient)
        step.assign_add(1)
        return loss, accuracy

    history = []
    started, started_at = time.monotonic(), int(step.numpy())
    while int(step.numpy()) < steps:
        loss, accuracy = train_step(*next(batches))
        current = int(step.numpy())
        if current % 10 == 0:
            with writer.as_default():
                tf.summary.scalar("loss", loss, step=current)
                tf.summary.scalar("accuracy", accuracy, step=current)
            history.append(float(loss))
            if seconds_per_log:
                time.sleep(seconds_per_log)
        if current % checkpoint_every == 0:
            manager.save(checkpoint_number=current)
    writer.flush()
    trained_seconds = time.monotonic() - started
    manager.save(checkpoint_number=int(step.numpy()))
    export_saved_model(model, os.path.join(output, "saved_model"))
    # Full-data loss before and after, so anyone can check that training helped.
    full_loss, full_accuracy = loss_and_accuracy(model, x_train, y_train)
    summary = {"first_loss": history[0] if history else float(full_loss), "last_loss": float(full_loss),
               "train_accuracy": float(full_accuracy), "steps": int(step.numpy()), "resumed_from": resumed_from,
               "steps_per_second": (int(step.numpy()) - started_at) / trained_seconds if trained_seconds > 0 else None}
    with open(os.path.join(output, "training.json"), "w", encoding="utf-8") as out:
        json.dump(summary, out)
    mark_training_done(checkpoint_dir)
    print(f"trained {summary}", flush=True)
    return summary
