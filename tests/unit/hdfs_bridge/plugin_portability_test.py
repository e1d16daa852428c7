"""The TensorFlow plugin for hdfs:// (hdfs_bridge/tensorflow) loads into any
x86-64 Linux node's TensorFlow: it needs no library but the C library's own,
asks for no C library version newer than RHEL 8's 2.28, exports only
TF_InitPlugin, and the TensorFlow of scripts/setup loads it and reports a
bridge that ends without answering as an error naming the path. The
sitecustomize hook of a task's python directory registers it as TensorFlow
is imported, and runs the environment's own sitecustomize too.

Run by ctest with the plugin's path as its argument, under scripts/setup's Python."""

import os
import re
import subprocess
import sys
import tempfile
import unittest

PLUGIN = sys.argv.pop(1) if len(sys.argv) > 1 else None
# The python directory the plugin is built into: spindle_hdfs/ and sitecustomize.py beside it.
HOOK = os.path.dirname(os.path.dirname(PLUGIN)) if PLUGIN else None
C_LIBRARY = {"libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "ld-linux-x86-64.so.2"}


def version_tuple(text):
    return tuple(int(part) for part in text.split("."))


class Portable(unittest.TestCase):
    def test_it_needs_only_the_c_library_and_nothing_newer_than_glibc_2_28(self):
        dynamic = subprocess.run(["readelf", "-d", PLUGIN], capture_output=True, text=True, check=True).stdout
        needed = set(re.findall(r"\(NEEDED\)\s+Shared library: \[(.+?)\]", dynamic))
        self.assertTrue(needed, dynamic)
        self.assertLessEqual(needed, C_LIBRARY, f"{PLUGIN} needs {sorted(needed - C_LIBRARY)}")
        symbols = subprocess.run(["objdump", "-T", PLUGIN], capture_output=True, text=True, check=True).stdout
        versions = {version_tuple(v) for v in re.findall(r"\bGLIBC_([0-9.]+)\b", symbols)}
        self.assertTrue(versions, symbols[:2000])
        newest = max(versions)
        self.assertLessEqual(newest, (2, 28), "symbols that need glibc " + ".".join(map(str, newest)) + ": " + "\n".join(
            line for line in symbols.splitlines() if "GLIBC_" + ".".join(map(str, newest)) + " " in line + " "))
        exported = [line.split()[-1] for line in symbols.splitlines() if " DF .text" in line]
        self.assertEqual(exported, ["TF_InitPlugin"], symbols)

    def test_tensorflow_loads_it_and_a_silent_bridge_is_an_error_naming_the_path(self):
        script = (
            "import tensorflow as tf\n"
            f"tf.experimental.register_filesystem_plugin({PLUGIN!r})\n"
            "try:\n"
            "    tf.io.gfile.exists('hdfs://spindle-ns/user/x')\n"
            "except tf.errors.UnavailableError as error:\n"
            "    print('UNAVAILABLE', error)\n"
        )
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                              env={"SPINDLE_HDFS_BRIDGE": "/bin/true", "PATH": "/usr/bin:/bin"})
        self.assertEqual(done.returncode, 0, done.stderr[-3000:])
        self.assertIn("UNAVAILABLE hdfs://spindle-ns/user/x: the HDFS bridge ended without answering", done.stdout)


    def test_the_hook_registers_hdfs_as_tensorflow_is_imported_and_runs_the_environments_own_sitecustomize(self):
        with tempfile.TemporaryDirectory() as own:
            with open(os.path.join(own, "sitecustomize.py"), "w") as site:
                site.write("import os\nos.environ['OWN_SITECUSTOMIZE'] = 'ran'\n")
            script = (
                "import os, sys\n"
                "print('own', os.environ.get('OWN_SITECUSTOMIZE'))\n"
                "print('before', 'tensorflow' in sys.modules)\n"
                "import tensorflow as tf\n"
                "import spindle_hdfs\n"
                "print('registered', spindle_hdfs._registered)\n"
            )
            done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                                  env={"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{HOOK}:{own}"})
        self.assertEqual(done.returncode, 0, done.stderr[-3000:])
        self.assertEqual(done.stdout.split("\n")[:3], ["own ran", "before False", "registered True"], done.stderr)


if __name__ == "__main__":
    unittest.main()
