#!/usr/bin/env bash
# test_solve_open.sh RENJU SOURCE_DIR - scripts/solve-open.sh end to end: the
# open moves of a white-to-move position solved one by one (smallest pn
# first), the proven ones counted by `opening status`; a second run skips
# what was tried, a larger budget tries the unknown ones again (--max), and
# so do --focus, --effort-shift and --quiet (each solve given the option);
# SIGTERM exits 75 and marks nothing; usage errors exit 64, a missing
# database 66, an unreadable position 65.
set -euo pipefail
bin=$(realpath "$1")
src=$(realpath "$2")
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
fail() { echo "test_solve_open: FAIL: $*" >&2; exit 1; }
so() { bash "$src/scripts/solve-open.sh" --renju "$bin" "$@"; }
cd "$tmp"
unset RENJU_JT_EARLY RENJU_JT_PROBE RENJU_JT_ROOT_RERUN RENJU_EFFORT_SHIFT RENJU_QUIET_FREE RENJU_QUIET_PN

p="h8 i9 i7 i8 g9"
"$bin" opening search "$p" --goal win --job-nodes 20000 --max-jobs 3 --db t.lmdb --quiet > /dev/null
# The open moves and their pn, from the status itself.
"$bin" opening status "$p" --goal win --db t.lmdb --json > st.json
python3 -c '
import json, sys
ch = [c for c in json.load(open("st.json"))["fourth"] if c["move"] != "pass"]
print(sum(c["status"] == "proven" for c in ch))
for c in sorted((c for c in ch if c["status"] == "unknown"), key=lambda c: c["pn"]):
    print(c["move"])' > open.txt
