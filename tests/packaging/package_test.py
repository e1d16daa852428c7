"""Spindle installed like any package: `cpack` makes the .deb of this build,
which is unpacked into a fresh root; the programs there run from there (the
CLI stages the spindle-container beside it, the app answers without a
display), the desktop entry and AppStream data pass their validators, the
man pages and completions are where man and the shells look, and one job
submitted by the installed `spindle` runs on the local YARN of
tests/yarn-cluster.

Run by ctest with SPINDLE_BUILD_DIR, SPINDLE_SOURCE_DIR, HADOOP_CONF_DIR,
SPINDLE_STATE_DIR and SPINDLE_DATA_DIR set."""

import glob
import hashlib
import json
import re
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

BUILD = os.environ["SPINDLE_BUILD_DIR"]
SOURCE = os.environ["SPINDLE_SOURCE_DIR"]
VERSION = os.environ["SPINDLE_VERSION"]


def run(*args, env=None, timeout=600, cwd=None):
    return subprocess.run(list(args), capture_output=True, text=True, timeout=timeout, cwd=cwd,
                          env={**os.environ, **(env or {})})


class InstalledPackage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.mkdtemp(prefix="spindle-package-test-")
        made = run("cpack", "-G", "DEB", "--config", os.path.join(BUILD, "CPackConfig.cmake"), "-B",
                   os.path.join(cls.directory, "out"), cwd=BUILD, timeout=900)
        assert made.returncode == 0, made.stdout + made.stderr
        debs = glob.glob(os.path.join(cls.directory, "out", "*.deb"))
        assert len(debs) == 1, (debs, made.stdout)
        cls.deb = debs[0]
        cls.root = os.path.join(cls.directory, "root")
        unpacked = run("dpkg-deb", "-x", cls.deb, cls.root)
        assert unpacked.returncode == 0, unpacked.stderr
        cls.bin = os.path.join(cls.root, "usr", "bin")
        cls.share = os.path.join(cls.root, "usr", "share")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.directory, ignore_errors=True)

    def test_the_package_names_itself_and_what_it_needs(self):
        self.assertEqual(os.path.basename(self.deb), f"spindle_{VERSION}_amd64.deb")
        fields = run("dpkg-deb", "-f", self.deb, "Package", "Version", "Architecture", "Depends")
        self.assertEqual(fields.returncode, 0, fields.stderr)
        self.assertIn("Package: spindle", fields.stdout)
        self.assertIn(f"Version: {VERSION}", fields.stdout)
        self.assertIn("Architecture: amd64", fields.stdout)
        # dpkg-shlibdeps found the shared libraries of the CLI and the app.
        for library in ("libcurl", "libqt5widgets5", "libsqlite3"):
            self.assertIn(library, fields.stdout)

    def test_the_programs_run_from_the_installed_root(self):
        for program in ("spindle", "spindle-container", "spindle-gui"):
            self.assertTrue(os.access(os.path.join(self.bin, program), os.X_OK), program)
        version = run(os.path.join(self.bin, "spindle"), "--version")
        self.assertEqual((version.returncode, version.stdout.strip()), (0, f"spindle {VERSION}"), version.stderr)
        container = run(os.path.join(self.bin, "spindle-container"), "--version")
        self.assertEqual(container.returncode, 0, container.stderr)
        self.assertIn(VERSION, container.stdout)
        # No display: the app still says what it is, as over SSH on a gateway node.
        env = {key: value for key, value in os.environ.items() if key not in ("DISPLAY", "WAYLAND_DISPLAY")}
        env.pop("QT_QPA_PLATFORM", None)
        gui = subprocess.run([os.path.join(self.bin, "spindle-gui"), "--version"], capture_output=True, text=True,
                             timeout=60, env=env)
        self.assertEqual((gui.returncode, gui.stdout.strip()), (0, f"spindle-gui {VERSION}"), gui.stderr)
        example = os.path.join(self.share, "spindle", "examples", "wine-quality", "wine_quality.yaml")
        validated = run(os.path.join(self.bin, "spindle"), "validate", "--json", example)
        self.assertEqual(validated.returncode, 0, validated.stdout + validated.stderr)
        self.assertTrue(json.loads(validated.stdout)["valid"])

    def test_the_app_finds_its_translations_and_icons_where_it_looks(self):
        # translations.cpp looks in ../share/spindle/translations beside the binary.
        translations = os.path.join(self.bin, "..", "share", "spindle", "translations")
        self.assertEqual(sorted(os.listdir(translations)), ["spindle_gui_de.qm", "spindle_gui_en.qm"])
        icons = os.path.join(self.share, "icons", "hicolor")
        self.assertTrue(os.path.isfile(os.path.join(icons, "scalable", "apps", "spindle-gui.svg")))
        for size in (16, 22, 24, 32, 48, 64, 128, 256):
            png = os.path.join(icons, f"{size}x{size}", "apps", "spindle-gui.png")
            with open(png, "rb") as image:
                header = image.read(24)
            self.assertEqual(header[:8], b"\x89PNG\r\n\x1a\n", png)
            self.assertEqual((int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")),
                             (size, size), png)

    def test_desktop_entry_and_appstream_data_pass_their_validators(self):
        desktop = os.path.join(self.share, "applications", "spindle-gui.desktop")
        checked = run("desktop-file-validate", desktop)
        self.assertEqual((checked.returncode, checked.stdout + checked.stderr), (0, ""))
        metainfo = glob.glob(os.path.join(self.share, "metainfo", "*.metainfo.xml"))
        self.assertEqual(len(metainfo), 1, metainfo)
        validated = run("appstreamcli", "validate", "--no-net", "--pedantic", metainfo[0])
        self.assertEqual(validated.returncode, 0, validated.stdout + validated.stderr)
        with open(metainfo[0]) as data:
            self.assertIn("<launchable type=\"desktop-id\">spindle-gui.desktop</launchable>", data.read())

    def test_the_hdfs_plugin_is_where_the_guide_says_and_tensorflow_loads_it_from_there(self):
        python = os.path.join(self.root, "usr", "lib", "spindle", "python")
        for name in ("sitecustomize.py", "spindle_hdfs/__init__.py", "spindle_hdfs/libspindle_hdfs_tf.so"):
            self.assertTrue(os.path.isfile(os.path.join(python, name)), name)
        # docs/outputs-on-hdfs.md: PYTHONPATH=/usr/lib/spindle/python, and `import tensorflow` registers hdfs://.
        loaded = subprocess.run([sys.executable, "-c", "import tensorflow, spindle_hdfs; print(spindle_hdfs._registered)"],
                                capture_output=True, text=True, timeout=300,
                                env={"PATH": self.bin + ":/usr/bin:/bin", "PYTHONPATH": python})
        self.assertEqual((loaded.returncode, loaded.stdout.strip().splitlines()[-1:]), (0, ["True"]), loaded.stderr)

    def test_man_pages_render_without_warnings(self):
        for page in ("spindle", "spindle-gui"):
            path = os.path.join(self.share, "man", "man1", f"{page}.1.gz")
            if not os.path.exists(path):
                path = path[:-3]
            rendered = run("man", "--warnings", "-l", path, env={"MANWIDTH": "80", "MAN_KEEP_FORMATTING": ""})
            self.assertEqual(rendered.returncode, 0, rendered.stderr)
            self.assertEqual(rendered.stderr, "", page)
            self.assertIn("SYNOPSIS", rendered.stdout, page)

    def commands(self):
        """The subcommands `spindle --help` lists."""
        listed = run(os.path.join(self.bin, "spindle"), "--help").stdout
        section = listed.split("Subcommands:", 1)[1]
        return sorted(re.findall(r"^  ([a-z][a-z-]*) ", section, re.M))

    def complete_in_bash(self, line):
        """What the installed bash completion offers at the end of `line`."""
        script = os.path.join(self.share, "bash-completion", "completions", "spindle")
        words = line.split(" ")
        program = (f"source {script}\n"
                   f"COMP_WORDS=({' '.join(repr(word) for word in words)})\n"
                   f"COMP_CWORD={len(words) - 1}\nCOMP_LINE={line!r}\nCOMP_POINT={len(line)}\n"
                   "_spindle\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n")
        done = run("bash", "-c", program, env={"PATH": self.bin + os.pathsep + os.environ["PATH"]})
        self.assertEqual(done.returncode, 0, done.stderr)
        return sorted(word for word in done.stdout.split("\n") if word)

    def test_bash_completes_commands_options_and_jobs(self):
        commands = self.commands()
        self.assertGreater(len(commands), 10, commands)
        offered = self.complete_in_bash("spindle ")
        self.assertEqual(sorted(set(offered) - {"--help", "--version"}), commands)
        self.assertEqual(self.complete_in_bash("spindle submit --w"), ["--wait"])
        self.assertEqual(self.complete_in_bash("spindle cluster "), ["--json", "info", "labels", "nodes", "queues"])
        self.assertEqual(self.complete_in_bash("spindle local s"), ["status"])
        # Application ids come from the job history, which holds at least the job of the test above.
        listed = json.loads(run(os.path.join(self.bin, "spindle"), "list", "--all", "--json").stdout or "[]")
        ids = sorted(job["application_id"] for job in listed)
        self.assertTrue(ids, "the history holds no job to complete")
        self.assertEqual(self.complete_in_bash("spindle status application_"), ids)

    def test_zsh_finds_the_completion_and_it_knows_every_command(self):
        directory = os.path.join(self.share, "zsh", "vendor-completions")
        found = run("zsh", "-f", "-c", f"fpath=({directory} $fpath); autoload -Uz compinit; "
                                        f"compinit -u -d {self.directory}/zcompdump; print -r -- ${{_comps[spindle]}}")
        self.assertEqual((found.returncode, found.stdout.strip()), (0, "_spindle"), found.stderr)
        with open(os.path.join(directory, "_spindle")) as completion:
            text = completion.read()
        for command in self.commands():
            self.assertIn(f"'{command}:", text, command)

    def test_spindle_local_finds_its_launcher_where_it_is_installed(self):
        launcher = os.path.join(self.share, "spindle", "local-yarn", "scripts", "local-yarn")
        self.assertTrue(os.access(launcher, os.X_OK), launcher)
        for part in ("scripts/lib/paths.sh", "tests/yarn-cluster/pom.xml", "tests/yarn-cluster/build",
                     "tests/yarn-cluster/src/main/java/localyarn/ResourceManagerProcesses.java"):
            self.assertTrue(os.path.isfile(os.path.join(self.share, "spindle", "local-yarn", part)), part)
        # A cache with no cluster in it: the installed launcher answers that none runs.
        cache = tempfile.mkdtemp(prefix="spindle-local-", dir=self.directory)
        env = {key: value for key, value in os.environ.items()
               if key not in ("SPINDLE_LOCAL_YARN_SCRIPT", "SPINDLE_LOCAL_YARN_DIR")}
        env["SPINDLE_CACHE"] = cache
        status = subprocess.run([os.path.join(self.bin, "spindle"), "local", "status"], capture_output=True,
                                text=True, timeout=120, env=env)
        self.assertEqual(status.returncode, 3, status.stdout + status.stderr)
        self.assertNotIn("is missing", status.stderr)
        self.assertIn("not running", status.stdout + status.stderr)
        moved = os.path.join(self.directory, "moved-share")
        os.rename(os.path.join(self.share, "spindle", "local-yarn"), moved)
        try:
            missing = subprocess.run([os.path.join(self.bin, "spindle"), "local", "status"], capture_output=True,
                                     text=True, timeout=120, env=env)
        finally:
            os.rename(moved, os.path.join(self.share, "spindle", "local-yarn"))
        self.assertEqual(missing.returncode, 2, missing.stderr)
        self.assertIn(f"the local YARN's launcher {launcher} is missing", missing.stderr)

    def test_a_job_from_the_installed_spindle_runs_on_yarn(self):
        # Named to run first: the completion test below offers its application id.
        spindle = os.path.join(self.bin, "spindle")
        spec = os.path.join(self.directory, "installed.json")
        with open(spec, "w") as out:
            json.dump({"name": "from-the-package", "tasks": {
                "worker": {"memory": "256 MiB", "command": "test \"$SPINDLE_TASK\" = worker:0"}}}, out)
        submitted = run(spindle, "submit", "--wait", "--json", spec)
        self.assertEqual(submitted.returncode, 0, submitted.stdout + submitted.stderr)
        self.assertEqual(json.loads(submitted.stdout)["final_status"], "SUCCEEDED")
        # The stripped binary of the package, not the build's, is what the job ran: its own copy
        # was staged (the cache is keyed by content).
        self.assertIn("container binary: ", submitted.stderr)
        staged = [line for line in submitted.stderr.splitlines() if line.startswith("container binary: ")][0]
        with open(os.path.join(self.bin, "spindle-container"), "rb") as binary:
            digest = hashlib.sha256(binary.read()).hexdigest()[:16]
        self.assertIn(digest, staged)


if __name__ == "__main__":
    unittest.main()
