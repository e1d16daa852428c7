"""The Python environment tf-yarn ships to its containers in this benchmark.

tf-yarn insists on shipping a PEX (`pyenv_zip_path`, a .pex or .pex.zip) and runs every task as
`./<env>.pex -m tf_yarn.tensorflow.tasks._independent_workers_task`. This builds the smallest
such PEX: no packages of its own, `--inherit-path=prefer` so that it runs on an interpreter that
is already on the node, with that interpreter's site-packages: the Python that builds it (tf-yarn's
own venv, whose path is the same on every node of the one-machine YARN), the way the other peers'
containers run the project's venv that is on their PATH. So tf-yarn is measured on its
orchestration, not on moving a 2 GB environment around; each submission still uploads this PEX
(about 1 MB) and tf-yarn's own package, as tf-yarn always does.

usage: python -m peers.tfyarn_env PATH    (builds PATH unless it is there and current; prints it)
"""

import json
import os
import subprocess
import sys

OPTIONS = ["--inherit-path=prefer", f"--python-shebang={sys.executable}"]


def pex_version(pex):
    return subprocess.run([pex, "--version"], check=True, capture_output=True, text=True).stdout.strip()


def ensure(path):
    pex = os.path.join(os.path.dirname(sys.executable), "pex")
    if not os.access(pex, os.X_OK):
        raise SystemExit(f"no pex at {pex}: it comes with cluster-pack (scripts/requirements.txt)")
    stamp_path = path + ".json"
    wanted = {"pex": pex_version(pex), "options": OPTIONS}
    try:
        with open(stamp_path) as f:
            if json.load(f) == wanted and os.path.isfile(path):
                return path
    except (FileNotFoundError, ValueError):
        pass
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    subprocess.run([pex, *OPTIONS, "-o", path + ".tmp"], check=True, stdout=subprocess.DEVNULL)
    os.rename(path + ".tmp", path)
    with open(stamp_path, "w") as f:
        json.dump(wanted, f)
    return path


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    print(ensure(sys.argv[1]))
