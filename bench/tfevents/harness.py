"""Event-file reading speed: Spindle's EventFileReader against TensorBoard's
own loaders, on one file of scalars that real TensorFlow writes (cached
between runs). Every reader reads the same file from the page cache; each
figure is the best of --repeats runs. MB are 10^6 bytes.
"""

import argparse
import glob
import json
import os
import subprocess
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

TAGS = [
    "loss",
    "accuracy",
    "learning_rate",
    "gradient_norm",
    "examples_per_second",
    "validation/loss",
    "validation/accuracy",
    "memory_mb",
]


def event_file(cache, steps):
    """The file for `steps` steps of eight tf.summary.scalar tags, written once."""
    directory = os.path.join(cache, "steps-%d" % steps)
    done = os.path.join(directory, "complete")
    if not os.path.exists(done):
        import tensorflow as tf

        for old in glob.glob(os.path.join(directory, "*tfevents*")):
            os.remove(old)
        print("writing %d steps of %d scalars with TensorFlow into %s" % (steps, len(TAGS), directory), file=sys.stderr)
        writer = tf.summary.create_file_writer(directory, max_queue=10000, flush_millis=600000)

        # Graph mode writes a record per call without Python in between.
        @tf.function
        def write_steps(start, count):
            for step in tf.range(start, start + count):
                x = tf.cast(step, tf.float32)
                for k, tag in enumerate(TAGS):
                    tf.summary.scalar(tag, x * (k + 1) / 1000.0 + 0.5, step=step)

        with writer.as_default():
            for start in range(0, steps, 10000):
                write_steps(tf.constant(start, tf.int64), tf.constant(min(10000, steps - start), tf.int64))
        writer.close()
        open(done, "w").close()
    (path,) = glob.glob(os.path.join(directory, "*tfevents*"))
    return path


def best_of(repeats, read):
    best, points = None, None
    for _ in range(repeats):
        start = time.perf_counter()
        points = read()
        took = time.perf_counter() - start
        best = took if best is None else min(best, took)
    return best, points


def tensorboard_event_file_loader(path):
    from tensorboard.backend.event_processing import event_file_loader

    return sum(len(event.summary.value) for event in event_file_loader.EventFileLoader(path).Load())


def tensorboard_raw_records(path):
    from tensorboard.backend.event_processing import event_file_loader

    return sum(1 for _ in event_file_loader.RawEventFileLoader(path).Load())


def tensorboard_serving(path):
    """What a TensorBoard server does: load the run, then answer the scalars plugin."""
    from tensorboard import context
    from tensorboard.backend.event_processing import data_provider
    from tensorboard.backend.event_processing import plugin_event_accumulator
    from tensorboard.backend.event_processing import plugin_event_multiplexer

    logdir = os.path.dirname(path)
    multiplexer = plugin_event_multiplexer.EventMultiplexer(size_guidance={plugin_event_accumulator.TENSORS: 0})
    multiplexer.AddRunsFromDirectory(logdir)
    multiplexer.Reload()
    provider = data_provider.MultiplexerDataProvider(multiplexer, logdir)
    scalars = provider.read_scalars(
        context.RequestContext(), experiment_id="", plugin_name="scalars", downsample=10**9
    )
    return sum(len(data) for tags in scalars.values() for data in tags.values())


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True, help="the tfevents_read benchmark of a release build")
    parser.add_argument("--cache", required=True, help="where the generated event file is kept")
    parser.add_argument("--steps", type=int, default=130000, help="training steps in the file (8 scalars each)")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    path = event_file(args.cache, args.steps)
    size = os.path.getsize(path)
    with open(path, "rb") as warm:
        while warm.read(1 << 24):
            pass

    ours = json.loads(subprocess.check_output([args.binary, path, str(max(args.repeats, 5))]))
    rows = [("Spindle EventFileReader (C++)", ours["seconds"], ours["points"])]
    for label, read, repeats in [
        ("TensorBoard EventFileLoader (events parsed)", tensorboard_event_file_loader, args.repeats),
        ("TensorBoard RawEventFileLoader (records, unparsed)", tensorboard_raw_records, args.repeats),
        ("TensorBoard multiplexer + scalars query (serving)", tensorboard_serving, 1),
    ]:
        seconds, points = best_of(repeats, lambda: read(path))
        rows.append((label, seconds, points))

    print("file: %s (%.1f MB)" % (path, size / 1e6))
    print("%-52s %10s %10s %12s" % ("reader", "MB/s", "seconds", "points"))
    for label, seconds, points in rows:
        print("%-52s %10.1f %10.3f %12d" % (label, size / seconds / 1e6, seconds, points))
    for label, seconds, _ in rows[1:]:
        print("Spindle / %s: %.1fx" % (label.split(" (")[0], seconds / rows[0][1]))
    if ours["points"] != rows[3][2]:
        print("points differ: Spindle %d, TensorBoard serves %d" % (ours["points"], rows[3][2]))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
