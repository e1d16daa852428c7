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
    finally:
        def kill():
            killed = subprocess.run([args.spindle, "kill", app_id], capture_output=True, text=True, timeout=120)
            if killed.returncode not in (0, 1):  # 1: the job failed or was killed (already over)
                raise common.TrialError((killed.stderr or killed.stdout).strip()[-300:])

        common.settle_application(result, rm, watcher, app_id, kill)


def extra_arguments(parser):
    parser.add_argument("--spindle", required=True, help="the spindle binary")


if __name__ == "__main__":
    common.trial_main("spindle", run_trial, __doc__, extra_arguments)
