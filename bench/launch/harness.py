"""Runs the launch benchmark (see README.md): rounds of trials, alternating the peers, for each
number of tasks; then prints per-run figures, medians and ratios against Spindle.

Run it through ./run, which sets up the local YARN, PATH and the interpreters.
"""

import argparse
import datetime
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

PEERS = {
    # name: (module, which Python runs it)
    "spindle": ("peers.spindle_peer", "venv"),
    "skein": ("peers.skein_peer", "venv"),
    "skein-warm": ("peers.skein_peer", "venv"),
    "tf-yarn": ("peers.tfyarn_peer", "tf-yarn"),
}
DEFAULT_PEERS = "spindle,skein,skein-warm,tf-yarn"
MEMORY_PEERS = ("skein", "tf-yarn")  # whose AM the goal compares with: skein's Java AM


def parse_arguments():
    parser = argparse.ArgumentParser(prog="bench/launch/run", description=__doc__)
    parser.add_argument("--runs", type=int, default=3, help="rounds of trials (default 3)")
    parser.add_argument("--tasks", default="5,20", help="numbers of tasks, comma-separated (default 5,20)")
    parser.add_argument("--peers", default=DEFAULT_PEERS,
                        help=f"comma-separated, of {', '.join(PEERS)} (default all)")
    parser.add_argument("--warmup", type=int, default=1,
                        help="untimed trials per peer before the rounds, at the smallest N (default 1)")
    parser.add_argument("--sleep", type=float, default=5.0, help="seconds each task sleeps after its mark")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds one trial may take to be ready")
    parser.add_argument("--retries", type=int, default=1,
                        help="run a failed trial again this many times (failures are still listed)")
    parser.add_argument("--queue", default="default")
    parser.add_argument("--memory", type=int, default=256, help="MiB per task (default 256)")
    parser.add_argument("--spindle", default=os.environ.get("SPINDLE_BIN", os.path.join(ROOT, "build/release/core/spindle")),
                        help="the spindle binary (default build/release/core/spindle, or $SPINDLE_BIN)")
    parser.add_argument("--work", default="/tmp/spindle-bench-launch",
                        help="where trials keep their marks and logs (must be readable by the containers)")
    parser.add_argument("--python", default=sys.executable, help="Python of the project's venv")
    parser.add_argument("--tf-yarn-python", required=True, help="Python of tf-yarn's venv")
    parser.add_argument("--tf-yarn-pex", required=True, help="the environment PEX tf-yarn ships")
    args = parser.parse_args()
    args.tasks = [int(n) for n in args.tasks.split(",") if n]
    args.peers = [p for p in args.peers.split(",") if p]
    unknown = [p for p in args.peers if p not in PEERS]
    if unknown:
        parser.error(f"unknown peer(s) {', '.join(unknown)}; known: {', '.join(PEERS)}")
    return args


def check_spindle(args):
    if not os.access(args.spindle, os.X_OK):
        return f"no spindle binary at {args.spindle} (build it: cmake --preset release && cmake --build --preset release)"
    listing = subprocess.run([args.spindle, "--help"], capture_output=True, text=True).stdout
    commands = set()
    if "Subcommands:" in listing:
        for line in listing.split("Subcommands:", 1)[1].splitlines():
            if line.startswith("  ") and line.split():
                commands.add(line.split()[0])
    missing = [c for c in ("submit", "kill") if c not in commands]
    if missing:
        return f"{args.spindle} has no `{'`, `'.join(missing)}` command yet"
    return None


# cluster-pack (imported by tf-yarn, in the client and in every task) makes an empty directory
# /tmp/<uuid1> each time it is imported, and never removes it.
_LEAKED_DIR = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-1[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}")


def leaked_dirs():
    try:
        return {name for name in os.listdir("/tmp") if _LEAKED_DIR.fullmatch(name)}
    except OSError:
        return set()


def remove_leaked_dirs(before):
    """Removes the empty /tmp/<uuid1> directories that appeared during a tf-yarn trial."""
    for name in leaked_dirs() - before:
        try:
            os.rmdir(os.path.join("/tmp", name))  # only if empty
        except OSError:
            pass


