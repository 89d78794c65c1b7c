#!/usr/bin/env bash
# bench-ladder.sh - the opening ladder of issue 15 (results/opening-ladder.txt):
# every position solved with `renju solve ... --threads 1 --nodes N --tt-mb M
# --json` (1 thread and a fixed table cap: the search is deterministic, so the
# node counts are the figures to compare; the seconds are only indicative on a
# shared machine).  Prints a Markdown table: per position its stones, result,
# work nodes (what --nodes bounds), df-pn nodes, proof size (nodes of the
# extracted proof; with --verify also checked by the independent checker) and
# seconds; then the totals: proven count, median work to proof over the
# proven ones, total work.
#
# usage: scripts/bench-ladder.sh [--renju BIN] [--nodes N] [--tt-mb M]
#          [--filter REGEX] [--list FILE] [--out FILE] [--verify]
#          [--unknown-in OLD.md] [--compare OLD.md] [--nice K]
#          [--tree JOB_NODES [--job-scale K]]
#
#   --renju BIN        the binary to measure (default build/renju)
#   --nodes N          work-node budget per position (default 1e7; 1e7 and
#                      10000000 are both accepted)
#   --tt-mb M          transposition table cap in MiB (default 512)
#   --filter REGEX     only positions whose name matches (grep -E)
#   --list FILE        the position list (default results/opening-ladder.txt)
#   --out FILE         write the table there (default stdout)
#   --verify           run `renju verify` instead of `solve` (same search, the
#                      proof is then checked; the table says so)
#   --unknown-in OLD   skip positions that OLD.md (a table of this script)
#                      reports proven: the next budget step of a baseline
#   --compare OLD      after the table, compare it with OLD.md
#                      (scripts/ladder-compare.py OLD.md NEW.md does the same
#                      for two tables made earlier)
#   --nice K           niceness of the solves (default 10; 0: none)
#   --tree JOB_NODES   run the opening-level search instead of one df-pn
#                      solve: `renju opening search POSITION --goal win
#                      --workers 1 --threads 1 --nodes N --job-nodes JOB_NODES
#                      --job-scale K` on a new database per position (black
#                      attacking only), then `renju db verify` of everything
#                      it stored (the table says "checked" when all passed);
#                      work nodes are the jobs' total, df-pn nodes are not
#                      counted (0), proof nodes are the root's composed proof
#   --job-scale K      with --tree (default 4)
#   --raw FILE         also append the raw result lines (name, stones, moves,
#                      exit code, solve JSON) to FILE; `scripts/ladder-compare.py
#                      --table FILE` formats them again (runs done in parts)
#
# Positions run one after another on one thread.  Progress goes to stderr.
# The script is one { ... } group ending in exit, read whole before it runs, so an
# edit of this file under a running job cannot change what that job runs.
{
set -euo pipefail
cd "$(dirname "$0")/.."

bin=build/renju
nodes=1e7
ttmb=512
filter=
list=results/opening-ladder.txt
out=
cmd=solve
unknown_in=
compare=
nicek=10
keep=
tree=
jscale=4
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit "$1"; }
while [ $# -gt 0 ]; do
    case "$1" in
    --renju) bin="$2"; shift 2 ;;
    --nodes) nodes="$2"; shift 2 ;;
    --tt-mb) ttmb="$2"; shift 2 ;;
    --filter) filter="$2"; shift 2 ;;
    --list) list="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --verify) cmd=verify; shift ;;
    --unknown-in) unknown_in="$2"; shift 2 ;;
    --compare) compare="$2"; shift 2 ;;
    --nice) nicek="$2"; shift 2 ;;
    --raw) keep="$2"; shift 2 ;;
    --tree) tree="$2"; shift 2 ;;
    --job-scale) jscale="$2"; shift 2 ;;
    -h | --help) usage 0 ;;
    *) echo "bench-ladder.sh: unknown option '$1'" >&2; usage 64 ;;
    esac
done
[ -x "$bin" ] || { echo "bench-ladder.sh: no executable $bin (build first)" >&2; exit 66; }
[ -r "$list" ] || { echo "bench-ladder.sh: cannot read $list" >&2; exit 66; }
for f in "$unknown_in" "$compare"; do
    [ -z "$f" ] || [ -r "$f" ] || { echo "bench-ladder.sh: cannot read $f" >&2; exit 66; }
