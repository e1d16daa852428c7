"""What every launch trial shares: the tasks of a trial, the marks they leave, the watch over
the application's processes (the application master's memory, when containers start) and the
ResourceManager's REST answers.

One trial is one process (`python -m peers.<peer> ...`, see trial_main): it submits one
application of N tasks, waits until every task has left its mark, ends the application and
writes one JSON object to --result.

A mark is a file BENCH_DIR/<type>:<index> holding the time.time() at which that task held its
cluster spec. Everything runs on one machine, so the trial and the containers share the clock
and the directory.
"""

import argparse
import json
import os
import re
import sys
import threading
import time
import traceback
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET

FINAL_STATES = {"FINISHED", "FAILED", "KILLED"}


def task_names(n):
    """The tasks of an N-task trial, as every peer names them: N-1 workers and one ps."""
    if n < 2:
        raise ValueError("a trial needs at least 2 tasks (workers and a ps)")
    return [f"worker:{i}" for i in range(n - 1)] + ["ps:0"]


def task_counts(n):
    return {"worker": n - 1, "ps": 1}


def write_mark(directory, name, stamp):
    """Writes a mark atomically, so that a reader never sees half of it."""
    tmp = os.path.join(directory, f".{name}.{os.getpid()}.tmp")
    with open(tmp, "w") as f:
        f.write(f"{stamp:.6f}\n")
    os.rename(tmp, os.path.join(directory, name))


def read_marks(directory, names):
    marks = {}
    for name in names:
        try:
            with open(os.path.join(directory, name)) as f:
                text = f.read().strip()
        except FileNotFoundError:
            continue
        try:
            # `date +%s.%N` and time.time() both give seconds since the epoch.
            marks[name] = float(text)
        except ValueError:
            pass
    return marks


def wait_for_marks(directory, names, deadline, failed=lambda: None, poll=0.05):
    """Waits until every task has left its mark. `failed()` returns a reason to give up early
    (the application ended, the submitting thread raised) or None."""
    while True:
        marks = read_marks(directory, names)
        if len(marks) == len(names):
            return marks
        reason = failed()
        if reason:
            raise TrialError(f"{reason}; marks from {len(marks)} of {len(names)} tasks")
        if time.time() > deadline:
            missing = sorted(set(names) - set(marks))
            raise TrialError(f"timed out with marks from {len(marks)} of {len(names)} tasks; "
                             f"missing {', '.join(missing[:6])}{' ...' if len(missing) > 6 else ''}")
        time.sleep(poll)


class TrialError(Exception):
    pass


# --- the ResourceManager's REST API --------------------------------------------------------------

def hadoop_property(name):
    """A property from $HADOOP_CONF_DIR/yarn-site.xml, or None."""
    conf = os.environ.get("HADOOP_CONF_DIR")
    if not conf:
        raise TrialError("HADOOP_CONF_DIR is not set")
    path = os.path.join(conf, "yarn-site.xml")
    for prop in ET.parse(path).getroot().iter("property"):
        if prop.findtext("name") == name:
            return (prop.findtext("value") or "").strip()
    return None


class ResourceManager:
    def __init__(self):
        address = hadoop_property("yarn.resourcemanager.webapp.address")
        if not address:
            raise TrialError("no yarn.resourcemanager.webapp.address in yarn-site.xml")
        self.base = f"http://{address}/ws/v1/cluster"

    def _get(self, path):
        with urllib.request.urlopen(self.base + path, timeout=10) as response:
            return json.load(response)

    def app(self, app_id):
        return self._get(f"/apps/{app_id}")["app"]

    def find_app(self, name):
        """The id of the application called `name`, or None."""
        answer = self._get("/apps?states=NEW,NEW_SAVING,SUBMITTED,ACCEPTED,RUNNING")
        for app in (answer.get("apps") or {}).get("app") or []:
            if app.get("name") == name:
                return app["id"]
        return None

    def wait_final(self, app_id, timeout):
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                app = self.app(app_id)
                if app.get("state") in FINAL_STATES:
                    return app
            except (urllib.error.URLError, OSError, KeyError, ValueError):
                pass
            time.sleep(0.25)
        return None


# --- processes of the application ----------------------------------------------------------------

_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# A process's start time is counted in clock ticks since boot. /proc/stat's btime is rounded to
# whole seconds, too coarse here; the epoch time of boot is taken from CLOCK_BOOTTIME instead.
_BOOT_TIME = time.time() - time.clock_gettime(time.CLOCK_BOOTTIME)


