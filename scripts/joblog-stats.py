#!/usr/bin/env python3
"""Where an opening search's work went: tables from its job log (--job-log).

  joblog-stats.py [--by kind|probe-pn] [--contains STONES] [--first WORK] LOG...

  --by kind (default)
      one row per kind of job: the stones of its position, the side to move
      there, probe or whole job; columns jobs, proven, disproven, work and its
      share of the total.  (White to move: a black move being weighed; black
      to move: a white move answered.)
  --by probe-pn
      the whole jobs that followed a probe of the same position, by side to
      move and by the probe's final proof number (buckets 0-1, 2-3, 4-7, ...):
      jobs, proven, work.  Shows whether a probe's pn tells which whole jobs
      pay.
  --contains STONES
      only jobs whose position holds these stones, as "B:h8,i7 W:h9" (the
      search's own frame, as the log prints it): one subtree of the search.
  --first WORK
      only the jobs of the first WORK work nodes of the log (e.g. 8.5e8).

Several logs (or a log that several resumed runs appended to) are read in
order; probes and whole jobs are paired by position and side to move, not
by node id (ids change when a search is resumed), and every whole job after a
probe (its reruns too) counts under that probe's pn.  Lines that are not
well-formed job records are skipped and counted on stderr.  Exit codes: 0,
64 bad arguments, 66 a log that cannot be read.
"""
import argparse
import collections
import json
import math
import sys


class Usage(ValueError):
    pass


class Parser(argparse.ArgumentParser):
    """Usage errors as one line and exit 64 (docs/cli.md), not argparse's 2."""

    def error(self, message):
        print(f"joblog-stats: {message}", file=sys.stderr)
        sys.exit(64)


def parse_stones(spec):
    """'B:h8,i7 W:h9' -> (set of black points, set of white points)."""
    black, white = set(), set()
    for part in spec.split():
        if len(part) < 2 or part[1] != ":" or part[0] not in "BW":
            raise Usage(f"--contains: expected B:p,q W:r, got '{part}'")
        pts = {p.strip().lower() for p in part[2:].split(",") if p.strip()}
        (black if part[0] == "B" else white).update(pts)
    return black, white


def position_stones(pos):
    black, white = set(), set()
    for part in pos.split():
        if part.startswith("B:"):
            black = set(part[2:].split(",")) if len(part) > 2 else set()
        elif part.startswith("W:"):
            white = set(part[2:].split(",")) if len(part) > 2 else set()
    return black, white


def is_count(v):
    """A finite number at least 0 (not a bool, not NaN or infinite)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v >= 0


def job_record(line):
    """The job of a log line, or None when the line is not a well-formed job record."""
    try:
        j = json.loads(line)
    except ValueError:
        return None
    if not isinstance(j, dict):
        return None
    if not (isinstance(j.get("position"), str) and j.get("to_move") in ("black", "white") and
            isinstance(j.get("result"), str) and isinstance(j.get("probe"), bool) and
            is_count(j.get("stones")) and is_count(j.get("work")) and is_count(j.get("pn"))):
        return None
    return j


def read_jobs(paths, contains, first):
    jobs, skipped, total = [], 0, 0
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                j = job_record(line)
                if j is None:
                    skipped += 1
                    continue
                if first is not None and total >= first:
                    continue
                total += j["work"]
                if contains:
                    b, w = position_stones(j["position"])
                    if not (contains[0] <= b and contains[1] <= w):
                        continue
                jobs.append(j)
    if skipped:
        print(f"joblog-stats: {skipped} lines skipped (not job records)", file=sys.stderr)
    if not jobs:
        print("joblog-stats: no job records", file=sys.stderr)
    return jobs


def by_kind(jobs):
    rows = collections.defaultdict(lambda: [0, 0, 0, 0])
    total = sum(j["work"] for j in jobs)
    for j in jobs:
        r = rows[(j["stones"], j["to_move"], "probe" if j["probe"] else "whole")]
        r[0] += 1
        r[1] += j["result"] == "proven"
        r[2] += j["result"] == "disproven"
        r[3] += j["work"]
    out = ["| stones | to move | job | jobs | proven | disproven | work | share |",
           "|---:|---|---|---:|---:|---:|---:|---:|"]
    for (s, side, kind), (n, p, d, w) in sorted(rows.items()):
        share = 100.0 * w / total if total else 0.0
        out.append(f"| {s} | {side} | {kind} | {n:,} | {p:,} | {d:,} | {w:.3g} | {share:.1f}% |")
    out.append(f"| all | | | {len(jobs):,} | {sum(r[1] for r in rows.values()):,} | "
               f"{sum(r[2] for r in rows.values()):,} | {total:.3g} | 100.0% |")
    return out


def bucket(pn):
    """0-1, 2-3, 4-7, ...: the lower end of pn's power-of-two bucket."""
    b = 1
    while b * 2 <= pn:
        b *= 2
    return 0 if pn < 2 else b


def by_probe_pn(jobs):
    probe = {}
    rows = collections.defaultdict(lambda: [0, 0, 0])
    for j in jobs:
        key = (j["position"], j["to_move"])
        if j["probe"]:
            probe[key] = j["pn"]
        elif key in probe:  # (every whole job after it: a rerun too)
            r = rows[(j["to_move"], bucket(probe[key]))]
            r[0] += 1
            r[1] += j["result"] == "proven"
            r[2] += j["work"]
    out = ["| to move | probe pn | whole jobs | proven | work |", "|---|---|---:|---:|---:|"]
    for (side, b), (n, p, w) in sorted(rows.items()):
        span = "0-1" if b == 0 else f"{b}-{2 * b - 1}"
        out.append(f"| {side} | {span} | {n:,} | {p:,} | {w:.3g} |")
    return out


def main(argv):
    ap = Parser(description=__doc__.split("\n")[0])
    ap.add_argument("--by", choices=("kind", "probe-pn"), default="kind")
    ap.add_argument("--contains", default="")
    ap.add_argument("--first", default=None)
    ap.add_argument("logs", nargs="+")
    a = ap.parse_args(argv)
    try:
        contains = parse_stones(a.contains) if a.contains else None
        first = None
        if a.first is not None:
            try:
                first = float(a.first)
            except ValueError:
                first = -1.0
            if not math.isfinite(first) or first <= 0:
                raise Usage(f"--first: expected a positive work count, got '{a.first}'")
        jobs = read_jobs(a.logs, contains, first)
    except Usage as e:
        print(f"joblog-stats: {e}", file=sys.stderr)
        return 64
    except OSError as e:
        print(f"joblog-stats: {e.filename}: {e.strerror}", file=sys.stderr)
        return 66
    print("\n".join(by_kind(jobs) if a.by == "kind" else by_probe_pn(jobs)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
