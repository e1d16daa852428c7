"""The sweep benchmark's measurements (bench/sweep/run): ASHA against the full grid on one search
space, and the controller's overhead against the single-job submit path, on the local YARN.

Everything is read from the ResourceManager's REST API (each application's submit, start and finish
times, its vcore-seconds) and from `spindle sweep status --json`, polled every second."""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import uuid
import xml.etree.ElementTree as ElementTree

SPINDLE = os.environ["SPINDLE_CLI"]
SOURCE = os.environ["SPINDLE_SOURCE_DIR"]
CONF = os.environ["HADOOP_CONF_DIR"]


def configuration(name):
    for file in ("yarn-site.xml", "core-site.xml"):
        path = os.path.join(CONF, file)
        if os.path.exists(path):
            for prop in ElementTree.parse(path).getroot().iter("property"):
                if prop.findtext("name") == name:
                    return prop.findtext("value")
    raise SystemExit(f"{name} is not in {CONF}")


def rm_apps(tag):
    address = configuration("yarn.resourcemanager.webapp.address")
    query = urllib.parse.urlencode({"applicationTags": tag})
    with urllib.request.urlopen(f"http://{address}/ws/v1/cluster/apps?{query}", timeout=30) as answer:
        return (json.load(answer).get("apps") or {}).get("app") or []


def rm_app(application):
    address = configuration("yarn.resourcemanager.webapp.address")
    with urllib.request.urlopen(f"http://{address}/ws/v1/cluster/apps/{application}", timeout=30) as answer:
        return json.load(answer)["app"]


