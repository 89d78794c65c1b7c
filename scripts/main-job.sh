#!/usr/bin/env bash
# main-job.sh - set up, build, and run the main job: a real df-pn solve of an
# opening position (I7 Hogetsu line, black to move), its proof checked by the
# independent checker, stored in the default results database and queried back.
# Prints the proof's size and where it is stored.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
dir=$(bash scripts/build.sh Release)
bin="$dir/renju"
out="$dir/main-job.txt"
db="${RENJU_DB:-$PWD/renju.lmdb}"
pos="${RENJU_MAIN_POSITION:-h8 i9 i7 i8 g7 f8}"
threads=$(nproc 2>/dev/null || echo 2)
# The embedded default database: results/proven-positions.jsonl (proofs made
# by scripts/make-results.sh), loaded once into a new database and re-checked.
if [ ! -e "$db" ] && [ -s results/proven-positions.jsonl ]; then
  "$bin" db import results/proven-positions.jsonl --db "$db" --quiet
fi
{
  echo "\$ renju show \"$pos\""
  "$bin" show "$pos"
  echo
  echo "\$ renju verify \"$pos\" --attacker black --threads $threads --tt-mb 512 --time 600 --db $db"
  "$bin" verify "$pos" --attacker black --threads "$threads" --tt-mb 512 --time 600 --db "$db" --quiet
  echo
  echo "\$ renju query \"$pos\" --db $db"
  "$bin" query "$pos" --db "$db"
  echo
  echo "\$ renju db verify --db $db   # re-check every stored proof independently"
  "$bin" db verify --db "$db"
} | tee "$out"
echo "main-job: proof stored in $db; transcript in $out (binary: $bin)" >&2
