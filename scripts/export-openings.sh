#!/usr/bin/env bash
# export-openings.sh OUT_DB IN_DB... - gather what opening searches proved into
# the committed files:
#   1. `renju db merge OUT_DB IN_DB...`: every result (a proven/disproven
#      contradiction stops the script);
#   2. the saved trees: `renju db export --states` of each IN_DB, imported into
#      OUT_DB (where two searches saved the same node, the state further
#      along is kept: more work, then jobs, expanded, probed), so OUT_DB holds
#      every search's tree;
#   3. the embedded default database the main job loads: the results
#      (`renju db export`) in results/openings-db*.jsonl.xz and the trees
#      (`renju db export --states`) in results/search-states*.jsonl.xz.  The
#      first export of each kind is openings-db.jsonl.xz (search-states.jsonl.xz);
#      each later one adds only the lines that no committed part has, as the
#      next part openings-db-001.jsonl.xz, -002, ... (no part when nothing is
#      new), so the repository grows by what a session proved, not by a new
#      copy of everything.  Import every part, in any order, to get OUT_DB's
#      results and trees: a result or state line that a later export changed
#      (unknown to proven, a tree node with more work) is in both parts, and
#      import keeps the one further along;
#   4. scripts/make-openings.sh OUT_DB (results/openings.{json,md}, pictures).
# OUT_DB must not exist.  Every result was checked before it was stored;
# re-check the export in a new database with
#   xz -dc results/openings-db*.jsonl.xz | renju db import - --db new.lmdb
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
rm -f "$tmp/states.jsonl"

# part NAME FILE: the lines of FILE that no results/NAME*.jsonl.xz has, as its next part.
part() {
  local name=$1 file=$2 parts=() n next
  shopt -s nullglob
  parts=(results/"$name"[.]jsonl.xz results/"$name"-[0-9][0-9][0-9].jsonl.xz)
  shopt -u nullglob
  if [ ${#parts[@]} -eq 0 ]; then
    xz -9 -T1 < "$file" > "$tmp/part.xz"
    mv "$tmp/part.xz" results/"$name".jsonl.xz
    echo "export-openings: results/$name.jsonl.xz: $(wc -l < "$file") lines" >&2
    return
  fi
  xz -dc "${parts[@]}" | LC_ALL=C sort -u -S 25% -T "$tmp" > "$tmp/old"
  LC_ALL=C sort -u -S 25% -T "$tmp" "$file" | LC_ALL=C comm -13 "$tmp/old" - > "$tmp/new"
  rm -f "$tmp/old"
  if [ ! -s "$tmp/new" ]; then
    echo "export-openings: results/$name*.jsonl.xz: nothing new" >&2
    return
  fi
  n=${#parts[@]}
  [ -e results/"$name".jsonl.xz ] || n=$((n + 1))
  next=$(printf '%s-%03d.jsonl.xz' "$name" "$n")
  [ ! -e results/"$next" ] || die "results/$next exists but results/$name-*.jsonl.xz are not numbered 001 up"
  xz -9 -T1 < "$tmp/new" > "$tmp/part.xz"
  mv "$tmp/part.xz" results/"$next"
  echo "export-openings: results/$next: $(wc -l < "$tmp/new") new or changed lines" \
    "(of $(wc -l < "$file") in the export)" >&2
}

"$bin" db export --db "$out" --quiet > "$tmp/results.jsonl"
part openings-db "$tmp/results.jsonl"
rm -f "$tmp/results.jsonl"
"$bin" db export --states --db "$out" --quiet > "$tmp/states.jsonl"
part search-states "$tmp/states.jsonl"
rm -f "$tmp/states.jsonl"
bash scripts/make-openings.sh "$out"
