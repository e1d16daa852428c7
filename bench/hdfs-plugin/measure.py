"""One timed case of bench/hdfs-plugin/run, in a TensorFlow process of its own;
prints its wall seconds (the case's part alone, after TensorFlow is loaded).

  read URI                   every record of a TFRecord file, through tf.data
  write URI MIB              a checkpoint of one MIB-MiB variable
  small URI N                N files of 100 bytes written one after the other (each opened,
                             written and closed), as checkpoints and their state files are
  train DATA MODEL_DIR STEPS the tensorflow-on-hdfs example's training, in this process"""

import os
import sys
import time

import tensorflow as tf


def read(uri):
    started = time.perf_counter()
    count = 0
    for _ in tf.data.TFRecordDataset(uri, buffer_size=1024 * 1024):
        count += 1
    elapsed = time.perf_counter() - started
    assert count > 0, uri
    return elapsed


def write(uri, mib):
    weights = tf.Variable(tf.random.stateless_uniform([mib * 256 * 1024], seed=[1, 1]))
    started = time.perf_counter()
    tf.train.Checkpoint(weights=weights).write(uri)
    return time.perf_counter() - started


def small(uri, count):
    tf.io.gfile.makedirs(uri)
    started = time.perf_counter()
    for index in range(count):
        with tf.io.gfile.GFile(f"{uri}/file-{index}", "w") as out:
            out.write("x" * 100)
    return time.perf_counter() - started


def train(data, model_dir, steps):
    example = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../resources/examples")
    sys.path[:0] = [os.path.join(example, "tensorflow-on-hdfs"), os.path.join(example, "common")]
    os.environ.update({"DATA": data, "MODEL_DIR": model_dir, "TRAIN_STEPS": str(steps), "CHECKPOINT_EVERY": "50"})
    import train as example_train

    started = time.perf_counter()
    example_train.train()
    return time.perf_counter() - started


if __name__ == "__main__":
    case, *args = sys.argv[1:]
    seconds = {"read": lambda: read(args[0]), "write": lambda: write(args[0], int(args[1])),
               "small": lambda: small(args[0], int(args[1])),
               "train": lambda: train(args[0], args[1], int(args[2]))}[case]()
    print(f"{seconds:.3f}")