def spindle(*args):
    done = subprocess.run([SPINDLE, *args], capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise SystemExit(f"spindle {' '.join(args)} failed: {done.stderr}")
    return done.stdout


def sweep_spec(directory, name, early_stopping, rates, widths):
    validated = json.loads(spindle("validate", "--json", os.path.join(SOURCE, "resources/examples/wine-sweep/wine_sweep.yaml")))
    spec = validated["spec"]
    spec.pop("python_env", None)  # the local YARN hands containers the venv of scripts/setup
    spec["name"] = name
    spec["output"] = f"hdfs:///tmp/spindle-bench-sweep/{uuid.uuid4().hex[:8]}"
    spec["sweep"] = {"method": "grid", "parallel": 3, "metric": validated["sweep"]["metric"],
                     "parameters": {"learning_rate": rates, "width": widths},
                     "early_stopping": early_stopping}
    path = os.path.join(directory, f"{name}.json")
    with open(path, "w") as out:
        json.dump(spec, out)
    return path


def run_sweep(path):
    """Submits, polls to the end; returns the status, the times its best metric improved, and
    its wall time."""
    started = time.time()
    sweep = json.loads(spindle("sweep", "submit", "--json", path))["sweep_id"]
    improvements = []
    best = None
    while True:
        status = json.loads(spindle("sweep", "status", "--json", sweep))
        values = [t["best"]["value"] for t in status["trials"] if t["best"]]
        if values and (best is None or min(values) < best):
            best = min(values)
            improvements.append((time.time() - started, best))
        if status["state"] != "running":
            break
        time.sleep(1)
    return sweep, status, improvements, time.time() - started


def container_hours(sweep):
    """vcore-seconds of the sweep's trials and controller, as the ResourceManager counted them
    (every container here has one vcore), in hours."""
    apps = rm_apps(f"spindle-sweep:{sweep}") + [rm_app(sweep)]
    return sum(app.get("vcoreSeconds", 0) for app in apps) / 3600.0


def first_reaching(improvements, target):
    for seconds, value in improvements:
        if value <= target:
            return seconds
    return None


def slot_gaps(sweep):
    """For each trial submitted after another ended: its submission time minus the end of the trial
    whose slot it took (the latest end before it), from the ResourceManager's times."""
    apps = sorted(rm_apps(f"spindle-sweep:{sweep}"), key=lambda app: app["startedTime"])
    gaps = []
    for app in apps:
        ended_before = [other["finishedTime"] for other in apps
                        if other is not app and 0 < other["finishedTime"] <= app["startedTime"]]
        if ended_before:
            gaps.append((app["startedTime"] - max(ended_before)) / 1000.0)
    return gaps


def single_submits(directory, count):
    """The single-job path for the same trial: `spindle submit` from start to return, for a job whose
    files are staged anew each time (the controller stages nothing per trial)."""
    validated = json.loads(spindle("validate", "--json", os.path.join(SOURCE, "resources/examples/wine-sweep/wine_sweep.yaml")))
    spec = validated["spec"]
    spec.pop("python_env", None)
    spec["output"] = f"hdfs:///tmp/spindle-bench-sweep/{uuid.uuid4().hex[:8]}"
    spec["env"]["TRAIN_STEPS"] = "10"
    spec["env"]["SECONDS_PER_LOG"] = "0"
    path = os.path.join(directory, "single.json")
    with open(path, "w") as out:
        json.dump(spec, out)
    times = []
    for _ in range(count):
        started = time.time()
        submitted = json.loads(spindle("submit", "--json", path))
        times.append(time.time() - started)
        spindle("kill", submitted["application_id"])
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--submits", type=int, default=5, help="single-job submits to time")
    args = parser.parse_args()
    directory = tempfile.mkdtemp(prefix="spindle-bench-sweep-")
    rates = ["0.005", "0.02", "0.05", "0.1", "0.3"]
    widths = ["8", "32", "64"]
    grid = run_sweep(sweep_spec(directory, "bench-grid", {"rule": "none"}, rates, widths))
    asha = run_sweep(sweep_spec(directory, "bench-asha", {"rule": "asha", "steps": [60, 150], "reduction_factor": 3},
                                rates, widths))
    # The targets: a loss the model is plainly trained at (0.05, 0.01), and the best the full grid
    # reached with 10 % to spare.
    grid_best = grid[2][-1][1]
    targets = [0.05, 0.01, grid_best * 1.1]
    rows = []
    for label, (sweep, status, improvements, wall) in (("full grid", grid), ("ASHA", asha)):
        stopped = sum(t["state"] == "stopped by the sweep" for t in status["trials"])
        rows.append({"search": label, "sweep": sweep, "trials": len(status["trials"]), "stopped": stopped,
                     "best": improvements[-1][1] if improvements else None,
                     "seconds_to": [first_reaching(improvements, target) for target in targets], "wall_seconds": wall,
                     "container_hours": container_hours(sweep), "gaps": slot_gaps(sweep)})
    submits = single_submits(directory, args.submits)
    gaps = rows[0]["gaps"] + rows[1]["gaps"]
    print(json.dumps({"targets": targets, "rows": rows, "single_submit_seconds": submits}, indent=1), file=sys.stderr)

    print(f"search space: learning_rate {rates} x width {widths}, {len(rates) * len(widths)} trials in the seed's order, "
          f"3 at a time; the full grid's best loss {grid_best:.4g}")
    heads = " | ".join(f"time to loss <= {target:.3g}" for target in targets)
    print(f"| search | stopped early | best loss | {heads} | wall time | container-hours |")
    print("|---|---|---|" + "---|" * len(targets) + "---|---|")
    for row in rows:
        times = " | ".join(f"{seconds:.0f} s" if seconds is not None else "never" for seconds in row["seconds_to"])
        print(f"| {row['search']} | {row['stopped']} of {row['trials']} | {row['best']:.4g} | {times} | "
              f"{row['wall_seconds']:.0f} s | {row['container_hours']:.3f} |")
    grid_row, asha_row = rows
    ratios = [f"{a / g:.2f}" if a is not None and g else "-" for a, g in zip(asha_row["seconds_to"], grid_row["seconds_to"])]
    print(f"ASHA/grid: time to each loss {', '.join(ratios)}; wall time {asha_row['wall_seconds'] / grid_row['wall_seconds']:.2f}; "
          f"container-hours {asha_row['container_hours'] / grid_row['container_hours']:.2f}")
    if gaps:
        print(f"controller: a freed slot to the next trial's submission, median {statistics.median(gaps):.2f} s "
              f"(min {min(gaps):.2f}, max {max(gaps):.2f}, {len(gaps)} trials)")
    print(f"single-job path: spindle submit of the same trial, median {statistics.median(submits):.2f} s "
          f"(min {min(submits):.2f}, max {max(submits):.2f}, {len(submits)} submits)")
    if gaps:
        print(f"ratio controller/submit: {statistics.median(gaps) / statistics.median(submits):.2f}")


if __name__ == "__main__":
    main()
