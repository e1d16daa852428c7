#!/usr/bin/env python3
"""Where the time of a test run went, from the timeline scripts/test writes.

    test-report.py TIMELINE [--longest N]

TIMELINE holds ctest's console output, each line prefixed with the seconds since the epoch at
which it was printed, and lines `#cpu START|END <fields of /proc/stat's cpu line>` written before
and after ctest, with `#cpu AT <seconds since the epoch> <fields>` every few seconds between. The
report gives the wall time of ctest, the CPU left idle, how many tests ran at once on average, the
time spent starting and stopping test beds, the time of the tests that hold the cluster lock one
after another, and the longest tests with the share of the machine's CPU that was busy while each
ran (a long test on a mostly idle machine waits on wall-clock time or on YARN, not on the CPU).
"""

import argparse
import re
import sys

# Tests are keyed by their number: names may hold spaces.
START = re.compile(r"^\s*Start\s+(\d+): (.+)$")
END = re.compile(r"^\s*\d+/\d+ Test\s+#(\d+): (.+?) \.*\s*(Passed|\*\*\*.+?|Not Run.*?)\s+([\d.]+) sec")


def read(path):
    starts, ends, cpu, samples = {}, {}, {}, []
    with open(path, encoding="utf-8", errors="replace") as timeline:
        for number, line in enumerate(timeline, 1):
            stamp, _, text = line.rstrip("\n").partition(" ")
            if stamp == "#cpu":
                which, *fields = text.split()
                if which == "AT":
                    samples.append((float(fields[0]), [int(f) for f in fields[1:]]))
                else:
                    cpu[which] = [int(f) for f in fields]
                continue
            try:
                when = float(stamp)
            except ValueError:
                sys.exit(f"{path}:{number}: a line without its time stamp; was it written by scripts/test?")
            if match := START.match(text):
                starts[match.group(1)] = when
            elif match := END.match(text):
                ends[match.group(1)] = (match.group(2), when, float(match.group(4)), match.group(3).strip())
    return starts, ends, cpu, samples


def idle_between(before, after):
    """The share of the CPU left to idle, or to niced work (the fuzz build runs at nice 19 beside the
    tests, so what it takes is CPU the tests left)."""
    delta = [b - a for a, b in zip(before, after)]
    total = sum(delta[:8])  # user nice system idle iowait irq softirq steal
    return (delta[1] + delta[3] + delta[4]) / total if total else None


def niced_between(before, after):
    delta = [b - a for a, b in zip(before, after)]
    total = sum(delta[:8])
    return delta[1] / total if total else None


def idle_share(cpu):
    if "START" not in cpu or "END" not in cpu:
        return None
    return idle_between(cpu["START"], cpu["END"])


def busy_while(samples, begin, end):
    """The share of the CPU busy between two times, from the samples nearest inside them."""
    inside = [fields for when, fields in samples if begin <= when <= end]
    if len(inside) < 2:
        return None
    idle = idle_between(inside[0], inside[-1])
    return None if idle is None else 1 - idle


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("timeline")
    parser.add_argument("--longest", type=int, default=30)
    args = parser.parse_args()
    starts, ends, cpu, samples = read(args.timeline)
    if not ends:
        sys.exit(f"{args.timeline}: no finished test in it; nothing to report")
    first = min(starts.values(), default=min(e[1] - e[2] for e in ends.values()))
    last = max(e[1] for e in ends.values())
    wall = last - first
    busy = sum(e[2] for e in ends.values())
    print(f"ctest: {len(ends)} tests in {wall:.0f} s of wall time; {busy:.0f} s of test time, "
          f"{busy / wall:.2f} tests running on average")
    idle = idle_share(cpu)
    if idle is not None:
        niced = niced_between(cpu["START"], cpu["END"])
        print(f"CPU left by the tests: {idle * 100:.0f} % of every core's time, of which niced work (the fuzz "
              f"build) took {niced * 100:.0f} %")
    beds = [e for e in ends.values() if re.match(r"local_yarn\w*_(up|down)$", e[0])]
    if beds:
        print(f"test beds: {len(beds)} starts and stops, {sum(e[2] for e in beds):.0f} s in all")
        for name, _, seconds, _ in sorted(beds, key=lambda e: -e[2]):
            print(f"  {seconds:7.1f} s  {name}")
    failed = sorted(e[0] for e in ends.values() if e[3] != "Passed")
    if failed:
        print(f"not passed: {', '.join(failed)}")
    print(f"the {args.longest} longest tests (seconds into ctest when each started; CPU the tests kept busy "
          "while it ran):")
    for number, (name, end, seconds, _) in sorted(ends.items(), key=lambda kv: -kv[1][2])[: args.longest]:
        began = starts.get(number, end - seconds)
        busy_share = busy_while(samples, began, end)
        busy_text = "    " if busy_share is None else f"{busy_share * 100:3.0f}%"
        print(f"  {seconds:7.1f} s  at {began - first:6.0f}  {busy_text}  {name}")


if __name__ == "__main__":
    main()
