#!/usr/bin/env bash
# export-openings.sh OUT_DB IN_DB... - gather what opening searches proved into
# the committed files:
#   1. `renju db merge OUT_DB IN_DB...`: every result (a proven/disproven
#      contradiction stops the script);
#   2. the saved trees: `renju db export --states` of each IN_DB, imported into
#      OUT_DB (where two searches saved the same node, the state further
#      along is kept: expanded, then more work, jobs, probed, the root
#      repair's level), so OUT_DB holds
#      every search's tree;
#   3. the embedded default database the main job loads: the results
#      (`renju db export`) in results/openings-db*.jsonl.xz and the trees
#      (`renju db export --states`) in results/search-states*.jsonl.xz.  The
#      first export of each kind is openings-db.jsonl.xz (search-states.jsonl.xz);
#      each later one adds only the lines that no committed part has, as the
#      next part openings-db-001.jsonl.xz, -002, ... (no part when nothing is
#      new), so the repository grows by what a session proved, not by a new
#      copy of everything.  OUT_DB is first loaded with every committed part,
#      so a new line is one that beats the committed one (unknown to proven,
#      a smaller proof, a tree node further along) and a contradiction with a
#      committed result stops the script: import every part, in any order, to
#      get OUT_DB's results and trees.  With --rebase (after `renju opening
#      search --fresh-tree`, whose new tree the committed one would
#      outweigh) OUT_DB is not loaded with the committed parts, and the
#      export replaces them: new openings-db.jsonl.xz and
#      search-states.jsonl.xz, the numbered parts deleted (git rm them);
#   4. scripts/make-openings.sh OUT_DB (results/openings.{json,md}, pictures).
# OUT_DB must not exist.  Every result was checked before it was stored;
# re-check the export in a new database with
#   xz -dc results/openings-db*.jsonl.xz | renju db import - --db new.lmdb
#   renju db verify --db new.lmdb --threads 2
# The binary is $RENJU, else build/renju; RENJU_OPENING_COMMANDS is passed on
# to make-openings.sh (the commands that filled the databases).
# The script is one { ... } group ending in exit, read whole before it runs, so an
# edit of this file under a running job cannot change what that job runs.
{
set -euo pipefail
die() { echo "export-openings: $*" >&2; exit 1; }
rebase=0
if [ "${1:-}" = --rebase ]; then rebase=1; shift; fi
[ $# -ge 2 ] || { echo "usage: scripts/export-openings.sh [--rebase] OUT_DB IN_DB..." >&2; exit 2; }
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
# scratch space beside OUT_DB (the new lines of a part; all of the export only for the first
# part and with --rebase), parts written in results/ first as hidden files
tmp=$(mktemp -d "$(dirname "$out")/export-openings.XXXXXX")
trap 'rm -rf "$tmp" results/.part-*.tmp' EXIT

# the committed parts (their patterns, as main-job.sh loads them)
committed() {
  shopt -s nullglob
  local f=(results/"$1"[.]jsonl.xz results/"$1"-[0-9][0-9][0-9].jsonl.xz)
  shopt -u nullglob
  [ ${#f[@]} -eq 0 ] || printf '%s\n' "${f[@]}"
}
if [ $rebase = 0 ]; then
  mapfile -t seed < <(committed openings-db; committed search-states)
  if [ ${#seed[@]} -gt 0 ]; then
    xz -dc "${seed[@]}" | "$bin" db import - --db "$out" --quiet >&2 \
      || die "the committed parts do not import cleanly into $out"
  fi
fi
"$bin" db merge "$out" "$@" --quiet >&2
for db in "$@"; do
  "$bin" db export --states --db "$db" --quiet
done | "$bin" db import - --db "$out" --quiet >&2

# place FILE NAME: FILE compressed as results/NAME (written beside it, then renamed).
place() {
  xz -9 -T1 < "$1" > results/.part-"$2".tmp
  mv results/.part-"$2".tmp results/"$2"
}

# part NAME EXPORT...: the lines the command EXPORT... writes that no committed part of NAME
# has, as its next part (all of them as NAME.jsonl.xz the first time and with --rebase).  The
# export streams through new-lines.py, so only the new lines are ever on disk.
part() {
  local name=$1 parts=() old=() last n next counts total new
  shift
  mapfile -t parts < <(committed "$name")
  [ $rebase = 1 ] || old=("${parts[@]}")
  counts=$("$@" | python3 scripts/new-lines.py "$tmp/new" "${old[@]}")
  read -r total new <<< "$counts"
  if [ ${#old[@]} -eq 0 ]; then
    place "$tmp/new" "$name".jsonl.xz
    for f in "${parts[@]}"; do
      [ "$f" = results/"$name".jsonl.xz ] || rm -f "$f"
    done
    rm -f "$tmp/new"
    echo "export-openings: results/$name.jsonl.xz: $new lines" >&2
    return
  fi
  if [ "$new" = 0 ]; then
    rm -f "$tmp/new"
    echo "export-openings: results/$name*.jsonl.xz: nothing new" >&2
    return
  fi
  last=${parts[${#parts[@]} - 1]}
  n=0
  [[ $last =~ -([0-9]{3})\.jsonl\.xz$ ]] && n=$((10#${BASH_REMATCH[1]}))
  next=$(printf '%s-%03d.jsonl.xz' "$name" $((n + 1)))
  place "$tmp/new" "$next"
  rm -f "$tmp/new"
  echo "export-openings: results/$next: $new new or changed lines (of $total in the export)" >&2
}

part openings-db "$bin" db export --db "$out" --quiet
part search-states "$bin" db export --states --db "$out" --quiet
bash scripts/make-openings.sh "$out"
exit
}
