"""What TensorFlow does to hdfs:// through Spindle's plugin, run in a process
of its own by tensorflow_hdfs_test.py: `write BASE` writes and checks every
kind of file operation TensorFlow's writers and readers use under BASE (an
hdfs:// directory), `read URI SHA256 SIZE` reads a file Hadoop's client
wrote. Prints one JSON line of what it found; exits non-zero on the first
difference, saying which."""

import hashlib
import json
import sys

import spindle_hdfs

spindle_hdfs.register_tensorflow()
import tensorflow as tf  # noqa: E402


def pattern(size, seed):
    """Bytes no two offsets of which repeat in step: a misplaced piece shows."""
    return hashlib.shake_256(b"spindle-%d" % seed).digest(size)


def expect(found, wanted, what):
    if found != wanted:
        raise SystemExit(f"{what}: found {found!r:.200}, wanted {wanted!r:.200}")


def write(base):
    gfile = tf.io.gfile
    expect(gfile.exists(base), False, f"{base} before the test")
    gfile.makedirs(base + "/a/b")
    expect(gfile.isdir(base + "/a/b"), True, "isdir after makedirs")

    # Appends in pieces, a flush in between (the reader sees that much), more after it.
    big = pattern(3 * 1024 * 1024 + 17, 1)
    with gfile.GFile(base + "/a/written.bin", "wb") as out:
        out.write(big[:1000])
        out.flush()
        expect(gfile.GFile(base + "/a/written.bin", "rb").read(), big[:1000], "what a flush made visible")
        for start in range(1000, len(big), 65536):
            out.write(big[start : start + 65536])
    expect(gfile.stat(base + "/a/written.bin").length, len(big), "length after close")
    with gfile.GFile(base + "/a/written.bin", "rb") as back:
        expect(back.read(), big, "the file read back whole")
        back.seek(2 * 1024 * 1024 + 5)
        expect(back.read(100), big[2 * 1024 * 1024 + 5 : 2 * 1024 * 1024 + 105], "a read after a seek")

    # Appending to what is there.
    with gfile.GFile(base + "/a/written.bin", "ab") as out:
        out.write(b"tail")
    expect(gfile.GFile(base + "/a/written.bin", "rb").read()[-8:], big[-4:] + b"tail", "an append")

    # TFRecords written and read back through tf.data.
    records = [pattern(100 + i * 37, 10 + i) for i in range(200)]
    with tf.io.TFRecordWriter(base + "/a/b/data.tfrecord") as writer:
        for record in records:
            writer.write(record)
    read = [bytes(r.numpy()) for r in tf.data.TFRecordDataset(base + "/a/b/data.tfrecord")]
    expect(read, records, "TFRecords read back")

    # Listing, glob, rename over a file, removal.
    gfile.GFile(base + "/a/one.txt", "w").write("one")
    gfile.GFile(base + "/a/two.txt", "w").write("two")
    expect(sorted(gfile.listdir(base + "/a")), ["b", "one.txt", "two.txt", "written.bin"], "listdir")
    expect(sorted(gfile.glob(base + "/a/*.txt")), [base + "/a/one.txt", base + "/a/two.txt"], "glob")
    gfile.rename(base + "/a/one.txt", base + "/a/two.txt", overwrite=True)
    expect(gfile.GFile(base + "/a/two.txt").read(), "one", "a rename over a file")
    expect(gfile.exists(base + "/a/one.txt"), False, "the renamed file's old name")
    gfile.remove(base + "/a/two.txt")
    expect(gfile.exists(base + "/a/two.txt"), False, "a removed file")

    # A file whose directories are missing gets them, as HDFS's own clients make them.
    with gfile.GFile(base + "/made/on/write.txt", "w") as out:
        out.write("deep")
    expect(gfile.GFile(base + "/made/on/write.txt").read(), "deep", "a file written into missing directories")

    # A missing file is NotFound, a directory that is not empty is not removed without rmtree.
    try:
        gfile.GFile(base + "/missing", "rb").read()
        raise SystemExit("reading a missing file succeeded")
    except tf.errors.NotFoundError as error:
        missing = str(error)
    gfile.makedirs(base + "/gone/deeper")
    gfile.GFile(base + "/gone/deeper/x", "w").write("x")
    gfile.rmtree(base + "/gone")
    expect(gfile.exists(base + "/gone"), False, "rmtree")

    # A checkpoint and a summary, as training writes them.
    step = tf.Variable(7, dtype=tf.int64)
    weights = tf.Variable(tf.random.stateless_normal([300, 300], seed=[1, 2]))
    checkpoint = tf.train.Checkpoint(step=step, weights=weights)
    manager = tf.train.CheckpointManager(checkpoint, base + "/checkpoints", max_to_keep=2)
    for _ in range(3):
        step.assign_add(1)
        manager.save()
    restored = tf.train.Checkpoint(step=tf.Variable(0, dtype=tf.int64), weights=tf.Variable(tf.zeros([300, 300])))
    restored.restore(tf.train.latest_checkpoint(base + "/checkpoints")).assert_consumed()
    expect(int(restored.step.numpy()), 10, "the step of the newest checkpoint")
    expect(bool(tf.reduce_all(restored.weights == weights)), True, "the weights restored")
    expect(len(gfile.glob(base + "/checkpoints/ckpt-*.index")), 2, "checkpoints kept by max_to_keep")
    writer = tf.summary.create_file_writer(base + "/logs")
    with writer.as_default():
        for i in range(5):
            tf.summary.scalar("loss", 1.0 / (i + 1), step=i)
    writer.close()
    print(json.dumps({"written": base + "/a/written.bin", "size": len(big) + 4,
                      "sha256": hashlib.sha256(big + b"tail").hexdigest(), "missing_error": missing}))


def read(uri, sha256, size):
    data = tf.io.gfile.GFile(uri, "rb").read()
    expect(len(data), size, f"the length of {uri}")
    expect(hashlib.sha256(data).hexdigest(), sha256, f"the bytes of {uri}")
    print(json.dumps({"read": uri, "size": len(data)}))


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2])
    else:
        read(sys.argv[2], sys.argv[3], int(sys.argv[4]))
