#!/usr/bin/env bash
# export-part.sh - the next committed part of the embedded database from a
# working database, for a list of positions proven in it:
#
#   scripts/export-part.sh --db WORK_DB [--attacker S] [--list FILE]
#                          [--results DIR] [--renju BIN] [--threads T] [POSITION...]
#
# The positions (arguments, and the lines of --list FILE, '-' for standard
# input; '#' comments and blank lines skipped) are those a sweep proved in
# WORK_DB (scripts/solve-open.sh, or one `renju solve --db WORK_DB` each),
# such as "D6 j10".  A position stored as proven in WORK_DB (`renju query
# POSITION --attacker S`; S: --attacker, default black) is copied with its
# proof into a new scratch database by `renju solve POSITION --attacker S
# --db SCRATCH --warm-db WORK_DB --nodes 1` (the stored proof is read, checked
# and stored again); any other is reported and left out.  The scratch
# database's `renju db export`, less the positions whose result a committed
# part already has (scripts/new-lines.py --by-result against
# DIR/openings-db.jsonl.xz and DIR/openings-db-NNN.jsonl.xz; DIR: --results,
# default results; reading the committed parts takes a few minutes), is written
# as the next part, DIR/openings-db-NNN.jsonl.xz (one more than the highest
# NNN; xz -9).  Nothing new: no part.  Then the part is imported alone into
# another scratch database and `renju db verify --threads T` re-checks every
# proof in it (T: --threads, default 2); on any failure the part is deleted.
#
# Why not scripts/export-openings.sh: that one merges whole opening-search
# databases and re-exports everything they hold; a working database loaded
# with every committed part (about 12 million entries, 16 GB) is far too big
# to pass through it for the few dozen proofs a session's sweep adds.
#
# Stdout: one line per position ("D6 j10: proven, 117386 proof nodes" or
# "D6 j10: not proven in WORK_DB"), then "part: FILE, L lines (P positions
# copied, U not proven), verify: C proofs checked, 0 failures" or "part:
# nothing new (...)".  Exit codes: 0 done (also when some positions were not
# proven), 64 usage, 66 WORK_DB or the list missing, 65 a position that does
# not read or a verify failure, else the failing command's.
#
# The whole script is one { ... } group, read before any of it runs.
{
set -uo pipefail
usage() {
  echo "usage: scripts/export-part.sh --db WORK_DB [--attacker S] [--list FILE] [--results DIR] [--renju BIN] [--threads T] [POSITION...]" >&2
  exit 64
}
die() { echo "export-part: $2" >&2; exit "$1"; }
src=$(cd "$(dirname "$0")/.." && pwd)
bin=${RENJU:-$src/build/renju}
db='' att=black list='' results=results threads=2
positions=()
while [ $# -gt 0 ]; do
  case "$1" in
    --db) [ $# -ge 2 ] || usage; db=$2; shift 2 ;;
    --attacker) [ $# -ge 2 ] || usage; att=$2; shift 2 ;;
    --list) [ $# -ge 2 ] || usage; list=$2; shift 2 ;;
    --results) [ $# -ge 2 ] || usage; results=$2; shift 2 ;;
    --renju) [ $# -ge 2 ] || usage; bin=$2; shift 2 ;;
    --threads) [ $# -ge 2 ] || usage; threads=$2; shift 2 ;;
    -*) echo "export-part: unknown option $1" >&2; usage ;;
    *) positions+=("$1"); shift ;;
  esac