before=$(head -1 open.txt)
mapfile -t moves < <(tail -n +2 open.txt)
[ ${#moves[@]} -ge 2 ] || fail "expected at least 2 open moves: $(cat open.txt)"

so --db t.lmdb --nodes 3e5 --jobs 2 "$p" > run1.out || fail "first run: exit $?"
solves=$(grep -c " (pn [0-9]*): " run1.out || true)
[ "$solves" -eq ${#moves[@]} ] || fail "expected ${#moves[@]} solves: $(cat run1.out)"
for m in "${moves[@]}"; do grep -q "^$p $m (pn [0-9]*): \(proven\|unknown\|disproven\), [0-9]* work nodes" run1.out ||
  fail "no line for $m: $(cat run1.out)"; done
proven=$(grep -c "): proven, " run1.out || true)
[ "$proven" -ge 1 ] || fail "nothing proven: $(cat run1.out)"
total=$(python3 -c 'import json; print(sum(c["move"] != "pass" for c in json.load(open("st.json"))["fourth"]))')
grep -q "^$p: 4th moves proven $before/$total -> $((before + proven))/$total$" run1.out ||
  fail "summary: $(tail -1 run1.out), expected $before -> $((before + proven)) of $total"
now=$("$bin" opening status "$p" --goal win --db t.lmdb | sed -n 's/.*proven black wins \([0-9]*\).*/\1/p')
[ "$now" = $((before + proven)) ] || fail "opening status says $now proven, the run $((before + proven))"
[ "$(wc -l < solve-open.out/tried.tsv)" -eq "$solves" ] || fail "tried.tsv: $(cat solve-open.out/tried.tsv)"
[ "$(wc -l < solve-open.out/solves.jsonl)" -eq "$solves" ] || fail "solves.jsonl lines"
grep -qv $'\t300000\t' solve-open.out/tried.tsv && fail "tried.tsv budgets: $(cat solve-open.out/tried.tsv)"

# Again: everything was tried at 3e5, nothing runs; with 6e5 and --max 1 the open move of least pn runs.
so --db t.lmdb --nodes 3e5 "$p" > run2.out || fail "second run: exit $?"
grep -q " (pn " run2.out && fail "second run solved again: $(cat run2.out)"
open_now=$(python3 -c '
import json, subprocess, sys
j = json.loads(subprocess.run([sys.argv[1], "opening", "status", sys.argv[2], "--goal", "win", "--db", "t.lmdb", "--json"],
                              capture_output=True, text=True).stdout)
print(sorted((c for c in j["fourth"] if c["move"] != "pass" and c["status"] == "unknown"), key=lambda c: c["pn"])[0]["move"])' \
  "$bin" "$p")
so --db t.lmdb --nodes 6e5 --max 1 "$p" > run3.out || fail "third run: exit $?"
[ "$(grep -c " (pn " run3.out)" -eq 1 ] || fail "--max 1: $(cat run3.out)"
grep -q "^$p $open_now (pn " run3.out || fail "--max 1 did not take the least pn ($open_now): $(cat run3.out)"

# --focus: the moves tried without it are tried again (marked in tried-focus.tsv), each solve given --focus.
so --db t.lmdb --nodes 3e5 --focus 0.99 --max 1 "$p" > run4.out || fail "focus run: exit $?"
[ "$(grep -c " (pn " run4.out)" -eq 1 ] || fail "--focus: $(cat run4.out)"
[ "$(wc -l < solve-open.out/tried-focus.tsv)" -eq 1 ] || fail "tried-focus.tsv: $(cat solve-open.out/tried-focus.tsv)"
first=$(cut -f1 solve-open.out/tried-focus.tsv)
so --db t.lmdb --nodes 3e5 --focus 0.99 --max 1 "$p" > run5.out || fail "second focus run: exit $?"
grep -q "^$first (pn " run5.out && fail "--focus solved the same move again: $(cat run5.out)"

# --effort-shift: the moves tried without it are tried again (marked in tried-shift10.tsv), each solve run
# with RENJU_EFFORT_SHIFT=10 (a wrapper records what the solve got); a second run skips what the first tried.
printf '#!/bin/sh\necho "$1 shift=${RENJU_EFFORT_SHIFT:-unset} quiet=${RENJU_QUIET_FREE:-unset}/${RENJU_QUIET_PN:-unset}" >> "%s/env.log"\nexec "%s" "$@"\n' \
  "$tmp" "$bin" > wrap.sh
chmod +x wrap.sh
bash "$src/scripts/solve-open.sh" --renju ./wrap.sh --db t.lmdb --nodes 3e5 --effort-shift 10 --max 1 "$p" > run6.out ||
  fail "effort-shift run: exit $?"
[ "$(grep -c " (pn " run6.out)" -eq 1 ] || fail "--effort-shift: $(cat run6.out)"
[ "$(wc -l < solve-open.out/tried-shift10.tsv)" -eq 1 ] || fail "tried-shift10.tsv: $(cat solve-open.out/tried-shift10.tsv)"
grep -qx "solve shift=10 quiet=unset/unset" env.log || fail "the solve did not get RENJU_EFFORT_SHIFT=10: $(cat env.log)"
first=$(cut -f1 solve-open.out/tried-shift10.tsv)
so --db t.lmdb --nodes 3e5 --effort-shift 10 --max 1 "$p" > run7.out || fail "second effort-shift run: exit $?"
grep -q "^$first (pn " run7.out && fail "--effort-shift solved the same move again: $(cat run7.out)"
# --quiet F/P (with --effort-shift here): each solve with RENJU_QUIET_FREE=F RENJU_QUIET_PN=P, marked in
# tried-shift10-quiet1-64.tsv, so the move tried with the shift alone is tried again.
: > env.log
bash "$src/scripts/solve-open.sh" --renju ./wrap.sh --db t.lmdb --nodes 3e5 --effort-shift 10 --quiet 1/64 --max 1 "$p" \
  > runq.out || fail "quiet run: exit $?"
[ "$(grep -c " (pn " runq.out)" -eq 1 ] || fail "--quiet: $(cat runq.out)"
[ "$(wc -l < solve-open.out/tried-shift10-quiet1-64.tsv)" -eq 1 ] ||
  fail "tried-shift10-quiet1-64.tsv: $(cat solve-open.out/tried-shift10-quiet1-64.tsv)"
# (The least pn is the move the shift's run tried, unless that run proved it.)
if [ "$(cut -f3 solve-open.out/tried-shift10.tsv)" = unknown ]; then
  grep -q "^$first (pn " runq.out || fail "--quiet did not try again the move tried with the shift alone: $(cat runq.out)"
fi
grep -qx "solve shift=10 quiet=1/64" env.log || fail "the solve did not get RENJU_QUIET_FREE=1 RENJU_QUIET_PN=64: $(cat env.log)"
: > env.log
bash "$src/scripts/solve-open.sh" --renju ./wrap.sh --db t.lmdb --nodes 1e4 --max 1 --out plain.out "$p" > run8.out ||
  fail "run8: exit $?"
if [ "$(grep -c "^solve " env.log)" -ne 1 ] || ! grep -qx "solve shift=unset quiet=unset/unset" env.log; then
  fail "a solve without --effort-shift or --quiet: $(cat env.log)"
fi

# SIGTERM during a long solve: exit 75, the solve not marked tried.
lines=$(wc -l < solve-open.out/tried.tsv)
bash "$src/scripts/solve-open.sh" --renju "$bin" --db t.lmdb --nodes 1e12 --tt-mb 64 --max 1 "$p" > int.out 2> int.err &
pid=$!
for _ in $(seq 100); do
  pgrep -f "solve $p .*--nodes 1000000000000" > /dev/null && break
  sleep 0.1
done
sleep 1
kill -TERM $pid
set +e
wait $pid
rc=$?
set -e
[ $rc -eq 75 ] || fail "SIGTERM: exit $rc, expected 75 ($(cat int.err))"
[ "$(wc -l < solve-open.out/tried.tsv)" -eq "$lines" ] || fail "SIGTERM: the stopped solve was marked tried"
pgrep -f "solve $p .*--nodes 1000000000000" > /dev/null && fail "SIGTERM: the solve still runs"

# Usage errors: 64; no database: 66; a position whose status cannot be read: 65.
for args in "--nodes 1e5 $p" "--db t.lmdb $p" "--db t.lmdb --nodes x I7" "--db t.lmdb --nodes 1e5 --jobs 0 I7" \
  "--db t.lmdb --nodes 1e5 --max -1 I7" "--db t.lmdb --nodes 1e5 --bogus I7" "--db t.lmdb --nodes 1e5" \
  "--db t.lmdb --nodes 1e5 --focus 2 I7" "--db t.lmdb --nodes 1e5 --focus x I7" \
  "--db t.lmdb --nodes 1e5 --effort-shift 0 I7" "--db t.lmdb --nodes 1e5 --effort-shift x I7" \
  "--db t.lmdb --nodes 1e5 --effort-shift 31 I7" "--db t.lmdb --nodes 1e5 --quiet 0/64 I7" \
  "--db t.lmdb --nodes 1e5 --quiet 2/256 I7" "--db t.lmdb --nodes 1e5 --quiet 2 I7" "--db t.lmdb --nodes 1e5 --quiet 2/0 I7"; do
  set +e
  # shellcheck disable=SC2086
  so $args > /dev/null 2>&1
  rc=$?
  set -e
  [ $rc -eq 64 ] || fail "'$args': exit $rc, expected 64"
done
set +e
so --db missing.lmdb --nodes 1e5 I7 > /dev/null 2>&1
rc=$?
[ $rc -eq 66 ] || fail "missing database: exit $rc, expected 66"
so --db t.lmdb --nodes 1e5 "h8 h8" > /dev/null 2> bad.err
rc=$?
set -e
[ $rc -eq 65 ] || fail "a bad position: exit $rc, expected 65"
grep -q "cannot read its status" bad.err || fail "a bad position: $(cat bad.err)"
echo "test_solve_open: ok"
