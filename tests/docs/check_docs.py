"""Checks the project's Markdown against the project itself (ctest label docs, no cluster).

- Every relative link between Markdown files leads somewhere: the file (or directory) exists,
  and a `#anchor` names a heading of the target file, slugged as GitHub does.
- Every job spec in README.md and docs/ (a yaml block with a top-level `tasks:` key) passes
  `spindle validate`; the local files it names are made as empty placeholders. A block marked
  `<!-- not a whole spec -->` on the line before it is skipped.
- Every `spindle ...` command line in a shell block parses with spindle's own argument parser
  (SPINDLE_PARSE_ONLY=1: parsed and checked, never run).

Usage: check_docs.py SOURCE_DIR SPINDLE_BINARY"""

import os
import re
import shlex
import subprocess
import sys
import tempfile
import unittest
from urllib.parse import unquote

SOURCE = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.getcwd()
SPINDLE = sys.argv[2] if len(sys.argv) > 2 else "spindle"
SKIPPED_DIRECTORIES = {"node_modules", "third_party"}
NOT_A_WHOLE_SPEC = "<!-- not a whole spec -->"
SHELL_LANGUAGES = {"sh", "shell", "bash", "console", "zsh"}


def markdown_files():
    for directory, subdirectories, files in os.walk(SOURCE):
        subdirectories[:] = sorted(d for d in subdirectories if not d.startswith((".", "build"))
                                   and d not in SKIPPED_DIRECTORIES)
        for name in sorted(files):
            if name.endswith(".md"):
                yield os.path.join(directory, name)


def guide_files():
    """README.md and docs/: where job specs are checked."""
    return [path for path in markdown_files()
            if os.path.relpath(path, SOURCE) == "README.md" or os.path.relpath(path, SOURCE).startswith("docs" + os.sep)]


def read(path):
    with open(path, encoding="utf-8") as text:
        return text.read()


def fenced_blocks(text):
    """(language, body, line number of the fence, line before the fence) of every fenced block."""
    lines = text.split("\n")
    blocks, i = [], 0
    while i < len(lines):
        opening = re.match(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)", lines[i])
        if not opening:
            i += 1
            continue
        fence, language, start = opening.group(2), opening.group(3).lower(), i
        body = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append(lines[i][len(opening.group(1)):] if lines[i].startswith(opening.group(1)) else lines[i])
            i += 1
        before = next((lines[j].strip() for j in range(start - 1, -1, -1) if lines[j].strip()), "")
        blocks.append((language, "\n".join(body), start + 1, before))
        i += 1
    return blocks


def prose(text):
    """The text outside fenced blocks and inline code, line numbers kept."""
    out, fence = [], None
    for line in text.split("\n"):
        marker = re.match(r"^\s*(`{3,}|~{3,})", line)
        if fence is None and marker:
            fence = marker.group(1)
            out.append("")
        elif fence is not None:
            if line.strip().startswith(fence):
                fence = None
            out.append("")
        else:
            out.append(re.sub(r"(`+)(.+?)\1", lambda m: " " * len(m.group(0)), line))
    return "\n".join(out)


