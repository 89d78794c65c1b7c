#!/usr/bin/env bash
# test_export_part.sh RENJU SOURCE_DIR - scripts/export-part.sh end to end:
# the positions proven in a working database become the next part, less
# those a committed part already has (whatever their time), the part
# re-checked from the written file; positions not proven are reported and
# left out; nothing new writes no part; --list reads a file or standard
# input; usage errors exit 64, a missing database 66, an unreadable position
# 65 with no part written.
set -euo pipefail
bin=$(realpath "$1")
src=$(realpath "$2")
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
fail() { echo "test_export_part: FAIL: $*" >&2; exit 1; }
ep() { bash "$src/scripts/export-part.sh" --renju "$bin" "$@"; }
cd "$tmp"
mkdir res
a="h8 h9 i9 e5 k9 e11" b="h8 h9 i9 g10 i11 k5" c="h8 h9 i9 e8 g10 g5" u="h8 h9 i9 j10"
for p in "$a" "$b" "$c"; do
  "$bin" solve "$p" --attacker black --nodes 2e6 --db work.lmdb --quiet > /dev/null
done
"$bin" solve "$u" --attacker black --nodes 1000 --db work.lmdb --quiet > /dev/null || true
# The committed base holds a's result from another solve (another time, the same position).
sleep 1
"$bin" solve "$a" --attacker black --nodes 2e6 --db base.lmdb --quiet > /dev/null
"$bin" db export --db base.lmdb 2> /dev/null | xz -9 > res/openings-db.jsonl.xz
pa=$(xz -dc res/openings-db.jsonl.xz | python3 -c 'import json, sys; print(json.loads(sys.stdin.readline())["position"])')
"$bin" db export --db work.lmdb 2> /dev/null | grep -F "\"position\":\"$pa\"" > a-work.jsonl || true
[ "$(wc -l < a-work.jsonl)" -eq 1 ] || fail "work.lmdb has no line for a"
xz -dc res/openings-db.jsonl.xz | cmp -s - a-work.jsonl && fail "the two solves of a gave the same line: the test needs another time"

# 1. a, b, c and u: b and c new, a committed already, u not proven.
ep --db work.lmdb --results res "$a" "$b" "$c" "$u" > run1.out || fail "first run: exit $?: $(cat run1.out)"
grep -qx "$a: proven, [0-9]* proof nodes" run1.out || fail "no line for a: $(cat run1.out)"
grep -qx "$u: not proven in work.lmdb" run1.out || fail "no line for u: $(cat run1.out)"
grep -qx "part: res/openings-db-001.jsonl.xz, 2 lines (3 positions copied, 1 not proven), verify: 2 proofs checked, 0 failures" \
  run1.out || fail "summary: $(tail -1 run1.out)"
xz -dc res/openings-db-001.jsonl.xz > p1.jsonl
[ "$(wc -l < p1.jsonl)" -eq 2 ] || fail "part 001: $(wc -l < p1.jsonl) lines"
[ "$(grep -c '"attacker":"black","result":"proven"' p1.jsonl)" -eq 2 ] || fail "part 001: not 2 proven lines: $(cut -c1-200 p1.jsonl)"
grep -qF "\"position\":\"$pa\"" p1.jsonl && fail "part 001 repeats a, which the base has"
# The part is a database part: imported alone, every proof checks.
xz -dc res/openings-db-001.jsonl.xz | "$bin" db import - --db check.lmdb --quiet > /dev/null
"$bin" db verify --db check.lmdb | grep -q "2 proofs checked, 0 failures" || fail "the part does not verify"

# 2. Again, through --list (a file with comments and blanks, then standard input): nothing new, no part 002.
printf '# the sweep\n%s\n\n  %s  # proven\n%s\n' "$a" "$b" "$c" > list.txt
ep --db work.lmdb --results res --list list.txt > run2.out || fail "second run: exit $?"
grep -qx "part: nothing new (3 positions copied, every line in a committed part; 0 not proven)" run2.out ||
  fail "second run: $(cat run2.out)"
[ ! -e res/openings-db-002.jsonl.xz ] || fail "a part 002 with nothing new"
echo "$u" | ep --db work.lmdb --results res --list - > run3.out || fail "stdin run: exit $?"
grep -qx "part: nothing new (0 positions copied, 1 not proven)" run3.out || fail "stdin run: $(cat run3.out)"

# 3. A new proof after part 001 goes to part 002.
d="h8 h9 i9 h5 j7 g6"
"$bin" solve "$d" --attacker black --nodes 2e6 --db work.lmdb --quiet > /dev/null
ep --db work.lmdb --results res "$b" "$d" > run4.out || fail "fourth run: exit $?"
grep -qx "part: res/openings-db-002.jsonl.xz, 1 lines (2 positions copied, 0 not proven), verify: 1 proofs checked, 0 failures" \
  run4.out || fail "fourth run: $(cat run4.out)"

# 4. Errors: one line, the exit codes of INTERFACE.md, no part written.
check_rc() {
  local want=$1
  shift
  local rc=0
  ep "$@" > err.out 2> err.txt || rc=$?
  [ "$rc" = "$want" ] || fail "$*: exit $rc, not $want: $(cat err.txt)"
  [ "$(wc -l < err.txt)" -ge 1 ] || fail "$*: no message"
}
check_rc 64 --results res "$b"
check_rc 64 --db work.lmdb --results res
check_rc 64 --db work.lmdb --results res --threads 0 "$b"
check_rc 64 --db work.lmdb --results res --attacker red "$b"
check_rc 64 --db work.lmdb --results nowhere "$b"
check_rc 66 --db missing.lmdb --results res "$b"
check_rc 66 --db work.lmdb --results res --list no-such-list.txt
check_rc 65 --db work.lmdb --results res "$b" "h8 zz"
grep -q "h8 zz" err.txt || fail "the bad position is not named: $(cat err.txt)"
[ ! -e res/openings-db-003.jsonl.xz ] || fail "a part written by a failing run"
echo "test_export_part: ok"