def process_start(pid):
    """When a process started, in seconds since the epoch (10 ms resolution)."""
    with open(f"/proc/{pid}/stat") as f:
        stat = f.read()
    # The command name (field 2) may hold spaces and parentheses: fields follow the last ')'.
    fields = stat[stat.rindex(")") + 2:].split()
    return _BOOT_TIME + int(fields[19]) / _CLOCK_TICKS


def process_memory(pid):
    """(VmHWM, VmRSS) in KiB, or None when the process is gone."""
    hwm = rss = None
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    hwm = int(line.split()[1])
                elif line.startswith("VmRSS:"):
                    rss = int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    if hwm is None:
        return None  # a zombie
    return hwm, rss


def process_cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return ""


_CONTAINER_RE = re.compile(r"/(application_\d+_\d+)/(container_(?:e\d+_)?\d+_\d+_(\d+)_(\d+))$")


def app_processes(app_id):
    """{pid: container id} of every process whose working directory is a container directory
    of the application (a NodeManager runs each container in its own directory
    .../appcache/<application>/<container>)."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cwd = os.readlink(f"/proc/{entry}/cwd")
        except OSError:
            continue
        match = _CONTAINER_RE.search(cwd)
        if match and match.group(1) == app_id:
            found[int(entry)] = match.group(2)
    return found


def is_am_container(container_id):
    """The application master runs in the first container of the attempt (…_01_000001)."""
    return container_id.endswith("_000001")


class AppWatcher(threading.Thread):
    """Scans /proc while a trial runs: finds the application master's main process (its
    container's process whose command line matches `am_pattern`), follows its VmHWM and VmRSS
    until it exits, and notes when each container's first process started.

    The application's id may be set after the watcher starts (`watcher.app_id = ...`)."""

    SHELLS = {"bash", "sh", "dash"}

    def __init__(self, am_pattern, interval=0.2):
        super().__init__(daemon=True)
        self.am_pattern = re.compile(am_pattern)
        self.interval = interval
        self.app_id = None
        self.am = None  # {"pid", "cmdline", "start", "hwm_kib", "rss_kib"}
        self.am_exited = False
        self.container_start = {}  # container id -> earliest process start seen
        self.seen_any = False
        self._halt = threading.Event()
        self._lock = threading.Lock()

    def stop(self):
        self._halt.set()
        self.join(timeout=5)

    def snapshot(self):
        with self._lock:
            return dict(self.am) if self.am else None

    def run(self):
        while not self._halt.is_set():
            if self.app_id:
                try:
                    self._scan()
                except Exception:  # a process vanishing mid-scan; the next scan sees the rest
                    pass
            self._halt.wait(self.interval)

    def _scan(self):
        processes = app_processes(self.app_id)
        if processes:
            self.seen_any = True
        am_candidates = []
        for pid, container in processes.items():
            try:
                start = process_start(pid)
            except (OSError, ValueError, IndexError):
                continue
            if start < self.container_start.get(container, float("inf")):
                self.container_start[container] = start
            if is_am_container(container):
                am_candidates.append(pid)
        with self._lock:
            if self.am is None:
                for pid in am_candidates:
                    cmdline = process_cmdline(pid)
                    # The NodeManager starts the AM's command through `bash -c ...`, whose
                    # command line holds the same words: the shell is not the AM.
                    program = os.path.basename(cmdline.split(" ", 1)[0])
                    if program not in self.SHELLS and self.am_pattern.search(cmdline):
                        self.am = {"pid": pid, "cmdline": cmdline[:300], "start": process_start(pid),
                                   "hwm_kib": 0, "rss_kib": 0}
                        break
            if self.am is not None and not self.am_exited:
                memory = process_memory(self.am["pid"])
                if memory is None:
                    self.am_exited = True
                else:
                    self.am["hwm_kib"] = max(self.am["hwm_kib"], memory[0])
                    self.am["rss_kib"] = max(self.am["rss_kib"], memory[1])

    def wait_gone(self, timeout):
        """Waits until no process of the application is left (so the next trial starts on a
        quiet cluster). Returns whether they all went."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            if not self.app_id or not app_processes(self.app_id):
                return True
            time.sleep(0.25)
        return False


# --- one trial as a process ----------------------------------------------------------------------

def trial_arguments(description):
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--tasks", type=int, required=True, help="number of tasks (N-1 workers + 1 ps)")
    parser.add_argument("--dir", required=True, help="the trial's directory; marks go to DIR/marks")
    parser.add_argument("--result", required=True, help="file to write the trial's JSON result to")
    parser.add_argument("--sleep", type=float, default=5.0, help="seconds each task sleeps after its mark")
    parser.add_argument("--timeout", type=float, default=300.0, help="give up on the trial after this")
    parser.add_argument("--queue", default="default")
    parser.add_argument("--memory", type=int, default=256, help="MiB per task")
    return parser


def trial_main(peer, run_trial, description, extra_arguments=None):
    """Runs one trial: run_trial(args, result) fills `result` (a dict) and may raise. The result
    is written as JSON to --result whatever happens (see finish_trial)."""
    parser = trial_arguments(description)
    if extra_arguments:
        extra_arguments(parser)
    args = parser.parse_args()
    marks_dir = os.path.join(args.dir, "marks")
    os.makedirs(marks_dir, exist_ok=True)
    for name in os.listdir(marks_dir):
        os.unlink(os.path.join(marks_dir, name))
    args.marks_dir = marks_dir
    result = {"peer": peer, "tasks": args.tasks, "ok": False}
    try:
        run_trial(args, result)
    except Exception as error:  # reported in the result; the harness goes on with other trials
        record_error(result, error)
    finish_trial(args, result)


def record_error(result, error):
    result.setdefault("error", f"{type(error).__name__}: {error}")
    traceback.print_exc()


_finishing = threading.Lock()


def finish_trial(args, result):
    """Writes the result and leaves the process at once (os._exit), from whichever thread: no
    thread of a peer's client (tf-yarn's polling loop, which sleeps 10 s at a time and then
    waits for logs) holds it up."""
    _finishing.acquire()  # never released: the first caller ends the process
    result["ok"] = "ready_s" in result and "error" not in result
    with open(args.result + ".tmp", "w") as f:
        json.dump(result, f, indent=1)
    os.rename(args.result + ".tmp", args.result)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0 if result["ok"] else 1)


def fill_timings(result, t0, marks, watcher, rm=None):
    """Puts the trial's figures, relative to the start of submission t0, into `result`."""
    stamps = sorted(marks.values())
    result["ready_s"] = round(stamps[-1] - t0, 3)
    result["first_mark_s"] = round(stamps[0] - t0, 3)
    phases = {}
    am = watcher.snapshot()
    if am:
        phases["am_process_start_s"] = round(am["start"] - t0, 3)
        result["am"] = {"pid": am["pid"], "cmdline": am["cmdline"]}
        result["am_hwm_at_ready_kib"] = am["hwm_kib"]
    tasks_started = sorted(start for container, start in watcher.container_start.items()
                           if not is_am_container(container))
    if tasks_started:
        phases["first_task_container_s"] = round(tasks_started[0] - t0, 3)
        phases["last_task_container_s"] = round(tasks_started[-1] - t0, 3)
        phases["task_containers_seen"] = len(tasks_started)
    if rm and result.get("app_id"):
        try:
            app = rm.app(result["app_id"])
            if app.get("startedTime"):
                phases["rm_accepted_s"] = round(app["startedTime"] / 1000 - t0, 3)
            if app.get("launchTime"):
                phases["am_launched_by_rm_s"] = round(app["launchTime"] / 1000 - t0, 3)
        except (urllib.error.URLError, OSError, KeyError, ValueError):
            pass
    result.setdefault("phases", {}).update(phases)


