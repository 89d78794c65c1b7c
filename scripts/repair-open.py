#!/usr/bin/env python3
"""repair-open.py - try `renju repair` on the open white moves of an opening search's tree.

usage: scripts/repair-open.py POSITION --db DB [--renju BIN] [--nodes N] [--sources K]
                              [--max-open M] [--max-depth D] [--order shallow|deep]
                              [--tt-mb MB] [--time SECONDS]

Follows the most-proving line of POSITION's saved tree (`renju opening status
--json`) and, at each white-to-move position on it with at most M open white
moves (default 4: the search has sorted its moves there), nearest the root
first (--order deep: deepest first), tries to prove every open white move by
mending a proven proof nearby: white's pass first, then the K proven sibling
moves nearest to it (Chebyshev distance, then the order of the list).  Each try is `renju repair TARGET --from SOURCE`, which
checks what it proves and stores it in DB; the first proven source ends the
tries of a move.  Stops starting tries after --time seconds.

The search reads the results at its next start: stop the search that owns the
tree before running this on its database (one writer at a time), or run it on
a copy and carry the results over with `renju db merge`.

Prints one line per try and a summary; exit 0, 64 on a usage error, 66 when DB
is missing, 70 when renju fails otherwise.
"""
import argparse
import json
import os
import subprocess
import sys
import time

COLS = "abcdefghijklmno"


def point(m):
    """(col, row) of a move like 'h8', or None for a pass."""
    if m == "pass":
        return None
    return COLS.index(m[0]), int(m[1:]) - 1


def dist(a, b):
    pa, pb = point(a), point(b)
    if pa is None or pb is None:
        return 99
    return max(abs(pa[0] - pb[0]), abs(pa[1] - pb[1]))


def status(args, pos):
    r = subprocess.run([args.renju, "opening", "status", pos, "--db", args.db, "--json"], capture_output=True,
                       text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        raise SystemExit(66 if r.returncode == 66 else 70)
    return json.loads(r.stdout.splitlines()[0])


def children(st):
    return st.get("classes") or st.get("fourth") or []


def repair(args, target, source):
    cmd = [args.renju, "repair", target, "--from", source, "--db", args.db, "--nodes", str(args.nodes), "--tt-mb",
           str(args.tt_mb), "--json", "--quiet"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode == 66:  # the source has no stored proof
        return None
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        raise SystemExit(70)
    return json.loads(r.stdout.splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(prog="repair-open.py", add_help=True)
    ap.add_argument("position")
    ap.add_argument("--db", required=True)
    ap.add_argument("--renju", default=os.environ.get("RENJU", "renju"))
    ap.add_argument("--nodes", type=float, default=1e7)
    ap.add_argument("--sources", type=int, default=4)
    ap.add_argument("--max-depth", type=int, default=40)
    ap.add_argument("--max-open", type=int, default=4)
    ap.add_argument("--order", choices=["shallow", "deep"], default="shallow")
    ap.add_argument("--tt-mb", type=int, default=1024)
    ap.add_argument("--time", type=float, default=0)
    try:
        args = ap.parse_args()
    except SystemExit as e:
        raise SystemExit(64 if e.code else 0)
    args.nodes = int(args.nodes)
    if args.sources < 0 or args.nodes < 1:
        sys.stderr.write("repair-open.py: --sources and --nodes must be positive\n")
        raise SystemExit(64)
    if not os.path.exists(args.db):
        sys.stderr.write(f"repair-open.py: no database {args.db}\n")
        raise SystemExit(66)
    t0 = time.time()
    root = status(args, args.position)
    # the white-to-move positions on the line, deepest first
    # (a position just expanded has every move open: the search has not sorted its moves yet)
    white_nodes = []
    to_move = root["to_move"]
    moves = []
    root_open = sum(1 for k in children(root) if k["status"] == "unknown")
    if to_move == "white" and root_open <= args.max_open:
        white_nodes.append(list(moves))
    for x in root.get("line", [])[: args.max_depth]:
        moves.append(x["move"])
        to_move = "black" if to_move == "white" else "white"
        if to_move == "white" and x.get("open", 0) <= args.max_open:
            white_nodes.append(list(moves))
    tries = proven = 0
    if args.order == "deep":
        white_nodes.reverse()
    for node_moves in white_nodes:
        if args.time and time.time() - t0 > args.time:
            break
        node = " ".join([args.position] + node_moves)
        st = status(args, node)
        kids = children(st)
        done = [k["move"] for k in kids if k["status"] == "proven"]
        for k in kids:
            if k["status"] != "unknown":
                continue
            if args.time and time.time() - t0 > args.time:
                break
            target = f"{node} {k['move']}"
            srcs = ["pass"] + sorted(done, key=lambda m: dist(m, k["move"]))[: args.sources]
            for s in srcs:
                tries += 1
                res = repair(args, target, f"{node} {s}")
                if res is None:
                    continue
                print(f"{target} <- {s}: {res['result']}, {res.get('failures', 0)} proven afresh, "
                      f"{res.get('nodes', 0)} nodes, {res.get('time_s', 0):.1f} s", flush=True)
                if res["result"] == "proven":
                    proven += 1
                    done.append(k["move"])
                    break
    print(f"repair-open: {tries} tries, {proven} white moves proven, {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
