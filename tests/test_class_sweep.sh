#!/usr/bin/env bash
# test_class_sweep.sh RENJU SOURCE_DIR - scripts/class-sweep.sh end to end:
# two white-to-move positions, each with its open moves searched on their
# own (tiny jobs); one line per position whose counts match `opening status`,
# a report per position; SIGTERM mid-sweep exits 75 and the same command
# resumes; SIGTERM while a status is read starts no search; the script
# rewritten under a running sweep does not break it; usage errors exit 64.
set -euo pipefail
bin=$(realpath "$1")
src=$(realpath "$2")
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
fail() { echo "test_class_sweep: FAIL: $*" >&2; exit 1; }
cs() { bash "$src/scripts/class-sweep.sh" --renju "$bin" "$@"; }
cd "$tmp"
# wait (up to 10 s) until the stand-in renju has been asked for a status
wait_for_status() {
  for _ in $(seq 100); do
    grep -q status calls 2> /dev/null && return 0
    sleep 0.1
  done
}
unset RENJU_JT_EARLY RENJU_JT_PROBE RENJU_JT_ROOT_RERUN

a="h8 i9 i7 i8 g9" b="h8 i9 i7 h10 j8"
for p in "$a" "$b"; do # the roots expanded first: their open moves are the classes
  "$bin" opening search "$p" --goal win --job-nodes 20000 --max-jobs 3 --db t.lmdb --quiet > /dev/null
done
cs --db t.lmdb --class-time 1000 --time-each 600 --out o "$a" "$b" -- --job-nodes 20000 --max-jobs 20 \
  --progress none > sweep.out
[ "$(wc -l < sweep.out)" -eq 2 ] || fail "expected 2 lines: $(cat sweep.out)"
for p in "$a" "$b"; do
  line=$(grep "^$p: " sweep.out) || fail "no line for $p: $(cat sweep.out)"
  [[ "$line" =~ 4th\ moves\ proven\ ([0-9]+)/([0-9]+)\ -\>\ ([0-9]+)/([0-9]+),\ ([0-9]+)\ class\ searches,.*exit\ 0$ ]] ||
    fail "line: $line"
  before=${BASH_REMATCH[1]} after=${BASH_REMATCH[3]} runs=${BASH_REMATCH[5]}
  [ "$after" -ge "$before" ] || fail "$p: fewer proven after: $line"
  [ -s "o/${p// /_}.json" ] || fail "no report for $p"
  grep -q "\"class_runs\":$runs," "o/${p// /_}.json" || fail "$p: class_runs is not $runs"
  now=$("$bin" opening status "$p" --db t.lmdb | sed -n 's/.*proven black wins \([0-9]*\).*/\1/p')
  [ "$now" = "$after" ] || fail "$p: the line says $after proven, opening status $now"
done
grep -q ", [1-9][0-9]* class searches" sweep.out || fail "no class searched: $(cat sweep.out)"

# SIGTERM during the first search: exit 75, nothing after it runs; then the sweep of I7 goes on from there.
bash "$src/scripts/class-sweep.sh" --renju "$bin" --db u.lmdb --class-time 1000 --time-each 600 --out p \
  I7 D4 -- --job-nodes 1000000 > int.out 2> int.err &
pid=$!
for _ in $(seq 100); do
  [ -s u.lmdb ] && grep -q . p/I7.err 2>/dev/null && break
  sleep 0.1
done
sleep 1
kill -TERM $pid
set +e
wait $pid
rc=$?
set -e
[ $rc -eq 75 ] || fail "SIGTERM: exit $rc, expected 75 ($(cat int.err))"
grep -q "^I7: .*exit 75$" int.out || fail "SIGTERM: $(cat int.out)"
grep -q "^D4: " int.out && fail "D4 ran after the stop"
grep -q '"interrupted":true' p/I7.json || fail "I7's report is not interrupted"
bash "$src/scripts/class-sweep.sh" --renju "$bin" --db u.lmdb --class-time 2 --time-each 20 --out p I7 -- \
  --job-nodes 20000 --progress none > res.out || fail "the resumed sweep: exit $?"
grep -Eq "^I7: 4th moves proven [0-9]+/[0-9]+ -> [0-9]+/[0-9]+, [1-9][0-9]* class searches, .*exit 0$" res.out ||
  fail "the resumed sweep: $(cat res.out)"

# SIGTERM while the opening's status is read (a slow stand-in for renju): exit 75, no search started.
cat > slow-renju <<EOF
#!/usr/bin/env bash
echo "\$1 \$2" >> "$tmp/calls"
[ "\$2" = status ] && sleep 2
exec "$bin" "\$@"
EOF
chmod +x slow-renju
bash "$src/scripts/class-sweep.sh" --renju ./slow-renju --db u.lmdb --class-time 2 --time-each 20 --out q I7 D4 \
  > st.out 2> st.err &
pid=$!
wait_for_status
kill -TERM $pid
set +e
wait $pid
rc=$?
set -e
[ $rc -eq 75 ] || fail "SIGTERM in the status query: exit $rc, expected 75 ($(cat st.err))"
grep -q search calls && fail "SIGTERM in the status query: a search ran: $(cat calls)"
[ ! -s st.out ] || fail "SIGTERM in the status query: $(cat st.out)"

# The script rewritten in place (lines added at its top) while it runs: the sweep ends as it began.
cp "$src/scripts/class-sweep.sh" cs-copy.sh
: > calls
bash cs-copy.sh --renju ./slow-renju --db t.lmdb --class-time 1000 --time-each 600 --out r "$a" -- \
  --job-nodes 20000 --max-jobs 3 --progress none > ed.out 2> ed.err &
pid=$!
wait_for_status
{ printf '# an added line, long enough to move every later byte of the file well past where it was\n%.0s' 1 2 3
  cat "$src/scripts/class-sweep.sh"; } > cs-new.sh
cat cs-new.sh > cs-copy.sh
set +e
wait $pid
rc=$?
set -e
[ $rc -eq 0 ] || fail "edited under the sweep: exit $rc ($(cat ed.err))"
grep -Eq "^$a: 4th moves proven [0-9]+/[0-9]+ -> [0-9]+/[0-9]+, [0-9]+ class searches, .*exit 0$" ed.out ||
  fail "edited under the sweep: $(cat ed.out)"
[ ! -s ed.err ] || fail "edited under the sweep: $(cat ed.err)"

set +e
cs --db t.lmdb --class-time 5 --time-each 5 > /dev/null 2>&1; [ $? -eq 64 ] || fail "no CODE: not 64"
cs --db t.lmdb --time-each 5 I7 > /dev/null 2>&1; [ $? -eq 64 ] || fail "no --class-time: not 64"
cs --db t.lmdb --class-time 5 --time-each x I7 > /dev/null 2>&1; [ $? -eq 64 ] || fail "--time-each x: not 64"
cs --db t.lmdb --class-time y --time-each 5 I7 > /dev/null 2>&1; [ $? -eq 64 ] || fail "--class-time y: not 64"
cs --db t.lmdb --class-time 5 --time-each 5 --bogus I7 > /dev/null 2>&1; [ $? -eq 64 ] || fail "--bogus: not 64"
set -e
echo "test_class_sweep: ok"
