"""One launch trial of skein (PyPI): N-1 `worker` and one `ps` service instances running
skein_task.py, which rendezvous through skein's key-value store.

Timed from the moment submission starts: skein.Client() (which starts skein's Java driver, as
`skein application submit` does when no global driver runs), the application spec, submit();
until the last task holds every address (see skein_task.py). The application is then killed
with the same client.

With --warm-driver (reported as peer `skein-warm`) the driver is started before the clock starts,
as with a long-lived `skein driver start`: the time is then submit() alone onwards.

usage: python -m peers.skein_peer --tasks N --dir DIR --result FILE [--sleep S] [--timeout T]
                                  [--warm-driver]
Needs HADOOP_CONF_DIR and a `yarn` on PATH that answers `yarn classpath` (bench/launch/hadoop-bin).
"""

import os
import time

from peers import common

HERE = os.path.dirname(os.path.abspath(__file__))
# skein's application master is a Java process of this class (the driver is com.anaconda.skein.Driver).
AM_PATTERN = r"com\.anaconda\.skein\.ApplicationMaster"


def run_trial(args, result):
    started_import = time.time()
    import skein
    result["import_s"] = round(time.time() - started_import, 3)

    names = common.task_names(args.tasks)
    rm, watcher = common.start_watch(AM_PATTERN)
    env = {"BENCH_DIR": args.marks_dir, "BENCH_TASKS": ",".join(names), "BENCH_SLEEP": str(args.sleep)}
    name = f"bench-launch-skein-{args.tasks}-{os.getpid()}"

    if args.warm_driver:
        result["peer"] = "skein-warm"
        client = skein.Client()
        t0 = time.time()
    else:
        t0 = time.time()
        client = skein.Client()
    t_driver = time.time()
    services = {
        task_type: skein.Service(
            script="python skein_task.py",
            resources=skein.Resources(memory=args.memory, vcores=1),
            instances=count,
            max_restarts=0,
            files={"skein_task.py": os.path.join(HERE, "skein_task.py")},
            env=env)
        for task_type, count in common.task_counts(args.tasks).items()
    }
    spec = skein.ApplicationSpec(name=name, queue=args.queue, services=services)
    app_id = client.submit(spec)
    t_submitted = time.time()
    watcher.app_id = app_id
    result["app_id"] = app_id
    result["phases"] = {"driver_started_s": round(t_driver - t0, 3),
                        "submit_returned_s": round(t_submitted - t0, 3)}

    last_check = [0.0]

    def failed():
        if time.time() - last_check[0] < 1.0:
            return None
        last_check[0] = time.time()
        state = client.application_report(app_id).state
        return f"the application ended ({state})" if str(state) in common.FINAL_STATES else None

    try:
        marks = common.wait_for_marks(args.marks_dir, names, t0 + args.timeout, failed)
        common.fill_timings(result, t0, marks, watcher, rm)
    finally:
        common.settle_application(result, rm, watcher, app_id, lambda: client.kill_application(app_id))
        client.close()


def extra_arguments(parser):
    parser.add_argument("--warm-driver", action="store_true",
                        help="start skein's driver before the clock starts")


if __name__ == "__main__":
    common.trial_main("skein", run_trial, __doc__, extra_arguments)
