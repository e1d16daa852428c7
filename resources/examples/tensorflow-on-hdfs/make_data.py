"""Writes the wine data as TFRecords of tf.train.Example (`x`: 13 floats,
`y`: the class) to DIRECTORY/train.tfrecord and DIRECTORY/test.tfrecord.
DIRECTORY may be local or, where TensorFlow has Spindle's hdfs://, in HDFS.

Usage: python make_data.py DIRECTORY"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../common"))

import tensorflow as tf  # noqa: E402

from example_support import wine_splits  # noqa: E402


def write(path, x, y):
    with tf.io.TFRecordWriter(path) as writer:
        for features, label in zip(x, y):
            example = tf.train.Example(features=tf.train.Features(feature={
                "x": tf.train.Feature(float_list=tf.train.FloatList(value=features.tolist())),
                "y": tf.train.Feature(int64_list=tf.train.Int64List(value=[int(label)])),
            }))
            writer.write(example.SerializeToString())


if __name__ == "__main__":
    directory = sys.argv[1]
    tf.io.gfile.makedirs(directory)
    x_train, y_train, x_test, y_test = wine_splits()
    write(directory + "/train.tfrecord", x_train, y_train)
    write(directory + "/test.tfrecord", x_test, y_test)
