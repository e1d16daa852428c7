"""A TF1-style between-graph training script, driven only by the flags a
ytf-submit command line builds from the DTF_* variables: the ps serves, each
worker fits y = 3x + 1 with the variables they share placed on the ps, and
reports its losses and what was learned in <output>/tf1-worker-<index>.json."""

import argparse
import json
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ps_hosts", required=True)
    parser.add_argument("--worker_hosts", required=True)
    parser.add_argument("--job_name", required=True)
    parser.add_argument("--task_index", type=int, required=True)
    parser.add_argument("--output", required=True)
    args = parser.parse_args()

    tf.compat.v1.disable_eager_execution()
    cluster = tf.train.ClusterSpec({"ps": args.ps_hosts.split(","), "worker": args.worker_hosts.split(",")})
    server = tf.distribute.Server(cluster, job_name=args.job_name, task_index=args.task_index)
    if args.job_name == "ps":
        server.join()
        return

    worker = f"/job:worker/task:{args.task_index}"
    with tf.compat.v1.device(tf.compat.v1.train.replica_device_setter(worker_device=worker, cluster=cluster)):
        x = tf.compat.v1.placeholder(tf.float32, [None])
        y = tf.compat.v1.placeholder(tf.float32, [None])
        weight = tf.compat.v1.get_variable("weight", [], initializer=tf.compat.v1.zeros_initializer())
        bias = tf.compat.v1.get_variable("bias", [], initializer=tf.compat.v1.zeros_initializer())
        loss = tf.reduce_mean(tf.square(weight * x + bias - y))
        train = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(loss)
        init = tf.compat.v1.global_variables_initializer()

    rng = np.random.default_rng(args.task_index)
    losses = []
    config = tf.compat.v1.ConfigProto(device_filters=["/job:ps", worker])
    with tf.compat.v1.Session(server.target, config=config) as session:
        if args.task_index == 0:
            session.run(init)
        else:
            while not session.run(tf.compat.v1.is_variable_initialized(weight)):
                pass
        for _ in range(200):
            xs = rng.uniform(-1, 1, 64).astype(np.float32)
            _, value = session.run([train, loss], {x: xs, y: 3 * xs + 1})
            losses.append(float(value))
        learned = session.run([weight, bias])
    os.makedirs(args.output, exist_ok=True)
    with open(os.path.join(args.output, f"tf1-worker-{args.task_index}.json"), "w") as out:
        json.dump({"first_loss": losses[0], "last_loss": losses[-1], "steps": len(losses),
                   "weight": float(learned[0]), "bias": float(learned[1])}, out)


if __name__ == "__main__":
    main()