done
n=$(python3 -c 'import sys; v = float(sys.argv[1]); assert v >= 1 and v == int(v); print(int(v))' "$nodes" 2>/dev/null) ||
    { echo "bench-ladder.sh: bad --nodes '$nodes'" >&2; exit 64; }

raw=$(mktemp)
trap 'rm -f "$raw"' EXIT
skip=
[ -z "$unknown_in" ] || skip=$(python3 scripts/ladder-compare.py --proven-names "$unknown_in")

# name <TAB> moves <TAB> attacker <TAB> stones <TAB> status <TAB> note
grep -v '^#' "$list" | grep -v '^[[:space:]]*$' | while IFS=$'\t' read -r name moves att stones _rest; do
    if [ -n "$filter" ] && ! grep -Eq -- "$filter" <<<"$name"; then continue; fi
    if [ -n "$skip" ] && grep -Fxq -- "$name" <<<"$skip"; then continue; fi
    echo "bench-ladder: $name ($moves)" >&2
    pre=()
    [ "$nicek" = 0 ] || pre=(nice -n "$nicek")
    rc=0
    if [ -n "$tree" ]; then
        [ "$att" = black ] || { echo "bench-ladder: $name: --tree needs black attacking; skipped" >&2; continue; }
        tdb=$(mktemp -d)/t.lmdb
        tj=$("${pre[@]}" "$bin" opening search "$moves" --goal win --workers 1 --threads 1 --nodes "$n" \
            --job-nodes "$tree" --job-scale "$jscale" --db "$tdb" --json --quiet 2>/dev/null | tail -1) || rc=$?
        q=$("$bin" query "$moves" --attacker black --db "$tdb" --json 2>/dev/null | tail -1) || true
        vrc=0
        "${pre[@]}" "$bin" db verify --db "$tdb" --quiet >/dev/null 2>&1 || vrc=$?
        json=$(python3 -c '
import json, sys
t = json.loads(sys.argv[1] or "{}")
try:
    q = json.loads(sys.argv[2])
except ValueError:
    q = {}
d = {"result": t.get("result", "unknown"), "nodes": t.get("nodes", 0), "dfpn_nodes": 0,
     "time_s": t.get("time_s", 0.0), "jobs": t.get("jobs", 0)}
if d["result"] == "proven":
    d["proof_nodes"] = q.get("proof_nodes", 0)
    d["verified"] = sys.argv[3] == "0"
print(json.dumps(d, separators=(",", ":")))' "$tj" "$q" "$vrc")
        rm -rf "$(dirname "$tdb")"
    else
        json=$("${pre[@]}" "$bin" "$cmd" "$moves" --attacker "$att" --threads 1 --nodes "$n" --tt-mb "$ttmb" \
            --json --quiet 2>/dev/null | tail -1) || rc=$?
    fi
    [ -n "$json" ] || json='{}'
    printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$stones" "$moves" "$rc" "$json" >>"$raw"
    [ -z "$keep" ] || printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$stones" "$moves" "$rc" "$json" >>"$keep"
done

version=$("$bin" --version 2>/dev/null || echo '?')
args="--nodes $nodes --tt-mb $ttmb"
[ "$bin" = build/renju ] || args="--renju $bin $args"
[ "$list" = results/opening-ladder.txt ] || args="$args --list $list"
[ -z "$filter" ] || args="$args --filter '$filter'"
[ -z "$unknown_in" ] || args="$args --unknown-in $unknown_in"
[ "$cmd" = solve ] || args="$args --verify"
solve="renju $cmd POSITION --attacker A --threads 1 --nodes $n --tt-mb $ttmb --json"
if [ -n "$tree" ]; then
    args="$args --tree $tree --job-scale $jscale"
    solve="renju opening search POSITION --goal win --workers 1 --threads 1 --nodes $n --job-nodes $tree --job-scale $jscale --db NEW --json, then renju db verify --db NEW"
fi
table() {
    python3 scripts/ladder-compare.py --table "$raw" --command "scripts/bench-ladder.sh $args" \
        --binary "$bin ($version)" --solve "$solve"
    if [ -n "$compare" ]; then
        echo
        python3 scripts/ladder-compare.py "$compare" <(python3 scripts/ladder-compare.py --table "$raw")
    fi
}
if [ -n "$out" ]; then table >"$out"; else table; fi
exit
}
