#!/usr/bin/env bash
# main-job.sh - set up, build, and run the main job: the opening-level search
# (job-level proof-number search over the opening tree, `renju opening search`)
# continues for about a minute on D4 Kagetsu from the embedded default
# database, then prints where the opening stands (4th-move classes proven,
# W and N_fair bounds, what this run added).  Every proof it adds was checked
# by the independent checker before it was stored; `renju db verify` re-checks
# the whole database (about 11 minutes of one core; --threads T shares it out).
#
# Environment: RENJU_DB (default ./renju.lmdb), RENJU_MAIN_OPENING (default D4),
# RENJU_MAIN_TIME (seconds of search, default 60).
# The script is one { ... } group ending in exit, read whole before it runs, so an
# edit of this file under a running job cannot change what that job runs.
{
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
dir=$(bash scripts/build.sh Release)
bin="$dir/renju"
out="$dir/main-job.txt"
db="${RENJU_DB:-$PWD/renju.lmdb}"
opening="${RENJU_MAIN_OPENING:-D4}"
secs="${RENJU_MAIN_TIME:-60}"
workers=$(nproc 2>/dev/null || echo 2)
# The embedded default database: the committed proofs (results/proven-positions.jsonl
# and the opening search's export results/openings-db*.jsonl.xz, with its saved trees
# results/search-states*.jsonl.xz: a first export and the parts later exports added,
# scripts/export-openings.sh), loaded once into a new database.  Every line is
# re-checked by `db verify` at the end.
if [ ! -e "$db" ]; then
  if [ -s results/proven-positions.jsonl ]; then
    "$bin" db import results/proven-positions.jsonl --db "$db" --quiet
  fi
  shopt -s nullglob
  parts=(results/openings-db[.]jsonl.xz results/openings-db-[0-9][0-9][0-9].jsonl.xz)
  if [ ${#parts[@]} -gt 0 ]; then
    xz -dc "${parts[@]}" | "$bin" db import - --db "$db" --quiet
  fi
  # the opening searches' saved trees, so they resume where the committed runs stopped
  parts=(results/search-states[.]jsonl.xz results/search-states-[0-9][0-9][0-9].jsonl.xz)
  if [ ${#parts[@]} -gt 0 ]; then
    xz -dc "${parts[@]}" | "$bin" db import - --db "$db" --quiet
  fi
  shopt -u nullglob
fi
{
  echo "\$ renju opening status $opening --db $db   # before"
  "$bin" opening status "$opening" --db "$db" | grep -v '^  '
  echo
  echo "\$ renju opening search $opening --goal fair-n --job-nodes 2000000 --job-scale 4 --time $secs --workers $workers --db $db"
  rc=0
  "$bin" opening search "$opening" --goal fair-n --job-nodes 2000000 --job-scale 4 --time "$secs" \
    --workers "$workers" --db "$db" || rc=$?
  [ "$rc" = 0 ] || [ "$rc" = 75 ] || exit "$rc"
} | tee "$out"
echo "main-job: results and search state in $db; transcript in $out (binary: $bin)" >&2
echo "main-job: re-check every stored proof independently with: $bin db verify --threads $workers --db $db" >&2
exit
}
