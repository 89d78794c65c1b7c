#!/usr/bin/env bash
# solve-open.sh - one `renju solve` per open 4th move of several openings,
# the most promising first:
#
#   scripts/solve-open.sh --db DB --nodes N [--tt-mb MB] [--jobs J] [--max K]
#                         [--focus SHARE] [--effort-shift K] [--quiet F/P]
#                         [--renju BIN] [--out DIR] CODE...
#
# For each CODE (an opening such as I11, or any white-to-move position) it
# reads `renju opening status CODE --goal win --db DB --json` and takes its
# open moves (4th-move classes: one representative each; white's pass left
# out), all CODEs together, the smallest proof number of the opening-level
# search first.  Each is solved as `renju solve "CODE MOVE" --attacker black
# --threads 1 --nodes N --tt-mb MB --db DB --json` (MB: --tt-mb, default
# 1024), J at a time (--jobs, default 1), at most K of them (--max, default
# all).  A proof goes into DB with the position's result (renju solve --db),
# so the opening's 4th move counts as proven from then on; the searches of
# the opening-level search stay as they were.  Why: one search with one
# table proves many 4th moves that the opening-level search, whose jobs each
# start on an empty table, leaves open (results/solver-bench.md, sessions
# 43-44).  Each solve starts warm from DB's saved tree of its 4th move (what
# the opening-level search proved below it goes into its table first,
# `renju solve --help`): of 34 open 4th moves that one cold solve of 1e8 had
# left unknown, 13 were proven so (results/solver-bench.md, session 46).
# --focus SHARE passes `--focus SHARE` to each solve: that share of the
# budget goes first to the opening-level search's most-proving 5th move
# (`renju solve --help`); a second pass with --focus 0.99 over the moves one
# pass left unknown proved 7 of 23 (session 47).  Such solves are marked in
# DIR/tried-focus.tsv instead, so the moves tried without it are tried again.
# --effort-shift K runs each solve with RENJU_EFFORT_SHIFT=K (the effort term
# of the proof number, `renju solve`'s tuning knob: default 12, -1 off; K: -1
# or 1-30) and marks it in DIR/tried-shiftK.tsv (tried-focus-shiftK.tsv with
# --focus), so the moves the default left unknown are tried again: of the
# classes at the head of the list that earlier 1e8 passes had left unknown,
# shifts 10 and 14 proved 10 of 48 solves, the default 0 of the 10 they proved
# (results/solver-bench.md, session 52).
# --quiet F/P runs each solve with RENJU_QUIET_FREE=F RENJU_QUIET_PN=P (a
# quiet attacker candidate more than F attacker moves below the root starts at
# proof number P; defaults 2/64, F -1 off; F: -1 or 1-9, P: 1-255) and adds
# -quietF-P to the name of the tried file (tried-quiet1-64.tsv, with
# --effort-shift tried-shiftK-quietF-P.tsv): another member of the same
# portfolio; 1/64 and 3/255 together proved 5 of the 17 classes at the head of
# the list that the default and shifts 8, 10, 14 and 16 had all left unknown,
# and 7 of the next 40 (session 53).
#
# One line per solve on stdout ("I11 f5 (pn 166): proven, 27304540 work
# nodes, 27 s"), its JSON in DIR/solves.jsonl (DIR: --out, default
# solve-open.out), then one line per CODE: the 4th moves proven before and
# after.  DIR/tried.tsv lists every solve that ended (position, budget,
# result): the same command skips those tried with at least N, so it resumes
# where it stopped, and a larger N tries the unknown ones again.
#
# SIGINT / SIGTERM: the running solves stop (an unfinished solve stores
# nothing and is not marked tried), the script exits 75.  Exit codes: 0 when
# every solve ended normally, 64 on a usage error, 75 when interrupted, else
# the first failing solve's code (the others go on).
#
# The whole script is one { ... } group, read before any of it runs (an edit
# of this file under a running sweep cannot break it).
{
set -uo pipefail
usage() {
  echo "usage: scripts/solve-open.sh --db DB --nodes N [--tt-mb MB] [--jobs J] [--max K] [--focus SHARE] [--effort-shift K] [--quiet F/P] [--renju BIN] [--out DIR] CODE..." >&2
  exit 64
}
bin=${RENJU:-build/renju}
db='' nodes='' tt=1024 jobs=1 max=0 out=solve-open.out focus='' eshift='' quiet=''
codes=()
while [ $# -gt 0 ]; do
  case "$1" in
    --db) [ $# -ge 2 ] || usage; db=$2; shift 2 ;;
    --nodes) [ $# -ge 2 ] || usage; nodes=$2; shift 2 ;;
    --tt-mb) [ $# -ge 2 ] || usage; tt=$2; shift 2 ;;
    --jobs) [ $# -ge 2 ] || usage; jobs=$2; shift 2 ;;
    --max) [ $# -ge 2 ] || usage; max=$2; shift 2 ;;
    --focus) [ $# -ge 2 ] || usage; focus=$2; shift 2 ;;
    --effort-shift) [ $# -ge 2 ] || usage; eshift=$2; shift 2 ;;
    --quiet) [ $# -ge 2 ] || usage; quiet=$2; shift 2 ;;
    --renju) [ $# -ge 2 ] || usage; bin=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
    -*) echo "solve-open: unknown option $1" >&2; usage ;;
    *) codes+=("$1"); shift ;;
  esac
