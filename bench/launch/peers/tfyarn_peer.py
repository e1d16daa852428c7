"""One launch trial of tf-yarn (PyPI): tf_yarn.tensorflow.run_on_yarn with N-1 `worker` tasks
and one `ps`, 256 MiB and one vcore each.

A task "holds its cluster spec" when tf-yarn hands control to the user's code: in every
container tf-yarn's task module (_independent_workers_task) reserves a port, publishes it in
skein's key-value store, waits for every other task's address, sets TF_CONFIG and then calls
the experiment function. The experiment function below leaves the mark at its first line,
sleeps BENCH_SLEEP seconds and ends the task (SystemExit(0), before returning an Experiment);
the application then finishes by itself once every task has.

Timed from the call of run_on_yarn, which does everything tf-yarn does per submission:
list editable packages (pip), zip its own package for the containers, start skein's driver
(JVM), stage the files, submit and wait for the application master, publish the cluster's
instances and the pickled experiment in the key-value store. Importing tf_yarn.tensorflow
(which imports TensorFlow on the client) happens before and is reported as import_s.

The Python environment: tf-yarn ships one to the containers as a PEX (pyenv_zip_path), or,
when given none, packages the whole virtualenv with cluster-pack and uploads it to HDFS through
pyarrow's libhdfs. Here it is given a PEX that holds no packages and runs on tf-yarn's own
venv, present on every node of the one-machine YARN (see tfyarn_env.py). The default path
cannot run on this machine (see README.md). This runs under that venv's Python
(TensorFlow 2.15: tf-yarn 0.7.0 does not import with TensorFlow 2.16 or later).

usage: python -m peers.tfyarn_peer --tasks N --dir DIR --result FILE --pex PEX [--sleep S]
"""

import io
import os
import sys
import threading
import time

from peers import common

# tf-yarn runs skein's application master.
AM_PATTERN = r"com\.anaconda\.skein\.ApplicationMaster"


def experiment_fn():
    """Runs in each task once tf-yarn has set TF_CONFIG. Self-contained: cloudpickle ships it
    by value (it is defined in __main__)."""
    import json
    import os
    import time
    stamp = time.time()
    cluster = json.loads(os.environ["TF_CONFIG"])["cluster"]
    me = os.environ["SKEIN_CONTAINER_ID"].replace("_", ":", 1)
    directory = os.environ["BENCH_DIR"]
    tmp = os.path.join(directory, f".{me}.{os.getpid()}.tmp")
    with open(tmp, "w") as f:
        f.write(f"{stamp:.6f}\n")
    os.rename(tmp, os.path.join(directory, me))
    print(f"bench: {me} holds the cluster spec {cluster}", flush=True)
    time.sleep(float(os.environ.get("BENCH_SLEEP", "5")))
    raise SystemExit(0)


class TimedLines(io.TextIOBase):
    """Stands in for sys.stdout: passes everything on and notes when each line was printed, to
    split tf-yarn's own progress messages into phases."""

    def __init__(self, target):
        self.target = target
        self.lines = []
        self._partial = ""

    def write(self, text):
        self.target.write(text)
        now = time.time()
        self._partial += text
        while "\n" in self._partial:
            line, self._partial = self._partial.split("\n", 1)
            if line.strip():
                self.lines.append((now, line.strip()))
        return len(text)

    def flush(self):
        self.target.flush()


def run_trial(args, result):
    started_import = time.time()
    import skein
    from tf_yarn import TaskSpec
    from tf_yarn.tensorflow import run_on_yarn
    result["import_s"] = round(time.time() - started_import, 3)

    names = common.task_names(args.tasks)
    rm, watcher = common.start_watch(AM_PATTERN)
    name = f"bench-launch-tf-yarn-{args.tasks}-{os.getpid()}"
    # tf-yarn gives the containers PEX_ROOT=/tmp/<uuid> unless set: a fresh one per trial, here
    # inside the trial's directory so that it goes with it.
    os.environ["PEX_ROOT"] = os.path.join(args.dir, "pex-root")
    task_specs = {task_type: TaskSpec(memory=args.memory, vcores=1, instances=count)
                  for task_type, count in common.task_counts(args.tasks).items()}
    env = {"BENCH_DIR": args.marks_dir, "BENCH_SLEEP": str(args.sleep)}

    lines = TimedLines(sys.stdout)
    sys.stdout = lines
    outcome = {}
    clock_started = threading.Event()

    def monitor():
        try:
            clock_started.wait()
            watch(args, result, outcome, names, name, rm, watcher, lines, skein)
        except Exception as error:  # reported in the result
            common.record_error(result, error)
        finally:
            sys.stdout = lines.target
            common.finish_trial(args, result)  # ends the process

    # tf-yarn installs a signal handler, so run_on_yarn must run on the main thread; the
    # watching runs beside it and ends the process once the application is over.
    threading.Thread(target=monitor, daemon=True).start()
    outcome["t0"] = time.time()
    clock_started.set()
    try:
        run_on_yarn(experiment_fn, task_specs, pyenv_zip_path=args.pex, env=env,
                    queue=args.queue, name=name)
        outcome["returned"] = time.time()
    except BaseException as error:  # noqa: B036 -- reported by the monitor
        outcome["error"] = f"{type(error).__name__}: {error}"
    while True:
        time.sleep(60)


def watch(args, result, outcome, names, name, rm, watcher, lines, skein):
    t0 = outcome["t0"]
    app_id = None
    try:
        while app_id is None:
            if "error" in outcome:
                raise common.TrialError(f"run_on_yarn raised {outcome['error']}")
            if time.time() > t0 + args.timeout:
                raise common.TrialError("the application never reached the ResourceManager")
            app_id = rm.find_app(name)
            if app_id is None:
                time.sleep(0.2)
        watcher.app_id = app_id
        result["app_id"] = app_id
        result["phases"] = {"app_seen_in_rm_s": round(time.time() - t0, 3)}

        last_check = [0.0]

        def failed():
            if "error" in outcome:
                return f"run_on_yarn raised {outcome['error']}"
            if time.time() - last_check[0] < 1.0:
                return None
            last_check[0] = time.time()
            state = rm.app(app_id).get("state")
            return f"the application ended ({state})" if state in common.FINAL_STATES else None

        marks = common.wait_for_marks(args.marks_dir, names, t0 + args.timeout, failed)
        common.fill_timings(result, t0, marks, watcher, rm)
        # tf-yarn's own progress lines, as seconds since t0.
        result["tf_yarn_lines"] = [[round(t - t0, 3), line[:160]] for t, line in lines.lines
                                   if t <= max(marks.values())]
    finally:
        def kill():
            # Something went wrong: end it with a client of our own (tf-yarn's is not ours).
            with skein.Client() as client:
                client.kill_application(app_id)

        common.settle_application(result, rm, watcher, app_id, kill, wait=args.sleep + 60)


def extra_arguments(parser):
    parser.add_argument("--pex", required=True, help="the Python environment to ship (see tfyarn_env.py)")


if __name__ == "__main__":
    common.trial_main("tf-yarn", run_trial, __doc__, extra_arguments)
