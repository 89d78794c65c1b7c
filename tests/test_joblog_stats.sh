#!/usr/bin/env bash
# test_joblog_stats.sh RENJU SOURCE_DIR - scripts/joblog-stats.py: its two
# tables on a hand-made job log (exact output: kinds, shares, probe/whole
# pairing by position across a resumed run whose node ids changed, --contains,
# --first, a line that is not a job record), then on the job log of a real
# opening search (every job counted once, the work summed), and its errors.
set -euo pipefail
bin=$(realpath "$1")
src=$(realpath "$2")
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
fail() { echo "test_joblog_stats: FAIL: $*" >&2; exit 1; }
stats() { python3 "$src/scripts/joblog-stats.py" "$@"; }
cd "$tmp"

# A probe and a whole job of one white-to-move position (node 7, then node 9
# after a resume), a probe whose whole job never came, a black-to-move
# job proven, one disproven, and a line that is not a job.
cat > log <<'LOG'
{"job":1,"node":7,"position":"B:h8,i7 W:h9","to_move":"white","stones":3,"budget":1000,"result":"unknown","work":1000,"pn":5,"dn":9,"probe":true}
{"job":2,"node":8,"position":"B:h8,i7 W:h9,g9","to_move":"black","stones":4,"budget":4000,"result":"proven","work":3000,"pn":0,"dn":2147483647,"probe":false}
search: nodes 4.00k
{"job":1,"node":9,"position":"B:h8,i7 W:h9","to_move":"white","stones":3,"budget":50000,"result":"unknown","work":50000,"pn":40,"dn":3,"probe":false}
{"job":2,"node":10,"position":"B:h8,j7 W:h9","to_move":"white","stones":3,"budget":1000,"result":"unknown","work":1000,"pn":300,"dn":2,"probe":true}
{"job":3,"node":11,"position":"B:h8,i7 W:h9,j9","to_move":"black","stones":4,"budget":45000,"result":"disproven","work":45000,"pn":2147483647,"dn":0,"probe":false}
LOG
cat > want-kind <<'OUT'
| stones | to move | job | jobs | proven | disproven | work | share |
|---:|---|---|---:|---:|---:|---:|---:|
| 3 | white | probe | 2 | 0 | 0 | 2e+03 | 2.0% |
| 3 | white | whole | 1 | 0 | 0 | 5e+04 | 50.0% |
| 4 | black | whole | 2 | 1 | 1 | 4.8e+04 | 48.0% |
| all | | | 5 | 1 | 1 | 1e+05 | 100.0% |
OUT
stats log > got-kind 2> err-kind || fail "kind table: exit $?"
diff want-kind got-kind || fail "kind table differs"
grep -q "1 lines skipped" err-kind || fail "the skipped line not reported: $(cat err-kind)"

cat > want-pn <<'OUT'
| to move | probe pn | whole jobs | proven | work |
|---|---|---:|---:|---:|
| white | 4-7 | 1 | 0 | 5e+04 |
OUT
stats --by probe-pn log > got-pn 2> /dev/null || fail "probe-pn table: exit $?"
diff want-pn got-pn || fail "probe-pn table differs"

# --contains: the subtree of black i7 (4 jobs); --first: the jobs of the first 4,000 work (2).
stats --contains "B:i7" log 2> /dev/null | grep -q '^| all | | | 4 | 1 | 1 | 9.9e+04 | 100.0% |$' ||
    fail "--contains: $(stats --contains B:i7 log 2>&1)"
stats --first 4e3 log 2> /dev/null | grep -q '^| all | | | 2 | 1 | 0 | 4e+03 | 100.0% |$' ||
    fail "--first: $(stats --first 4e3 log 2>&1)"

# A real search's log: every job once, its work summed.
"$bin" opening search "h8 i9 i7 i8 g9" --goal win --job-nodes 20000 --max-jobs 40 --db s.lmdb \
    --job-log real.log --progress none > /dev/null
n=$(wc -l < real.log)
[ "$n" -ge 10 ] || fail "the search logged $n jobs"
work=$(sed -n 's/.*"work":\([0-9]*\),.*/\1/p' real.log | awk '{s += $1} END {printf "%.3g", s}')
stats real.log | grep -q "^| all | | | $n | .* | $work | 100.0% |$" ||
    fail "real log: not $n jobs and $work work: $(stats real.log | tail -n 1)"

# Errors: one line, the exit codes of INTERFACE.md.
set +e
stats --contains "X:h8" log > /dev/null 2> e1; r1=$?
stats missing.log > /dev/null 2> e2; r2=$?
stats --first -5 log > /dev/null 2> e3; r3=$?
set -e
[ $r1 -eq 64 ] && [ "$(wc -l < e1)" -eq 1 ] || fail "bad --contains: exit $r1, $(cat e1)"
[ $r2 -eq 66 ] && grep -q "missing.log" e2 || fail "missing log: exit $r2, $(cat e2)"
[ $r3 -eq 64 ] || fail "bad --first: exit $r3"
echo "test_joblog_stats: ok"