done
[ -n "$db" ] && [ -n "$nodes" ] && [ ${#codes[@]} -gt 0 ] || usage
budget=$(python3 -c 'import sys; v = float(sys.argv[1]); assert 1 <= v <= 1e15; print(int(v))' "$nodes" 2>/dev/null) ||
  { echo "solve-open: --nodes: expected a work-node count such as 1e8, got '$nodes'" >&2; exit 64; }
[[ "$tt" =~ ^[1-9][0-9]*$ ]] || { echo "solve-open: --tt-mb: expected MiB, got '$tt'" >&2; exit 64; }
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "solve-open: --jobs: expected a count >= 1, got '$jobs'" >&2; exit 64; }
[[ "$max" =~ ^[0-9]+$ ]] || { echo "solve-open: --max: expected a count, got '$max'" >&2; exit 64; }
[ -z "$focus" ] || python3 -c 'import sys; assert 0.01 <= float(sys.argv[1]) <= 1' "$focus" 2>/dev/null ||
  { echo "solve-open: --focus: expected a share of the budget, 0.01 to 1, got '$focus'" >&2; exit 64; }
[ -z "$eshift" ] || [[ "$eshift" =~ ^(-1|[1-9]|[12][0-9]|30)$ ]] ||
  { echo "solve-open: --effort-shift: expected -1 or 1-30, got '$eshift'" >&2; exit 64; }
[ -z "$quiet" ] || [[ "$quiet" =~ ^(-1|[1-9])/([1-9]|[1-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-5])$ ]] ||
  { echo "solve-open: --quiet: expected F/P with F -1 or 1-9 and P 1-255 (such as 1/64), got '$quiet'" >&2; exit 64; }
tried=tried focus_opt=() knob_env=()
if [ -n "$focus" ]; then
  tried="tried-focus"
  focus_opt=(--focus "$focus")
fi
if [ -n "$eshift" ]; then
  tried="$tried-shift$eshift"
  knob_env=("RENJU_EFFORT_SHIFT=$eshift")
fi
if [ -n "$quiet" ]; then
  tried="$tried-quiet${quiet%/*}-${quiet#*/}"
  knob_env+=("RENJU_QUIET_FREE=${quiet%/*}" "RENJU_QUIET_PN=${quiet#*/}")
fi
tried="$tried.tsv"
[ -x "$bin" ] || { echo "solve-open: $bin is not an executable (--renju BIN)" >&2; exit 64; }
[ -e "$db" ] || { echo "solve-open: $db: no such database" >&2; exit 66; }
mkdir -p "$out" || exit 73
touch "$out/$tried" || exit 73

stop=0
# The solves get the signal (the renju processes below this script; the shells around them then end on their own).
term_solves() {
  local c
  for c in $(pgrep -P "$1"); do
    term_solves "$c"
    [ "$(ps -o comm= -p "$c" 2> /dev/null)" = "$name" ] && kill -TERM "$c" 2> /dev/null
  done
}
name=$(basename "$bin" | cut -c1-15)
trap 'stop=1; term_solves $$' INT TERM

# CODE's open moves as "pn<TAB>CODE MOVE" lines, and its proven count as "#CODE<TAB>p/n"; exit 65 if unreadable.
open_moves() {
  "$bin" opening status "$1" --goal win --db "$db" --json 2>/dev/null | python3 -c '
import json, sys
code = sys.argv[1]
try:
    ch = json.load(sys.stdin)["fourth"]
except Exception:
    sys.exit(65)
moves = [c for c in ch if c["move"] != "pass"]
print("#%s\t%d/%d" % (code, sum(c["status"] == "proven" for c in moves), len(moves)))
for c in moves:
    if c["status"] == "unknown":
        print("%d\t%s %s" % (c["pn"], code, c["move"]))' "$1"
}

declare -A before
queue=()
rc_all=0
for code in "${codes[@]}"; do
  [ $stop -eq 0 ] || break
  lines=$(open_moves "$code") || { echo "solve-open: $code: cannot read its status in $db" >&2; rc_all=65; continue; }
  before[$code]=$(sed -n 's/^#[^\t]*\t//p' <<< "$lines")
  while IFS= read -r l; do queue+=("$l"); done < <(grep -v '^#' <<< "$lines")
done
# The smallest pn first, then the order of the codes (sort -s keeps it); those tried with >= N left out.
mapfile -t todo < <(printf '%s\n' ${queue[@]+"${queue[@]}"} | grep . | sort -s -t $'\t' -k1,1n |
  awk -F'\t' -v n="$budget" 'FILENAME == ARGV[1] { if ($2 + 0 >= n + 0) done[$1] = 1; next } !($2 in done)' \
    "$out/$tried" -)
[ "$max" -gt 0 ] && [ ${#todo[@]} -gt "$max" ] && todo=("${todo[@]:0:$max}")

# One solve: its line, its JSON, and (when it ended) its mark in tried.tsv.
solve_one() {
  local pn=${1%%$'\t'*} pos=${1#*$'\t'} t0=$SECONDS js rc res
  js=$(env ${knob_env[@]+"${knob_env[@]}"} "$bin" solve "$pos" --attacker black --threads 1 --nodes "$budget" --tt-mb "$tt" --db "$db" --json \
    --progress none ${focus_opt[@]+"${focus_opt[@]}"} 2>> "$out/solves.err")
  rc=$?
  res=$(python3 -c 'import json, sys
try:
    j = json.loads(sys.argv[1])
    print("%s %d %d" % (j["result"], j["nodes"], 1 if j.get("interrupted") else 0))
except Exception:
    print("- 0 1")' "$js")
  read -r result work intr <<< "$res"
  [ "$intr" = 0 ] && [ $rc -eq 0 ] && printf '%s\t%s\t%s\n' "$pos" "$budget" "$result" >> "$out/$tried"
  [ -n "$js" ] && printf '%s\n' "$js" >> "$out/solves.jsonl"
  echo "$pos (pn $pn): $result, $work work nodes, $((SECONDS - t0)) s$([ $rc -eq 0 ] || echo ", exit $rc")"
  return $rc
}

running=0
for item in ${todo[@]+"${todo[@]}"}; do
  [ $stop -eq 0 ] || break
  if [ $running -ge "$jobs" ]; then
    wait -n
    r=$?
    running=$((running - 1))
    [ $r -ne 0 ] && [ $r -ne 75 ] && [ $rc_all -eq 0 ] && rc_all=$r
    [ $stop -eq 0 ] || break
  fi
  solve_one "$item" &
  running=$((running + 1))
done
while [ $running -gt 0 ]; do
  wait -n
  r=$?
  [ $r -eq 127 ] && break # no child left
  running=$((running - 1))
  [ $r -ne 0 ] && [ $r -ne 75 ] && [ $rc_all -eq 0 ] && rc_all=$r
done
if [ $stop -ne 0 ]; then
  # A trap ends a wait early (and the count above with it): wait for the stopped solves themselves.
  while [ -n "$(jobs -pr)" ]; do wait; done
  echo "solve-open: interrupted: the same command resumes" >&2
  exit 75
fi
for code in "${codes[@]}"; do
  [ -n "${before[$code]:-}" ] || continue
  now=$(open_moves "$code" | sed -n 's/^#[^\t]*\t//p')
  echo "$code: 4th moves proven ${before[$code]} -> ${now:-?}"
done
exit $rc_all
}
