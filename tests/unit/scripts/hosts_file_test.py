"""The test beds' edits of /etc/hosts (scripts/lib/test-hosts.sh), on a copy: while the marked
lines are added and removed again and again, a reader never finds the lines before them
missing. Emptying the file first, as a plain rewrite does, made a lookup of localhost fail in a
test running on another bed meanwhile."""

import os
import subprocess
import sys
import tempfile
import threading
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../scripts/lib/test-hosts.sh")
MARKER = "# spindle-local-yarn-hosts"
KEPT = "127.0.0.1 localhost\n::1 localhost ip6-localhost\n10.9.8.7 a-name-of-the-machine\n"


def edit(hosts_file, command):
    subprocess.run(["bash", "-c", f'set -euo pipefail; source "{SCRIPT}"; {command}'], check=True,
                   env={**os.environ, "SPINDLE_HOSTS_FILE": hosts_file}, timeout=60)


class HostsFileEdits(unittest.TestCase):
    def test_marked_lines_go_and_the_rest_stays_readable_throughout(self):
        with tempfile.TemporaryDirectory() as directory:
            hosts_file = os.path.join(directory, "hosts")
            with open(hosts_file, "w") as out:
                out.write(KEPT)
            torn, reads, stop = [], [0], threading.Event()

            def read_while_edited():
                while not stop.is_set():
                    with open(hosts_file) as text:
                        content = text.read()
                    reads[0] += 1
                    if not content.startswith(KEPT):
                        torn.append(content)

            reader = threading.Thread(target=read_while_edited)
            reader.start()
            try:
                marked = "".join(f"10.231.77.{n} spindle-node{n} {MARKER}\\n" for n in range(1, 40))
                for _ in range(40):
                    edit(hosts_file, f"printf '{marked}' >>\"$hosts_file\"; hosts_names_remove")
            finally:
                stop.set()
                reader.join(timeout=30)
            self.assertEqual(torn[:1], [], f"a reader found the kept lines missing ({len(torn)} of {reads[0]} reads)")
            self.assertGreater(reads[0], 40)
            # A line someone added after the marked ones stays, and removing twice changes nothing.
            edit(hosts_file, f"printf '10.0.0.1 a {MARKER}\\n1.2.3.4 added-later\\n10.0.0.2 b {MARKER}\\n' "
                             f">>\"$hosts_file\"; hosts_names_remove; hosts_names_remove")
            with open(hosts_file) as text:
                self.assertEqual(text.read(), KEPT + "1.2.3.4 added-later\n")


if __name__ == "__main__":
    sys.exit(unittest.main())