done
[ -n "$db" ] || usage
[ -x "$bin" ] || die 64 "$bin is not an executable (--renju BIN)"
[[ "$att" =~ ^(black|white)$ ]] || die 64 "--attacker: expected black or white, got '$att'"
[[ "$threads" =~ ^[1-9][0-9]*$ ]] || die 64 "--threads: expected a count >= 1, got '$threads'"
[ -d "$results" ] || die 64 "--results: $results is not a directory"
[ -e "$db" ] || die 66 "$db: no such database"
if [ -n "$list" ]; then
  [ "$list" = - ] || [ -r "$list" ] || die 66 "--list: cannot read $list"
  while IFS= read -r line || [ -n "$line" ]; do
    line=${line%%#*}
    line=$(echo "$line" | tr -s ' \t' ' ' | sed 's/^ //; s/ $//')
    [ -z "$line" ] || positions+=("$line")
  done < <(if [ "$list" = - ]; then cat; else cat "$list"; fi)
fi
[ ${#positions[@]} -gt 0 ] || die 64 "no positions (arguments or --list FILE)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/export-part.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
copied=0 missing=0
for pos in "${positions[@]}"; do
  "$bin" query "$pos" --attacker "$att" --db "$db" --json > "$tmp/query.json" 2> "$tmp/query.err"
  rc=$?
  [ $rc -eq 0 ] || die $rc "$pos: $(tail -1 "$tmp/query.err")"
  if [ "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["result"])' "$tmp/query.json")" != proven ]; then
    missing=$((missing + 1))
    echo "$pos: not proven in $db"
    continue
  fi
  "$bin" solve "$pos" --attacker "$att" --threads 1 --nodes 1 --tt-mb 16 --db "$tmp/copy.lmdb" --warm-db "$db" \
    --json --quiet > "$tmp/solve.json" 2> "$tmp/solve.err"
  rc=$?
  [ $rc -eq 0 ] || die $rc "$pos: $(tail -1 "$tmp/solve.err")"
  read -r result size < <(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d.get("result"), d.get("proof_nodes", 0))' "$tmp/solve.json")
  [ "$result" = proven ] || die 70 "$pos: stored as proven in $db, but its copy is $result"
  copied=$((copied + 1))
  echo "$pos: proven, $size proof nodes"
done
if [ $copied -eq 0 ]; then
  echo "part: nothing new (0 positions copied, $missing not proven)"
  exit 0
fi
"$bin" db export --db "$tmp/copy.lmdb" > "$tmp/copy.jsonl" 2> "$tmp/export.err" ||
  die 74 "db export: $(tail -1 "$tmp/export.err")"
old=()
for f in "$results"/openings-db.jsonl.xz "$results"/openings-db-[0-9][0-9][0-9].jsonl.xz; do
  [ -e "$f" ] && old+=("$f")
done
read -r _ new < <(python3 "$src/scripts/new-lines.py" --by-result "$tmp/new.jsonl" "${old[@]}" < "$tmp/copy.jsonl") ||
  die 74 "new-lines.py failed"
if [ "$new" -eq 0 ]; then
  echo "part: nothing new ($copied positions copied, every line in a committed part; $missing not proven)"
  exit 0
fi
last=$(for f in "${old[@]}"; do basename "$f"; done | sed -n 's/^openings-db-\([0-9][0-9][0-9]\)\.jsonl\.xz$/\1/p' | sort | tail -1)
next=$(printf '%03d' $((10#${last:-000} + 1)))
part="$results/openings-db-$next.jsonl.xz"
[ ! -e "$part" ] || die 74 "$part exists"
xz -9 -c "$tmp/new.jsonl" > "$tmp/part.xz" && mv "$tmp/part.xz" "$part" || die 74 "cannot write $part"
# The committed file alone: imported into an empty database and every proof re-checked.
xz -dc "$part" | "$bin" db import - --db "$tmp/check.lmdb" --quiet > /dev/null 2> "$tmp/import.err" ||
  { rm -f "$part"; die 65 "$part does not import: $(tail -1 "$tmp/import.err")"; }
"$bin" db verify --db "$tmp/check.lmdb" --threads "$threads" --json --quiet > "$tmp/verify.json" 2> "$tmp/verify.err"
rc=$?
read -r checked failures < <(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["checked"], d["failures"])' "$tmp/verify.json" 2> /dev/null) || checked=0 failures=unknown
if [ $rc -ne 0 ] || [ "$failures" != 0 ]; then
  rm -f "$part"
  die 65 "$part: db verify: $failures failures (exit $rc); the part was deleted"
fi
echo "part: $part, $new lines ($copied positions copied, $missing not proven), verify: $checked proofs checked, 0 failures"
exit 0
}
