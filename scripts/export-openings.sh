#!/usr/bin/env bash
# export-openings.sh OUT_DB IN_DB... - gather what opening searches proved into
# the committed files:
#   1. `renju db merge OUT_DB IN_DB...`: every result (a proven/disproven
#      contradiction stops the script);
#   2. the saved trees: `renju db export --states` of each IN_DB, imported into
#      OUT_DB (where two searches saved the same node, the state further
#      along is kept: more work, then jobs, expanded, probed), so OUT_DB holds
#      every search's tree;
#   3. results/openings-db.jsonl.xz (`renju db export`, the embedded default
#      database the main job loads) and results/search-states.jsonl.xz (`renju
#      db export --states`: import both to resume the searches elsewhere);
#   4. scripts/make-openings.sh OUT_DB (results/openings.{json,md}, pictures).
# OUT_DB must not exist.  Every result was checked before it was stored;
# re-check the export in a new database with
#   xz -dc results/openings-db.jsonl.xz | renju db import - --db new.lmdb
#   renju db verify --db new.lmdb --threads 2
# The binary is $RENJU, else build/renju; RENJU_OPENING_COMMANDS is passed on
# to make-openings.sh (the commands that filled the databases).
set -euo pipefail
die() { echo "export-openings: $*" >&2; exit 1; }
[ $# -ge 2 ] || { echo "usage: scripts/export-openings.sh OUT_DB IN_DB..." >&2; exit 2; }
out=$(realpath -m "$1")
shift
ins=()
for db in "$@"; do ins+=("$(realpath -m "$db")"); done
set -- "${ins[@]}"
cd "$(dirname "$0")/.."
[ ! -e "$out" ] || die "$out exists: give a new path"
for db in "$@"; do [ -e "$db" ] || die "$db: no such database"; done
bin="${RENJU:-build/renju}"
if [ ! -x "$bin" ]; then
  [ -z "${RENJU:-}" ] || die "RENJU=$bin is not an executable"
  bin="$(bash scripts/build.sh Release)/renju"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$bin" db merge "$out" "$@" --quiet >&2
for db in "$@"; do
  "$bin" db export --states --db "$db" --quiet
done > "$tmp/states.jsonl"
"$bin" db import "$tmp/states.jsonl" --db "$out" --quiet >&2
"$bin" db export --db "$out" --quiet | xz -9 -T1 > "$tmp/openings-db.jsonl.xz"
"$bin" db export --states --db "$out" --quiet | xz -9 -T1 > "$tmp/search-states.jsonl.xz"
mv "$tmp/openings-db.jsonl.xz" "$tmp/search-states.jsonl.xz" results/
bash scripts/make-openings.sh "$out"
echo "export-openings: $(xz -dc results/openings-db.jsonl.xz | wc -l) results in results/openings-db.jsonl.xz," \
  "$(xz -dc results/search-states.jsonl.xz | wc -l) node states in results/search-states.jsonl.xz" >&2
