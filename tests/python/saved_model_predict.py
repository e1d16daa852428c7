"""Loads a wine SavedModel the way a user serving it would and predicts the held-out wine samples
once through its serving signature. Prints one JSON line: the signature's input and output names,
the predicted probabilities' shape, and the accuracy on the held-out samples. Exits non-zero when
the directory holds no SavedModel, the signature is missing, or the answers are no probabilities.

Usage: saved_model_predict.py SAVED_MODEL_DIRECTORY"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../resources/examples/common"))

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

from example_support import CLASSES, wine_splits  # noqa: E402


def main(directory):
    # Through tf.io.gfile: `directory` may be an hdfs:// URI (Spindle's plugin on PYTHONPATH).
    if not tf.io.gfile.exists(directory.rstrip("/") + "/saved_model.pb"):
        listed = sorted(tf.io.gfile.listdir(directory)) if tf.io.gfile.isdir(directory) else "no such directory"
        sys.exit(f"{directory} holds no saved_model.pb: {listed}")
    loaded = tf.saved_model.load(directory)
    if "serving_default" not in loaded.signatures:
        sys.exit(f"{directory} has no serving_default signature: {list(loaded.signatures)}")
    serve = loaded.signatures["serving_default"]
    _, _, x_test, y_test = wine_splits()
    (input_name,) = serve.structured_input_signature[1].keys()
    (output_name, probabilities), = serve(**{input_name: tf.constant(x_test)}).items()
    probabilities = probabilities.numpy()
    if probabilities.shape != (len(x_test), CLASSES):
        sys.exit(f"the model answered shape {probabilities.shape} for {len(x_test)} samples of {CLASSES} classes")
    if not np.allclose(probabilities.sum(axis=1), 1.0, atol=1e-4) or (probabilities < 0).any():
        sys.exit(f"the model's answers are no probabilities: {probabilities[:3]}")
    accuracy = float((probabilities.argmax(axis=1) == y_test).mean())
    print(json.dumps({"input": input_name, "output": output_name, "shape": list(probabilities.shape),
                      "accuracy": accuracy}))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
