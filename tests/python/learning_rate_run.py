"""A short real training run for comparing runs: fits y = 3x + 1 with plain
gradient descent at the learning rate given, and writes its loss at every
step with tf.summary.scalar to OUTPUT/train, as TensorBoard reads it.

Usage: learning_rate_run.py OUTPUT --learning-rate 0.05 [--steps 40]
"""

import argparse
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("output")
    parser.add_argument("--learning-rate", type=float, required=True)
    parser.add_argument("--steps", type=int, default=40)
    args = parser.parse_args()
    x = tf.linspace(-1.0, 1.0, 64)
    y = 3.0 * x + 1.0
    weight = tf.Variable(0.0)
    bias = tf.Variable(0.0)
    optimizer = tf.keras.optimizers.SGD(learning_rate=args.learning_rate)
    writer = tf.summary.create_file_writer(os.path.join(args.output, "train"))
    with writer.as_default():
        for step in range(1, args.steps + 1):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(weight * x + bias - y))
            optimizer.apply_gradients(zip(tape.gradient(loss, [weight, bias]), [weight, bias]))
            tf.summary.scalar("loss", loss, step=step)
    writer.flush()


if __name__ == "__main__":
    main()
