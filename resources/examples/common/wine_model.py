"""A small classifier for the wine data, written with plain tf.Module so it
works under every tf.distribute strategy without Keras' restrictions."""

import tensorflow as tf

from example_support import CLASSES, FEATURES


class WineClassifier(tf.Module):
    def __init__(self, hidden=32, seed=1):
        super().__init__()
        init = tf.random.stateless_normal
        self.w1 = tf.Variable(init([FEATURES, hidden], seed=[seed, 1]) * 0.1, name="w1")
        self.b1 = tf.Variable(tf.zeros([hidden]), name="b1")
        self.w2 = tf.Variable(init([hidden, CLASSES], seed=[seed, 2]) * 0.1, name="w2")
        self.b2 = tf.Variable(tf.zeros([CLASSES]), name="b2")

    def __call__(self, x):
        hidden = tf.nn.relu(tf.matmul(x, self.w1) + self.b1)
        return tf.matmul(hidden, self.w2) + self.b2


def loss_and_accuracy(model, x, y):
    logits = model(x)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, axis=1, output_type=tf.int32), y), tf.float32))
    return loss, accuracy


def evaluate_checkpoints(checkpoint_dir, summary_dir, x_test, y_test):
    """The evaluator's loop: score every checkpoint the chief writes."""
    from example_support import follow_checkpoints

    model = WineClassifier()
    step = tf.Variable(0, dtype=tf.int64)
    checkpoint = tf.train.Checkpoint(model=model, step=step)
    writer = tf.summary.create_file_writer(summary_dir)
    evaluated = 0
    for path in follow_checkpoints(checkpoint_dir):
        checkpoint.restore(path).expect_partial()
        loss, accuracy = loss_and_accuracy(model, x_test, y_test)
        with writer.as_default():
            tf.summary.scalar("loss", loss, step=step)
            tf.summary.scalar("accuracy", accuracy, step=step)
        writer.flush()
        evaluated += 1
        print(f"evaluated {path}: step={int(step.numpy())} loss={float(loss):.4f} "
              f"accuracy={float(accuracy):.3f}", flush=True)
    if evaluated == 0:
        raise SystemExit("the evaluator saw no checkpoint")
