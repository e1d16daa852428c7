#!/usr/bin/env python3
"""The man page and the shell completions against the command line's own parser.

Usage: check_cli_reference.py SOURCE_DIR SPINDLE

`SPINDLE_COMMAND_TREE=1 spindle` prints every command and option the parser
knows (hidden ones left out). Each must appear in resources/man/spindle.1 and
in both completions, under its command; and no option those files offer may
be unknown to the parser. A command or option added, renamed or removed
without its man page and completions fails here, naming what to change.
"""

import json
import os
import re
import subprocess
import sys
import unittest

SOURCE, SPINDLE = sys.argv[1], sys.argv[2]
del sys.argv[1:3]


def command_tree():
    done = subprocess.run([SPINDLE], env={**os.environ, "SPINDLE_COMMAND_TREE": "1"}, capture_output=True,
                          text=True, timeout=60, check=True)
    return json.loads(done.stdout)


def read(relative):
    with open(os.path.join(SOURCE, relative), encoding="utf-8") as f:
        return f.read()


def walk(command, path=()):
    """(path of command names, command) for every command under the root."""
    for sub in command["commands"]:
        yield path + (sub["name"],), sub
        yield from walk(sub, path + (sub["name"],))


def flags(command):
    return [name for option in command["options"] if not option["positional"] for name in option["names"]]


OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z][\w-]*)")


class ManPageAndCompletionsFollowTheParser(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tree = command_tree()
        # roff writes a hyphen as \-; the completions as they are.
        cls.files = {
            "resources/man/spindle.1": re.sub(r"\\f[BIRP]", " ", read("resources/man/spindle.1").replace("\\-", "-")),
            "resources/completions/spindle.bash": read("resources/completions/spindle.bash"),
            "resources/completions/_spindle": read("resources/completions/_spindle"),
        }

    def test_the_parser_describes_itself(self):
        names = [name for name, _ in walk(self.tree)]
        self.assertIn(("submit",), names)
        self.assertIn(("cluster", "queues"), names)
        self.assertNotIn(("hdfs-bridge",), names, "a command for programs was listed as one for people")
        submit = dict(walk(self.tree))[("submit",)]
        self.assertIn("--wait", flags(submit))

    def test_every_command_is_in_the_man_page_and_both_completions(self):
        for path, _ in walk(self.tree):
            for file, text in self.files.items():
                with self.subTest(command=" ".join(path), file=file):
                    self.assertTrue(re.search(r"(?<![\w-])" + re.escape(path[-1]) + r"(?![\w-])", text),
                                    f"spindle {' '.join(path)} is not in {file}; add it there")

    def test_every_option_is_in_the_man_page_and_both_completions(self):
        for path, command in walk(self.tree):
            for option in flags(command):
                for file, text in self.files.items():
                    with self.subTest(option=option, command=" ".join(path), file=file):
                        self.assertTrue(re.search(r"(?<![\w-])" + re.escape(option) + r"(?![\w-])", text),
                                        f"{option} of spindle {' '.join(path)} is not in {file}; add it there")

    def test_the_completions_offer_no_option_the_parser_lacks(self):
        known = {"--help", "-h", "--version"}
        for _, command in walk(self.tree):
            known.update(flags(command))
        for file in ("resources/completions/spindle.bash", "resources/completions/_spindle"):
            text = self.files[file]
            # Long options anywhere; short ones only where the completion lists what it offers (the
            # shell's own flags, compgen -W and the like, are not spindle's).
            offered = set(re.findall(r"(?<![\w-])(--[A-Za-z][\w-]*)", text))
            for listed in re.findall(r"(?:options|short_form)=\"([^\"]*)\"", text) + re.findall(r"(?<!\$)\{(-[^}]*)\}", text):
                offered.update(re.findall(r"(?<![\w-])(-[A-Za-z])(?![\w-])", listed))
            with self.subTest(file=file):
                unknown = sorted(offered - known)
                self.assertFalse(unknown, f"{file} offers {', '.join(unknown)}, which spindle does not have; "
                                          "remove them")


if __name__ == "__main__":
    unittest.main(verbosity=2)
