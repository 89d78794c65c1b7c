#!/usr/bin/env bash
# class-sweep.sh - each open 4th move of several openings searched on its own,
# one opening after another:
#
#   scripts/class-sweep.sh --db DB --class-time S --time-each T [--renju BIN]
#                          [--out DIR] CODE... [-- RENJU_OPTIONS...]
#
# For each CODE (an opening such as D11, or any white-to-move position) it
# runs `renju opening search CODE --goal win --class-time S --time T --db DB
# --json RENJU_OPTIONS...` (docs/man/opening.txt: every open white move
# searched as its own goal-win search for S seconds, the least searched so
# far first, then twice that while T lasts), writes its report to DIR/CODE.json
# and its stderr to DIR/CODE.err (DIR: --out, default class-sweep.out), and
# prints one line per opening: the classes proven before and after, the
# class searches run and the exit code.  Openings with many moves far from
# the stones gain most (results/solver-bench.md, sessions 35-36).
#
# SIGINT / SIGTERM: the running search stores what it proved and its tree,
# the script stops there and exits 75; the same command resumes (each
# class's saved tree is picked up again).  Exit codes: 0 when every search
# ended normally, 64 on a usage error, 75 when interrupted (whatever an
# earlier search exited with), else the first failing search's code (the
# sweep goes on to the next opening).
#
# The whole script is one { ... } group, read before any of it runs: a sweep
# runs for hours, and bash reads a script as it goes, so an edit that
# rewrote this file in place under a running sweep broke its end ("syntax
# error near unexpected token").
{
set -uo pipefail
usage() {
  echo "usage: scripts/class-sweep.sh --db DB --class-time S --time-each T [--renju BIN] [--out DIR] CODE... [-- RENJU_OPTIONS...]" >&2
  exit 64
}
bin=${RENJU:-build/renju}
db= ct= te= out=class-sweep.out
codes=()
while [ $# -gt 0 ]; do
  case "$1" in
    --db) [ $# -ge 2 ] || usage; db=$2; shift 2 ;;
    --class-time) [ $# -ge 2 ] || usage; ct=$2; shift 2 ;;
    --time-each) [ $# -ge 2 ] || usage; te=$2; shift 2 ;;
    --renju) [ $# -ge 2 ] || usage; bin=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
    --) shift; break ;;
    -*) echo "class-sweep: unknown option $1" >&2; usage ;;
    *) codes+=("$1"); shift ;;
  esac
done
extra=("$@")
[ -n "$db" ] && [ -n "$ct" ] && [ -n "$te" ] && [ ${#codes[@]} -gt 0 ] || usage
[[ "$te" =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "class-sweep: --time-each: expected seconds, got '$te'" >&2; exit 64; }
[[ "$ct" =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "class-sweep: --class-time: expected seconds, got '$ct'" >&2; exit 64; }
[ -x "$bin" ] || { echo "class-sweep: $bin is not an executable (--renju BIN)" >&2; exit 64; }
mkdir -p "$out" || exit 73

# The proven 4th-move classes of CODE in DB ("?" when it cannot be read).
proven() {
  "$bin" opening status "$1" --goal win --db "$db" --json 2>/dev/null | python3 -c '
import json, sys
try:
    j = json.load(sys.stdin)
    ch = j.get("fourth", j.get("children", []))
    print("%d/%d" % (sum(1 for c in ch if c["status"] == "proven" and c["move"] != "pass"),
                     sum(1 for c in ch if c["move"] != "pass")))
except Exception:
    print("?")'
}

stop=0
pid=
trap 'stop=1; [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null' INT TERM
rc_all=0
for code in "${codes[@]}"; do
  [ $stop -eq 0 ] || break
  name=${code// /_}
  before=$(proven "$code")
  [ $stop -eq 0 ] || break # a signal during the status query: no search started
  t0=$(date +%s)
  "$bin" opening search "$code" --goal win --class-time "$ct" --time "$te" --db "$db" --json ${extra[@]+"${extra[@]}"} \
    > "$out/$name.json" 2> "$out/$name.err" &
  pid=$!
  wait "$pid"
  rc=$?
  while kill -0 "$pid" 2>/dev/null; do # a trap ended the wait: wait for the search itself
    wait "$pid"
    rc=$?
  done
  pid=
  runs=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["class_runs"])' "$out/$name.json" 2>/dev/null || echo "?")
  echo "$code: 4th moves proven $before -> $(proven "$code"), $runs class searches, $(( $(date +%s) - t0 )) s, exit $rc"
  if [ $rc -eq 75 ]; then
    stop=1
  elif [ $rc -ne 0 ] && [ $rc_all -eq 0 ]; then
    echo "class-sweep: $code: renju exited $rc (see $out/$name.err)" >&2
    rc_all=$rc
  fi
done
if [ $stop -ne 0 ]; then
  echo "class-sweep: interrupted: the same command resumes" >&2
  exit 75
fi
exit $rc_all
}
