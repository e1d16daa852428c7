"""What TensorBoard's own loader reads from a log directory, as JSON on
stdout: {run: {tag: [[step, value], ...]}}, scalars from tensors and from
simple values alike.

Usage: tensorboard_read.py LOGDIR
"""

import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

from tensorboard.backend.event_processing import event_multiplexer  # noqa: E402
from tensorboard.util import tensor_util  # noqa: E402


def main():
    multiplexer = event_multiplexer.EventMultiplexer(size_guidance={"tensors": 0, "scalars": 0})
    multiplexer.AddRunsFromDirectory(sys.argv[1])
    multiplexer.Reload()
    out = {}
    for run, tags in multiplexer.Runs().items():
        series = {}
        for tag in tags.get("tensors", []):
            series[tag] = [[event.step, float(tensor_util.make_ndarray(event.tensor_proto))]
                           for event in multiplexer.Tensors(run, tag)]
        for tag in tags.get("scalars", []):
            series[tag] = [[event.step, event.value] for event in multiplexer.Scalars(run, tag)]
        out[run] = series
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
