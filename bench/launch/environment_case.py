"""The environment case of the launch benchmark: a job of 5 tasks that ships the TensorFlow
environment, submitted twice, Spindle against skein given the same archive as a file resource.

For each submission: the time from its start until every task holds its cluster spec (the
tasks' marks, as in the launch benchmark), the bytes uploaded, and the bytes the NodeManagers
localized for it (the resource directories that appeared in their caches while it ran; archives
count unpacked). Spindle's first submission starts with an empty pack cache and no copy on the
cluster, so it includes packing and uploading; skein gets the archive Spindle packed (skein has
no packing of its own) and uploads it with every application, as its File resources are.

Run it through ./environment, which sets up the local YARN, PATH and the interpreters.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

from peers import common

TASKS = 5


def arguments():
    parser = argparse.ArgumentParser(prog="bench/launch/environment", description=__doc__)
    parser.add_argument("--spindle", required=True, help="the spindle binary")
    parser.add_argument("--environment", required=True, help="the venv to ship (the project's, with TensorFlow)")
    parser.add_argument("--work", required=True, help="a directory for marks, pack caches and results")
    parser.add_argument("--local-yarn-dir", required=True, help="the local YARN's state directory")
    parser.add_argument("--peers", default="spindle,skein")
    parser.add_argument("--sleep", type=float, default=5)
    parser.add_argument("--timeout", type=float, default=1200)
    return parser.parse_args()


def resource_directories(root):
    """Every localized resource directory of every NodeManager under the local YARN's directory:
    <local dir>/usercache/<user>/filecache/<n> and .../appcache/<app>/filecache/<n>."""
    found = set()
    for directory, subdirectories, _ in os.walk(root):
        if os.path.basename(directory) == "filecache":
            found.update(os.path.join(directory, name) for name in subdirectories)
            subdirectories.clear()
    return found


def tree_bytes(path):
    total = 0
    for directory, _, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(directory, name)).st_size
            except OSError:
                pass
    return total


def webhdfs_bytes(path):
    """Bytes of the files under `path` on the default file system, through WebHDFS."""
    import xml.etree.ElementTree as ET
    address = None
    for prop in ET.parse(os.path.join(os.environ["HADOOP_CONF_DIR"], "hdfs-site.xml")).getroot().iter("property"):
        if prop.findtext("name") == "dfs.namenode.http-address":
            address = prop.findtext("value")
    if not address:
        raise common.TrialError("no dfs.namenode.http-address in hdfs-site.xml")
    url = f"http://{address}/webhdfs/v1{path}?op=GETCONTENTSUMMARY&user.name={os.environ.get('USER', 'root')}"
    with urllib.request.urlopen(url, timeout=30) as answer:
        return json.load(answer)["ContentSummary"]["length"]


class Trial:
    def __init__(self, args, peer, submission):
        self.args = args
        self.peer = peer
        self.submission = submission
        self.marks = tempfile.mkdtemp(prefix=f"marks-{peer}-{submission}-", dir=args.work)
        self.names = common.task_names(TASKS)
        self.before = resource_directories(args.local_yarn_dir)
        self.result = {"peer": peer, "submission": submission, "tasks": TASKS}

    def finish(self, t0):
        deadline = t0 + self.args.timeout
        marks = common.wait_for_marks(self.marks, self.names, deadline)
        self.result["all_hold_spec_s"] = round(max(marks.values()) - t0, 2)
        fresh = resource_directories(self.args.local_yarn_dir) - self.before
        self.result["bytes_localized"] = sum(tree_bytes(path) for path in fresh)
        self.result["resources_localized"] = len(fresh)


def mark_command(trial, task_variable):
    return f"sh -c 'date +%s.%N > \"{trial.marks}/${task_variable}\"; sleep {trial.args.sleep:g}'"


def spindle_trial(args, submission, pack_cache):
    trial = Trial(args, "spindle", submission)
    spec = {
        "name": f"bench-environment-spindle-{submission}",
        "framework": "generic",
        "python_env": args.environment,
        "tasks": {kind: {"instances": count, "memory": "256 MiB", "vcores": 1,
                         "command": mark_command(trial, "SPINDLE_TASK")}
                  for kind, count in common.task_counts(TASKS).items()},
    }
    path = os.path.join(trial.marks, "spec.json")
    with open(path, "w") as out:
        json.dump(spec, out)
    env = {**os.environ, "SPINDLE_CACHE": pack_cache}
    t0 = time.time()
    submitted = subprocess.run([args.spindle, "submit", "--json", path], capture_output=True, text=True, env=env,
                               timeout=args.timeout)
    if submitted.returncode != 0:
        raise common.TrialError(submitted.stderr.strip()[-500:])
    answer = json.loads(submitted.stdout)
    trial.result["submit_returned_s"] = round(time.time() - t0, 2)
    trial.result["bytes_uploaded"] = answer["python_env"]["uploaded_bytes"]
    trial.result["packed_now"] = answer["python_env"]["packed_now"]
    try:
        trial.finish(t0)
    finally:
        subprocess.run([args.spindle, "kill", answer["application_id"]], capture_output=True, timeout=120)
    return trial.result


def skein_trial(args, submission, archive):
    """skein's tasks mark as their container starts, before any rendezvous: a lower bound of its
    time, which favours skein."""
    import skein
    trial = Trial(args, "skein", submission)
    t0 = time.time()
    client = skein.Client()
    name = '"${SKEIN_CONTAINER_ID%_*}:${SKEIN_CONTAINER_ID##*_}"'
    services = {
        kind: skein.Service(
            script=f'date +%s.%N > "{trial.marks}"/{name}; sleep {args.sleep:g}',
            resources=skein.Resources(memory=256, vcores=1),
            instances=count,
            max_restarts=0,
            files={"python_env": skein.File(source=archive, type="archive")})
        for kind, count in common.task_counts(TASKS).items()
    }
    app_id = client.submit(skein.ApplicationSpec(name=f"bench-environment-skein-{submission}", services=services))
    trial.result["submit_returned_s"] = round(time.time() - t0, 2)
    try:
        trial.result["bytes_uploaded"] = webhdfs_bytes(f"/user/{os.environ.get('USER', 'root')}/.skein/{app_id}")
        trial.finish(t0)
    finally:
        client.kill_application(app_id)
        client.close()
    return trial.result


def main():
    args = arguments()
    os.makedirs(args.work, exist_ok=True)
    peers = args.peers.split(",")
    results = []
    pack_cache = tempfile.mkdtemp(prefix="pack-cache-", dir=args.work)
    # Spindle starts from nothing: no packed archive here, none on the cluster.
    packed = subprocess.run([args.spindle, "env", "pack", args.environment], capture_output=True, text=True,
                            env={**os.environ, "SPINDLE_CACHE": tempfile.mkdtemp(prefix="probe-", dir=args.work)})
    if packed.returncode != 0:
        sys.exit(f"spindle env pack {args.environment} failed: {packed.stderr.strip()}")
    archive = packed.stdout.strip()
    subprocess.run([args.spindle, "env", "rm", os.path.basename(archive)], capture_output=True)
    for submission in (1, 2):
        for peer in peers:
            print(f"[bench/launch/environment] {peer}, submission {submission}", file=sys.stderr, flush=True)
            if peer == "spindle":
                results.append(spindle_trial(args, submission, pack_cache))
            elif peer == "skein":
                results.append(skein_trial(args, submission, archive))
            else:
                sys.exit(f"unknown peer {peer}; the peers are spindle and skein")
            print(json.dumps(results[-1]), flush=True)
    with open(os.path.join(args.work, "environment-results.jsonl"), "w") as out:
        for result in results:
            out.write(json.dumps(result) + "\n")
    print_table(results)
    shutil.rmtree(pack_cache, ignore_errors=True)


def mib(value):
    return f"{value / 1048576:.0f} MiB"


def print_table(results):
    print("\n| peer | submission | every task holds its spec | bytes uploaded | bytes localized |")
    print("|---|---|---|---|---|")
    for result in results:
        print(f"| {result['peer']} | {result['submission']} | {result['all_hold_spec_s']} s | "
              f"{mib(result['bytes_uploaded'])} | {mib(result['bytes_localized'])} "
              f"({result['resources_localized']} resources) |")
    by = {(r["peer"], r["submission"]): r["all_hold_spec_s"] for r in results}
    if ("spindle", 2) in by and ("skein", 2) in by:
        best = min(by[("skein", 1)], by[("skein", 2)])
        print(f"\nSpindle's second submission: {by[('spindle', 2)] / best:.3f} of skein's best time")


if __name__ == "__main__":
    main()