def run_trial(args, run_dir, label, peer, tasks):
    module, python = PEERS[peer]
    trial_dir = os.path.join(run_dir, f"{label}-{peer}-{tasks}")
    os.makedirs(trial_dir, exist_ok=True)
    result_path = os.path.join(trial_dir, "result.json")
    if os.path.exists(result_path):
        os.unlink(result_path)
    command = [args.tf_yarn_python if python == "tf-yarn" else args.python, "-m", module,
               "--tasks", str(tasks), "--dir", trial_dir, "--result", result_path,
               "--sleep", str(args.sleep), "--timeout", str(args.timeout),
               "--queue", args.queue, "--memory", str(args.memory)]
    if peer == "spindle":
        command += ["--spindle", args.spindle]
    elif peer == "skein-warm":
        command += ["--warm-driver"]
    elif peer == "tf-yarn":
        command += ["--pex", args.tf_yarn_pex]
    print(f"  {label:>8} {peer:<11} N={tasks:<3}", end=" ", flush=True)
    tmp_before = leaked_dirs() if peer == "tf-yarn" else None
    with open(os.path.join(trial_dir, "peer.log"), "w") as log:
        proc = subprocess.Popen(command, cwd=HERE, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            proc.wait(timeout=args.timeout + args.sleep + 240)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    try:
        with open(result_path) as f:
            result = json.load(f)
    except (FileNotFoundError, ValueError):
        result = {"peer": peer, "tasks": tasks, "ok": False,
                  "error": f"no result (exit {proc.returncode}); see {trial_dir}/peer.log"}
    result["peer"] = peer
    result["label"] = label
    result["log"] = os.path.join(trial_dir, "peer.log")
    if result.get("ok"):
        hwm = result.get("am_hwm_kib")
        print(f"ready {result['ready_s']:7.2f} s   AM peak {hwm / 1024 if hwm else float('nan'):6.1f} MiB   {result.get('app_id', '')}")
    else:
        print(f"FAILED: {result.get('error')}  (log: {result['log']})")
    if tmp_before is not None:
        remove_leaked_dirs(tmp_before)
        shutil.rmtree(os.path.join(trial_dir, "pex-root"), ignore_errors=True)  # tf-yarn's PEX_ROOT
    # The cluster settles (containers cleaned up, NodeManagers' heartbeats) before the next one.
    time.sleep(2)
    return result


def median(values):
    return statistics.median(values) if values else None


def fmt(value, digits=2, unit=""):
    return "-" if value is None else f"{value:.{digits}f}{unit}"


def summarize(args, results):
    ok = [r for r in results if r.get("ok") and r.get("label", "").startswith("run")]
    lines = []
    peers = args.peers
    width = 12

    def cell(text):
        return f"{text:>{width}}"

    lines.append("Launch: submit until every task holds its cluster spec "
                 f"(seconds, median of {args.runs} run(s))")
    lines.append("")
    lines.append(f"{'tasks':<6}" + "".join(cell(p) for p in peers))
    runs = {(p, n): [r["ready_s"] for r in ok if r["peer"] == p and r["tasks"] == n]
            for p in peers for n in args.tasks}
    ready = {}
    for n in args.tasks:
        row = f"{n:<6}"
        for p in peers:
            ready[(p, n)] = median(runs[(p, n)])
            row += cell(fmt(ready[(p, n)]))
        lines.append(row)
    lines.append("")
    lines.append("Per run (seconds, in the order run):")
    for n in args.tasks:
        for p in peers:
            lines.append(f"  {p:<11} N={n:<3} " + "  ".join(f"{v:6.2f}" for v in runs[(p, n)]))
    lines.append("")
    if "spindle" in peers:
        lines.append("Ratios (peer time / Spindle time; the goal is Spindle under half the best peer's):")
        for n in args.tasks:
            ours = ready.get(("spindle", n))
            parts = []
            best = None
            for p in peers:
                if p == "spindle" or ready.get((p, n)) is None:
                    continue
                theirs = ready[(p, n)]
                best = theirs if best is None else min(best, theirs)
                parts.append(f"{p} {theirs / ours:.2f}x" if ours else f"{p} -")
            verdict = ""
            if ours and best:
                verdict = f"; Spindle / best peer = {ours / best:.2f} ({'goal met' if ours < best / 2 else 'goal not met'})"
            lines.append(f"  N={n}: " + ", ".join(parts) + verdict)
    else:
        lines.append("Ratios against Spindle: not run (spindle not among --peers).")
    lines.append("")

    lines.append("Application master peak resident memory (VmHWM of its main process, MiB, median):")
    lines.append(f"{'tasks':<6}" + "".join(cell(p) for p in peers))
    hwm = {}
    for n in args.tasks:
        row = f"{n:<6}"
        for p in peers:
            values = [r["am_hwm_kib"] / 1024 for r in ok if r["peer"] == p and r["tasks"] == n and r.get("am_hwm_kib")]
            hwm[(p, n)] = median(values)
            row += cell(fmt(hwm[(p, n)], 1))
        lines.append(row)
    if "spindle" in peers:
        for n in args.tasks:
            ours, skein = hwm.get(("spindle", n)), hwm.get(("skein", n))
            if ours and skein:
                lines.append(f"  N={n}: Spindle / skein = {ours / skein:.3f} "
                             f"({'goal met' if ours < skein / 10 else 'goal not met'}: under a tenth)")
    lines.append("")

    lines.append("Where the time goes (medians, seconds from the start of submission):")
    phases = [("driver_started_s", "driver"), ("submit_returned_s", "submitted"),
              ("app_seen_in_rm_s", "app in RM"), ("rm_accepted_s", "RM accepted"),
              ("am_process_start_s", "AM process"), ("first_task_container_s", "1st task"),
              ("last_task_container_s", "last task")]
    lines.append("  driver: the client's driver is up (skein's JVM); submitted: submit returned the id;"
                 " app in RM: first seen")
    lines.append("  in the ResourceManager; RM accepted: its startedTime; AM process: the AM's main process")
    lines.append("  started; 1st/last task: the first process of the first/last task container started.")
    lines.append(f"{'peer':<11}{'N':>4}" + "".join(f"{label:>12}" for _, label in phases)
                 + f"{'1st mark':>10}{'ready':>8}")
    for p in peers:
        for n in args.tasks:
            rs = [r for r in ok if r["peer"] == p and r["tasks"] == n]
            if not rs:
                continue
            row = f"{p:<11}{n:>4}"
            for key, _ in phases:
                row += f"{fmt(median([r['phases'][key] for r in rs if key in r.get('phases', {})])):>12}"
            row += f"{fmt(median([r['first_mark_s'] for r in rs])):>10}{fmt(median([r['ready_s'] for r in rs])):>8}"
            lines.append(row)
    if "spindle" in peers:
        lines.append("")
        lines.append("Spindle's master, from its events (medians, seconds from the start of submission):")
        lines.append("  AM up: registered with the RM; allocated: the last container allocated, in so many")
        lines.append("  rounds (bursts); launched: the last NodeManager start call answered; registered: the")
        lines.append("  last executor registered; published: the first cluster spec.")
        master = [("am_registered_s", "AM up"), ("last_allocated_s", "allocated"), ("allocation_rounds", "rounds"),
                  ("last_launched_s", "launched"), ("last_registered_s", "registered"),
                  ("spec_published_s", "published")]
        lines.append(f"{'N':>4}" + "".join(f"{label:>12}" for _, label in master) + f"{'ready':>8}")
        for n in args.tasks:
            rs = [r for r in ok if r["peer"] == "spindle" and r["tasks"] == n]
            if not rs:
                continue
            row = f"{n:>4}"
            for key, _ in master:
                row += f"{fmt(median([r['phases'][key] for r in rs if key in r.get('phases', {})])):>12}"
            lines.append(row + f"{fmt(median([r['ready_s'] for r in rs])):>8}")
        for n in args.tasks:
            ours, warm = ready.get(("spindle", n)), ready.get(("skein-warm", n))
            if n >= 100 and ours and warm:
                lines.append(f"  N={n}: Spindle / skein-warm = {ours / warm:.2f} "
                             f"({'goal met' if ours <= 0.3 * warm else 'goal not met'}: at most 0.3)")
    failures = [r for r in results if not r.get("ok")]
    if failures:
        lines.append("")
        lines.append("Failed trials:")
        for r in failures:
            lines.append(f"  {r.get('label')} {r['peer']} N={r['tasks']}: {r.get('error')} ({r.get('log')})")
    return "\n".join(lines)


def main():
    args = parse_arguments()
    if "spindle" in args.peers:
        problem = check_spindle(args)
        if problem:
            print(f"bench/launch: {problem}.\nRun the peers alone with --peers skein,skein-warm,tf-yarn.",
                  file=sys.stderr)
            return 2
    if "tf-yarn" in args.peers and not os.access(args.tf_yarn_python, os.X_OK):
        print(f"bench/launch: no tf-yarn venv ({args.tf_yarn_python}); scripts/setup makes it.\n"
              "Run the other peers with --peers.", file=sys.stderr)
        return 2
    run_dir = os.path.join(args.work, datetime.datetime.now().strftime("%Y%m%d-%H%M%S"))
    os.makedirs(run_dir, exist_ok=True)
    os.chmod(args.work, 0o755)
    results = []
    results_path = os.path.join(run_dir, "results.jsonl")

    def record(result):
        results.append(result)
        with open(results_path, "a") as f:
            f.write(json.dumps(result) + "\n")

    def trial(label, peer, n):
        for attempt in range(args.retries + 1):
            result = run_trial(args, run_dir, label if attempt == 0 else f"{label}.{attempt}", peer, n)
            result["label"] = label
            record(result)
            if result.get("ok"):
                return

    print(f"launch benchmark: peers {', '.join(args.peers)}; tasks {args.tasks}; {args.runs} run(s); "
          f"HADOOP_CONF_DIR={os.environ.get('HADOOP_CONF_DIR')}; logs in {run_dir}")
    for w in range(args.warmup):
        for peer in args.peers:
            trial(f"warmup{w + 1}", peer, min(args.tasks))
    for r in range(args.runs):
        # Alternate the order, so that no peer always comes first after another's clean-up.
        order = args.peers[r % len(args.peers):] + args.peers[:r % len(args.peers)]
        for n in args.tasks:
            for peer in order:
                trial(f"run{r + 1}", peer, n)
    summary = summarize(args, results)
    print()
    print(summary)
    with open(os.path.join(run_dir, "summary.txt"), "w") as f:
        f.write(summary + "\n")
    print(f"\n(results: {results_path})")
    done = {(r["label"], r["peer"], r["tasks"]) for r in results if r.get("ok")}
    wanted = {(r["label"], r["peer"], r["tasks"]) for r in results}
    return 0 if done == wanted else 1


if __name__ == "__main__":
    sys.exit(main())
