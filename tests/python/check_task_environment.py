"""Run inside a task's container before its training command: checks that
the environment contract holds from the task's own point of view and leaves a
report in <output>/environment/<type>-<index>.json. Exits 1 (failing the
task) when something disagrees."""

import json
import os
import sys


def main():
    problems = []
    task = os.environ.get("SPINDLE_TASK", "")
    kind, _, index = task.partition(":")
    config = json.loads(os.environ.get("TF_CONFIG", "{}"))
    if kind != "tensorboard":
        if config.get("task", {}).get("type") != kind or str(config.get("task", {}).get("index")) != index:
            problems.append(f"TF_CONFIG's task {config.get('task')} is not {task}")
    cluster = config.get("cluster", {})
    for job in ("chief", "worker", "ps"):
        hosts = os.environ.get(f"DTF_{job.upper()}_HOSTS")
        if job in cluster and hosts != ",".join(cluster[job]):
            problems.append(f"DTF_{job.upper()}_HOSTS={hosts} but TF_CONFIG has {cluster[job]}")
    if os.environ.get("DTF_TASK_JOB_NAME") != kind or os.environ.get("DTF_TASK_INDEX") != index:
        problems.append("DTF_TASK_JOB_NAME/DTF_TASK_INDEX do not name " + task)
    if not os.environ.get("SPINDLE_APP_ID", "").startswith("application_"):
        problems.append("SPINDLE_APP_ID is not an application id")
    if not os.environ.get("CONTAINER_ID", "").startswith("container_"):
        problems.append("not inside a YARN container")
    output = os.environ.get("SPINDLE_OUTPUT") or os.environ.get("DTF_OUTPUT_PATH")
    report = {"task": task, "problems": problems, "tf_config": config,
              "container": os.environ.get("CONTAINER_ID"), "app": os.environ.get("SPINDLE_APP_ID")}
    os.makedirs(os.path.join(output, "environment"), exist_ok=True)
    with open(os.path.join(output, "environment", f"{kind}-{index}.json"), "w") as out:
        json.dump(report, out)
    if problems:
        print("environment check failed: " + "; ".join(problems), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
