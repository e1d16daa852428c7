"""Writes TensorBoard event files with real TensorFlow: scalar summaries for
the runs "train" and "eval", as a training script would.

    write_scalar_events.py LOGDIR [--steps N] [--runs train,eval]
"""

import argparse
import math
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import tensorflow as tf  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logdir")
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--runs", default="train,eval")
    args = parser.parse_args()
    for run_index, run in enumerate(args.runs.split(",")):
        writer = tf.summary.create_file_writer(os.path.join(args.logdir, run))
        with writer.as_default():
            for step in range(args.steps):
                # A loss that falls and an accuracy that rises, different per run.
                loss = 2.0 * math.exp(-step / 20.0) + 0.1 * run_index
                tf.summary.scalar("loss", loss, step=step)
                tf.summary.scalar("accuracy", 1.0 - loss / 2.5, step=step)
        writer.close()
    print(f"wrote {args.steps} steps of loss and accuracy for {args.runs} to {args.logdir}")


if __name__ == "__main__":
    main()
