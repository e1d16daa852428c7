"""Writes event files with real TensorFlow under LOGDIR, then reports what
TensorBoard serves from them as one JSON object on stdout:
{"runs": {run: {tag: [[step, wall_time, value], ...]}}}.

Usage: tensorboard_scalars.py LOGDIR

The files hold every way TensorFlow writes scalars (TF2 tf.summary.scalar,
tensors of each numeric dtype written with the scalars plugin's metadata,
TF1 simple_value summaries from a FileWriter and from a session), things
that are not scalars (histograms, text, tensors of no plugin), several runs
and files, and a copy cut off inside its last record. TensorBoard's view
comes from its own loader and data provider: the multiplexer keeping every
point, and the scalars plugin's query.
"""

import json
import os
import shutil
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorboard import context  # noqa: E402
from tensorboard.backend.event_processing import data_provider  # noqa: E402
from tensorboard.backend.event_processing import plugin_event_accumulator  # noqa: E402
from tensorboard.backend.event_processing import plugin_event_multiplexer  # noqa: E402
from tensorboard.plugins.scalar import metadata as scalar_metadata  # noqa: E402


def write_tf2_run(logdir):
    scalars = scalar_metadata.create_summary_metadata(display_name="", description="").SerializeToString()
    writer = tf.summary.create_file_writer(os.path.join(logdir, "train"))
    with writer.as_default():
        for step in range(20):
            tf.summary.scalar("loss", 1.0 / (step + 1), step=step)
            tf.summary.scalar("learning_rate", 0.1 * 0.9**step, step=step)
            tf.summary.write("int32_steps", tf.constant(step * 3 - 7, tf.int32), step=step, metadata=scalars)
            tf.summary.write("int64_examples", tf.constant(step * 10**9, tf.int64), step=step, metadata=scalars)
            tf.summary.write("float64_ratio", tf.constant(step / 7.0, tf.float64), step=step, metadata=scalars)
            tf.summary.write("float16_scale", tf.constant(step / 3.0, tf.float16), step=step, metadata=scalars)
            tf.summary.write("shape_1x1", tf.constant([[step * 0.5]], tf.float32), step=step, metadata=scalars)
            tf.summary.write("no_plugin", tf.constant(float(step)), step=step)
            tf.summary.histogram("weights", np.linspace(0, step, 10), step=step)
            tf.summary.text("note", "step %d" % step, step=step)
    writer.close()
    # A restarted trainer writes a second file in the same run.
    writer = tf.summary.create_file_writer(os.path.join(logdir, "train"))
    with writer.as_default():
        for step in range(20, 25):
            tf.summary.scalar("loss", 1.0 / (step + 1), step=step)
    writer.close()
    writer = tf.summary.create_file_writer(os.path.join(logdir, "eval"))
    with writer.as_default():
        for step in range(0, 20, 5):
            tf.summary.scalar("loss", 2.0 / (step + 1), step=step)
            tf.summary.scalar("accuracy", step / 20.0, step=step)
    writer.close()


def write_tf1_runs(logdir):
    with tf.Graph().as_default():
        writer = tf.compat.v1.summary.FileWriter(logdir)
        for step in range(10):
            values = [
                tf.compat.v1.Summary.Value(tag="tf1/loss", simple_value=3.0 / (step + 1)),
                tf.compat.v1.Summary.Value(tag="tf1/negative", simple_value=-step * 1.25),
            ]
            writer.add_summary(tf.compat.v1.Summary(value=values), step)
        writer.close()
    with tf.Graph().as_default():
        value = tf.compat.v1.placeholder(tf.float32, shape=[])
        summary = tf.compat.v1.summary.merge([tf.compat.v1.summary.scalar("session_value", value)])
        writer = tf.compat.v1.summary.FileWriter(os.path.join(logdir, "tf1", "session"))
        with tf.compat.v1.Session() as session:
            for step in range(10):
                writer.add_summary(session.run(summary, {value: step * step / 3.0}), step)
        writer.close()


def write_cut_copy(logdir):
    source = os.path.join(logdir, "eval")
    (name,) = [name for name in os.listdir(source) if "tfevents" in name]
    target = os.path.join(logdir, "cut")
    os.makedirs(target)
    with open(os.path.join(source, name), "rb") as whole:
        data = whole.read()
    with open(os.path.join(target, name), "wb") as cut:
        cut.write(data[:-5])


def tensorboard_view(logdir):
    multiplexer = plugin_event_multiplexer.EventMultiplexer(
        size_guidance={plugin_event_accumulator.TENSORS: 0}
    )
    multiplexer.AddRunsFromDirectory(logdir)
    multiplexer.Reload()
    provider = data_provider.MultiplexerDataProvider(multiplexer, logdir)
    scalars = provider.read_scalars(
        context.RequestContext(),
        experiment_id="",
        plugin_name=scalar_metadata.PLUGIN_NAME,
        downsample=10**9,
    )
    return {
        run: {tag: [[datum.step, datum.wall_time, datum.value] for datum in data] for tag, data in tags.items()}
        for run, tags in scalars.items()
    }


def main():
    logdir = sys.argv[1]
    write_tf2_run(logdir)
    write_tf1_runs(logdir)
    write_cut_copy(logdir)
    print(json.dumps({"runs": tensorboard_view(logdir)}))


if __name__ == "__main__":
    main()
