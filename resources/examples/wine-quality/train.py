"""Wine classification with a chief that trains and an evaluator beside it.

The chief trains alone (its TF_CONFIG cluster holds only itself) and writes
checkpoints; the evaluator, which TensorFlow keeps out of the training
cluster, scores each checkpoint; TensorBoard shows both from the output
directory.
"""

import os
import sys

import tensorflow as tf

from example_support import describe_environment, output_dir, task, wine_splits
from local_training import train
from wine_model import evaluate_checkpoints


def main():
    describe_environment()
    kind, _ = task()
    output = output_dir()
    steps = int(os.environ.get("TRAIN_STEPS", "300"))
    if kind == "chief":
        tf.io.gfile.makedirs(output)
        # A sweep sets these per trial (resources/examples/wine-sweep).
        train(output, steps=steps, checkpoint_every=int(os.environ.get("CHECKPOINT_EVERY", "50")),
              learning_rate=float(os.environ.get("LEARNING_RATE", "0.1")), width=int(os.environ.get("WIDTH", "32")),
              seconds_per_log=float(os.environ.get("SECONDS_PER_LOG", "0")))
    elif kind == "evaluator":
        _, _, x_test, y_test = wine_splits()
        evaluate_checkpoints(os.path.join(output, "checkpoints"), os.path.join(output, "eval"), x_test, y_test)
    else:
        sys.exit(f"this example runs a chief and an evaluator, not a {kind}")


if __name__ == "__main__":
    main()
