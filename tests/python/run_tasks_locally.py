"""Runs every task of a job spec as a local process, each with the
environment `spindle render-env` gives it, and reports how each ended.

It proves the environment contract with real frameworks: the processes find
each other only through what Spindle rendered. Service tasks (ps, and workers
of ParameterServerStrategy) are stopped once the tracked tasks end.

usage: run_tasks_locally.py SPINDLE SPEC WORKDIR [--timeout S] [--skip TYPE ...]
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../integration"))
from free_ports import free_ports  # noqa: E402




def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("spindle")
    parser.add_argument("spec")
    parser.add_argument("workdir")
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--skip", nargs="*", default=["tensorboard"])
    parser.add_argument("--output", help="override the spec's output directory (SPINDLE_OUTPUT)")
    parser.add_argument("--check", action="store_true",
                        help="fail unless every tracked task succeeded and training.json shows the loss fell")
    args = parser.parse_args()

    normalized = json.loads(subprocess.run([args.spindle, "validate", "--json", args.spec], check=True,
                                           capture_output=True, text=True).stdout)["spec"]
    tasks = [(kind, index, info) for kind, info in normalized["tasks"].items() for index in range(info["instances"])]
    ports = free_ports(len(tasks))
    hosts = ",".join(f"{kind}:{index}=localhost:{port}" for (kind, index, _), port in zip(tasks, ports))

    os.makedirs(args.workdir, exist_ok=True)
    for name, source in normalized["files"].items():
        target = os.path.join(args.workdir, name)
        if os.path.lexists(target):
            os.remove(target)
        os.symlink(source, target)

    processes = {}
    for kind, index, info in tasks:
        if kind in args.skip:
            continue
        rendered = subprocess.run([args.spindle, "render-env", "--json", args.spec, "--hosts", hosts, "--task",
                                   f"{kind}:{index}", "--app-id", "application_1_0001"],
                                  check=True, capture_output=True, text=True).stdout
        env = dict(os.environ)
        env.update(json.loads(rendered))
        if args.output:
            env["SPINDLE_OUTPUT"] = env["DTF_OUTPUT_PATH"] = args.output
        env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
        log = open(os.path.join(args.workdir, f"{kind}-{index}.log"), "w", encoding="utf-8")
        processes[(kind, index)] = (subprocess.Popen(info["command"], shell=True, cwd=args.workdir, env=env,
                                                     stdout=log, stderr=subprocess.STDOUT,
                                                     start_new_session=True), info["role"])

    deadline = time.time() + args.timeout
    results = {}
    grace_end = None
    try:
        while time.time() < deadline:
            for key, (process, role) in processes.items():
                if key not in results and process.poll() is not None:
                    results[key] = process.returncode
            tracked = [key for key, (_, role) in processes.items() if role == "tracked"]
            if all(key in results for key in tracked):
                break
            # A chief that succeeded ends the job once the evaluator is done
            # or its grace period is over (workers of ParameterServerStrategy
            # serve forever).
            if results.get(("chief", 0)) == 0:
                grace_end = grace_end or time.time() + 60
                if ("evaluator", 0) not in processes or ("evaluator", 0) in results or time.time() > grace_end:
                    break
            time.sleep(0.2)
    finally:
        for key, (process, _) in processes.items():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait()
                results.setdefault(key, "stopped")
    print(json.dumps({f"{k}:{i}": code for (k, i), code in sorted(results.items())}))
    return check(args, processes, results) if args.check else 0


def check(args, processes, results):
    problems = []
    for key, (_, role) in processes.items():
        code = results.get(key)
        # Services and workers of ParameterServerStrategy are stopped, not finished.
        if role == "tracked" and code != 0 and not (code == "stopped" and results.get(("chief", 0)) == 0):
            problems.append(f"{key[0]}:{key[1]} ended with {code}; see {args.workdir}/{key[0]}-{key[1]}.log")
    summary_path = os.path.join(args.output or args.workdir, "training.json")
    if not os.path.exists(summary_path):
        problems.append(f"no {summary_path}: the chief did not finish training")
    else:
        with open(summary_path, encoding="utf-8") as summary_file:
            summary = json.load(summary_file)
        if not summary["last_loss"] < summary["first_loss"]:
            problems.append(f"the loss did not fall: {summary}")
        # Every worker took part: the coordinator saw it run steps, or it left its own mark, or
        # (a script that leaves none) the chief's all-reduce counted a replica in each process.
        output = args.output or args.workdir
        by_replicas = "replicas" in summary and not os.path.isdir(os.path.join(output, "workers"))
        in_sync = [key for key in processes if key[0] in ("chief", "worker")]
        if by_replicas and summary["replicas"] != len(in_sync):
            problems.append(f"{summary['replicas']} replicas trained, where {len(in_sync)} tasks ran: {summary}")
        for kind, index in processes:
            if kind != "worker" or by_replicas:
                continue
            if "steps_per_worker" in summary:
                if summary["steps_per_worker"].get(str(index), 0) <= 0:
                    problems.append(f"worker:{index} ran no step: {summary}")
                continue
            mark = os.path.join(output, "workers", f"worker-{index}.json")
            if not os.path.exists(mark):
                problems.append(f"worker:{index} left no {mark}")
                continue
            with open(mark, encoding="utf-8") as mark_file:
                steps = json.load(mark_file)["steps"]
            if steps != summary["steps"]:
                problems.append(f"worker:{index} ran {steps} of {summary['steps']} steps")
        print(f"training: {summary}")
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