def start_watch(am_pattern):
    """The trial's view of the cluster: the ResourceManager and a watch over the processes of
    the application whose master's command line matches am_pattern."""
    watcher = AppWatcher(am_pattern)
    watcher.start()
    return ResourceManager(), watcher


def settle_application(result, rm, watcher, app_id, kill, wait=0.0):
    """Gives the application `wait` seconds to end by itself, ends it with kill() otherwise, then
    waits for its final state and for its containers to go, and records its memory."""
    final = rm.wait_final(app_id, wait) if app_id and wait else None
    if app_id and final is None:
        try:
            kill()
        except Exception as error:  # it may have ended already
            result["kill_error"] = str(error)
        final = rm.wait_final(app_id, 60)
    result["final_state"] = final and f"{final.get('state')}/{final.get('finalStatus')}"
    result["containers_gone"] = watcher.wait_gone(60)
    watcher.stop()
    finish_memory(result, watcher)


def finish_memory(result, watcher, settle=0.0):
    """Records the application master's peak resident memory. Call after the application has
    ended (the watcher followed the AM until it exited) or at least after all marks."""
    if settle:
        time.sleep(settle)
    am = watcher.snapshot()
    if am:
        result["am_hwm_kib"] = am["hwm_kib"]
        result["am_rss_max_kib"] = am["rss_kib"]
        # Whether the figure covers the AM's whole life (it was followed until it exited).
        result.setdefault("am", {})["followed_to_exit"] = process_memory(am["pid"]) is None
