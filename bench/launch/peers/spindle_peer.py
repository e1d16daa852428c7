"""One launch trial of Spindle: `spindle submit SPEC --json` of a generic job with N-1 `worker`
tasks and one `ps`, 256 MiB and one vcore each.

In Spindle a task's command runs only once the task holds its cluster spec, so the command
itself leaves the mark: sh -c 'date +%s.%N > "$BENCH_DIR/$SPINDLE_TASK"; sleep S' (BENCH_DIR
comes through the spec's env). Timed from just before the `spindle submit` process starts; the
application is then ended with `spindle kill APP`. The application master is the process
whose command line holds `spindle-container master`.

usage: python -m peers.spindle_peer --tasks N --dir DIR --result FILE --spindle PATH [--sleep S]
"""

import json
import os
import subprocess
import time

import yaml

from peers import common

AM_PATTERN = r"spindle-container\s+master"


def job_spec(args, name):
    command = f"sh -c 'date +%s.%N > \"$BENCH_DIR/$SPINDLE_TASK\"; sleep {args.sleep:g}'"
    return {
        "name": name,
        "queue": args.queue,
        "framework": "generic",
        "env": {"BENCH_DIR": args.marks_dir},
        "tasks": {
            task_type: {"instances": count, "memory": f"{args.memory} MiB", "vcores": 1, "command": command}
            for task_type, count in common.task_counts(args.tasks).items()
        },
    }


def run_trial(args, result):
    names = common.task_names(args.tasks)
    rm, watcher = common.start_watch(AM_PATTERN)
    name = f"bench-launch-spindle-{args.tasks}-{os.getpid()}"
    spec_path = os.path.join(args.dir, "spec.yaml")
    with open(spec_path, "w") as f:
        yaml.safe_dump(job_spec(args, name), f, sort_keys=False)

    t0 = time.time()
    submitted = subprocess.run([args.spindle, "submit", spec_path, "--json"], capture_output=True,
                               text=True, timeout=args.timeout)
    t_submitted = time.time()
    if submitted.returncode != 0:
        raise common.TrialError(f"spindle submit exited {submitted.returncode}: "
                                f"{(submitted.stderr or submitted.stdout).strip()[-500:]}")
    app_id = json.loads(submitted.stdout)["application_id"]
    watcher.app_id = app_id
    result["app_id"] = app_id
    result["phases"] = {"submit_returned_s": round(t_submitted - t0, 3)}

    last_check = [0.0]

    def failed():
        if time.time() - last_check[0] < 1.0:
            return None
        last_check[0] = time.time()
        state = rm.app(app_id).get("state")
        return f"the application ended ({state})" if state in common.FINAL_STATES else None

    try:
        marks = common.wait_for_marks(args.marks_dir, names, t0 + args.timeout, failed)
        common.fill_timings(result, t0, marks, watcher, rm)
        # After the clock stopped: `spindle watch` reads the master's events into the history
        # store, from which master_phases() reads them once the job is over.
        try:
            subprocess.run([args.spindle, "watch", app_id], capture_output=True, timeout=8)
        except subprocess.TimeoutExpired:
            pass
    finally:
        def kill():
            killed = subprocess.run([args.spindle, "kill", app_id], capture_output=True, text=True, timeout=120)
            if killed.returncode not in (0, 1):  # 1: the job failed or was killed (already over)
                raise common.TrialError((killed.stderr or killed.stdout).strip()[-300:])

        common.settle_application(result, rm, watcher, app_id, kill)
    result["phases"].update(master_phases(args, app_id, t0))


def master_phases(args, app_id, t0):
    """Where the master's time went, from its own events (seconds from the start of submission):
    registered with the RM; the last container allocated, and in how many allocation rounds
    (bursts of allocations more than 0.1 s apart); the last NodeManager start call answered
    (launched); the last executor registered; the first cluster spec published."""
    history = subprocess.run([args.spindle, "history", app_id, "--json"], capture_output=True, text=True,
                             timeout=60)
    if history.returncode != 0:
        return {}
    events = json.loads(history.stdout).get("events", [])

    def times(kind, words=""):
        return sorted(e["time_ms"] / 1000 - t0 for e in events if e["kind"] == kind and words in e["message"])

    phases = {}
    for key, stamps in (("am_registered_s", times("job", "registered")), ("last_allocated_s", times("allocated")),
                        ("last_launched_s", times("launched")), ("last_registered_s", times("registered")),
                        ("spec_published_s", times("cluster"))):
        if stamps:
            phases[key] = round(stamps[0] if key in ("am_registered_s", "spec_published_s") else stamps[-1], 3)
    allocated = times("allocated")
    if allocated:
        phases["allocation_rounds"] = 1 + sum(1 for a, b in zip(allocated, allocated[1:]) if b - a > 0.1)
    return phases


def extra_arguments(parser):
    parser.add_argument("--spindle", required=True, help="the spindle binary")


if __name__ == "__main__":
    common.trial_main("spindle", run_trial, __doc__, extra_arguments)