def slug(heading):
    """GitHub's anchor of a heading: lower-case, punctuation dropped, spaces to '-'."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links keep their text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    found, counts = set(), {}
    fence = None
    for line in read(path).split("\n"):
        marker = re.match(r"^\s*(`{3,}|~{3,})", line)
        if fence is None and marker:
            fence = marker.group(1)
            continue
        if fence is not None:
            if line.strip().startswith(fence):
                fence = None
            continue
        heading = re.match(r"^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$", line)
        if heading:
            base = slug(heading.group(1))
            count = counts.get(base, 0)
            counts[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    found.update(re.findall(r'<a\s+(?:name|id)="([^"]+)"', read(path)))
    return found


def links(path):
    """(line, target) of every inline link and image, and every reference definition."""
    text = prose(read(path))
    for number, line in enumerate(text.split("\n"), 1):
        for target in re.findall(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", line):
            yield number, target
        definition = re.match(r"^ {0,3}\[[^\]]+\]:\s*(\S+)", line)
        if definition:
            yield number, definition.group(1)


def placeholders_for(spec_text):
    """Local files a spec names under files:, archives: and script:, to be made empty."""
    names = []
    try:
        import yaml
        spec = yaml.safe_load(spec_text) or {}
        for key in ("files", "archives"):
            value = spec.get(key)
            if isinstance(value, dict):
                names += [str(v) for v in value.values()]
            elif isinstance(value, list):
                names += [str(v) for v in value]
            elif isinstance(value, str):
                names.append(value)
        if isinstance(spec.get("script"), str):
            names.append(spec["script"])
    except ImportError:
        for key, value in re.findall(r"^(files|archives|script):\s*(.+)$", spec_text, re.M):
            value = value.split(" #")[0].strip()
            if value.startswith("{"):
                names += [item.split(":", 1)[1].strip() for item in value.strip("{}").split(",") if ":" in item]
            elif value.startswith("["):
                names += [item.strip() for item in value.strip("[]").split(",")]
            else:
                names.append(value)
    return [name for name in names if "://" not in name]


def command_lines(body):
    """Every `spindle ...` command of a shell block, continuation lines and open quotes joined."""
    lines = body.split("\n")
    i = 0
    while i < len(lines):
        line = re.sub(r"^\$\s+", "", lines[i].strip())
        start = i + 1
        i += 1
        if not line.startswith("spindle "):
            continue
        while True:
            if line.endswith("\\") and i < len(lines):
                line = line[:-1] + " " + lines[i].strip()
                i += 1
                continue
            try:
                words = shlex.split(line, comments=True)
            except ValueError:  # a quote still open: the command goes on
                if i < len(lines):
                    line += "\n" + lines[i]
                    i += 1
                    continue
                raise
            yield start, line, words
            break


def parse_only(words, cwd=None):
    return subprocess.run([SPINDLE, *words[1:]], capture_output=True, text=True, timeout=60, cwd=cwd,
                          env={**os.environ, "SPINDLE_PARSE_ONLY": "1"})


class Links(unittest.TestCase):
    def test_relative_links_lead_to_files_and_headings(self):
        dead, checked = [], 0
        anchor_cache = {}
        for path in markdown_files():
            for number, target in links(path):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # http:, https:, mailto:
                    continue
                checked += 1
                file_part, _, anchor = target.partition("#")
                destination = os.path.normpath(os.path.join(os.path.dirname(path), unquote(file_part))) \
                    if file_part else path
                where = f"{os.path.relpath(path, SOURCE)}:{number}: {target}"
                if not os.path.exists(destination):
                    dead.append(f"{where}: {os.path.relpath(destination, SOURCE)} does not exist")
                    continue
                if anchor and destination.endswith(".md"):
                    if destination not in anchor_cache:
                        anchor_cache[destination] = anchors(destination)
                    if unquote(anchor).lower() not in anchor_cache[destination]:
                        dead.append(f"{where}: no heading of {os.path.relpath(destination, SOURCE)} has the anchor "
                                    f"#{anchor}")
        self.assertGreater(checked, 50)
        self.assertEqual(dead, [], "dead links:\n" + "\n".join(dead))

    def test_slugs_follow_github(self):
        self.assertEqual(slug("A job's life"), "a-jobs-life")
        self.assertEqual(slug("The dashboard in a browser: `spindle serve`"),
                         "the-dashboard-in-a-browser-spindle-serve")
        self.assertEqual(slug("Beyond loopback, TLS only"), "beyond-loopback-tls-only")
        self.assertEqual(slug("Troubleshooting and `spindle doctor`"), "troubleshooting-and-spindle-doctor")


class Specs(unittest.TestCase):
    def test_every_spec_in_the_guide_validates(self):
        failures, checked = [], 0
        for path in guide_files():
            for language, body, line, before in fenced_blocks(read(path)):
                if language not in ("yaml", "yml") or not re.search(r"^tasks:", body, re.M):
                    continue
                if before == NOT_A_WHOLE_SPEC:
                    continue
                checked += 1
                with tempfile.TemporaryDirectory(prefix="spindle-docs-") as directory:
                    for name in placeholders_for(body):
                        placeholder = os.path.join(directory, name)
                        os.makedirs(os.path.dirname(placeholder), exist_ok=True)
                        open(placeholder, "w").close()
                    spec = os.path.join(directory, "spec.yaml")
                    with open(spec, "w", encoding="utf-8") as out:
                        out.write(body + "\n")
                    done = subprocess.run([SPINDLE, "validate", spec], capture_output=True, text=True, timeout=60,
                                          cwd=directory)
                    if done.returncode != 0:
                        failures.append(f"{os.path.relpath(path, SOURCE)}:{line}: exit {done.returncode}\n"
                                        f"{done.stderr}")
        self.assertGreaterEqual(checked, 2)
        self.assertEqual(failures, [], "specs that do not validate:\n" + "\n".join(failures))


class CommandLines(unittest.TestCase):
    def assert_parse_only_runs_nothing(self):
        # Without the hook this is exit 2: the file does not exist. The docs' own lines are run
        # only once this holds, since without it they would really run (submit, kill, local up).
        done = parse_only(["spindle", "validate", "/nonexistent/spec.yaml"])
        self.assertEqual((done.returncode, done.stdout, done.stderr), (0, "", ""),
                         "SPINDLE_PARSE_ONLY=1 ran the command instead of only parsing it")

    def test_parse_only_checks_without_running(self):
        self.assert_parse_only_runs_nothing()
        done = parse_only(["spindle", "kill", "application_1_1", "--no-such-flag"])
        self.assertEqual(done.returncode, 2, done.stderr)
        self.assertIn("--no-such-flag", done.stderr)
        done = parse_only(["spindle", "no-such-command"])
        self.assertEqual(done.returncode, 2, done.stderr)

    def test_every_command_line_parses(self):
        failures, checked = [], 0
        self.assert_parse_only_runs_nothing()
        for path in markdown_files():
            for language, body, line, _ in fenced_blocks(read(path)):
                if language not in SHELL_LANGUAGES:
                    continue
                for offset, text, words in command_lines(body):
                    checked += 1
                    done = parse_only(words)
                    if done.returncode != 0:
                        failures.append(f"{os.path.relpath(path, SOURCE)}:{line + offset}: {text}\n"
                                        f"  exit {done.returncode}: {done.stderr.strip()}")
        self.assertGreater(checked, 5)
        self.assertEqual(failures, [], "command lines that do not parse:\n" + "\n".join(failures))


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v", *sys.argv[3:]])
