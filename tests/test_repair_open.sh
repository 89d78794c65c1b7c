#!/usr/bin/env bash
# test_repair_open.sh RENJU SOURCE_DIR - scripts/repair-open.py end to end: a
# goal-win tree of tiny jobs leaves white moves open; the script mends
# proven proofs for them, every move it reports proven is stored as proven
# (renju query) and counts in the tree (renju opening status); its usage
# errors exit 64, a missing database 66.
set -euo pipefail
bin=$(realpath "$1")
src=$(realpath "$2")
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
fail() { echo "test_repair_open: FAIL: $*" >&2; exit 1; }
ro() { python3 "$src/scripts/repair-open.py" "$@"; }
cd "$tmp"

pos="h8 i9 i7 i8 g7 f8 h7"
"$bin" opening search "$pos" --goal win --job-nodes 100 --max-jobs 40 --db t.lmdb --quiet > search.out
grep -q "white move classes: 218, proven black wins 215" search.out || fail "the tree: $(head -2 search.out)"

ro "$pos" --db t.lmdb --renju "$bin" --nodes 20000 --sources 2 --max-open 300 --tt-mb 16 > ro.out
grep -Eq '^repair-open: [0-9]+ tries, [0-9]+ white moves proven, [0-9]+ s$' ro.out || fail "summary: $(tail -1 ro.out)"
n=$(grep -c ': proven, ' ro.out || true)
[ "$n" -ge 2 ] || fail "expected two white moves proven, got $n: $(cat ro.out)"
grep -q "white moves proven" ro.out
grep ': proven, ' ro.out | sed 's/ <- .*//' | while read -r target; do
  "$bin" query "$target" --db t.lmdb | grep -q "proven for black" || fail "$target is not stored as proven"
done
"$bin" opening status "$pos" --db t.lmdb > status.out
proven=$(sed -n 's/.*proven black wins \([0-9]*\).*/\1/p' status.out)
[ "$proven" -ge $((215 + n)) ] || fail "the tree counts $proven proven white moves, expected $((215 + n))"

set +e
ro "$pos" --renju "$bin" > /dev/null 2>&1; [ $? -eq 64 ] || fail "no --db: not 64"
ro "$pos" --db t.lmdb --nodes 0 --renju "$bin" > /dev/null 2>&1; [ $? -eq 64 ] || fail "--nodes 0: not 64"
ro "$pos" --db missing.lmdb --renju "$bin" > /dev/null 2>&1; [ $? -eq 66 ] || fail "missing db: not 66"
echo "test_repair_open: ok ($n white moves proven)"
