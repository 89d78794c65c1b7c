#!/usr/bin/env bash
# test_joblog_stats.sh RENJU SOURCE_DIR - scripts/joblog-stats.py: its two
# tables on a hand-made job log (exact output: kinds, shares, probe/whole
# pairing by position and side to move across a resumed run whose node ids
# changed, reruns, the pn buckets' edges, --contains, --first, lines that are
# not job records), then on the job log of a real opening search (every job
# counted once, the work summed), and its errors.
set -euo pipefail
bin=$(realpath "$1")
src=$(realpath "$2")
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
fail() { echo "test_joblog_stats: FAIL: $*" >&2; exit 1; }
stats() { python3 "$src/scripts/joblog-stats.py" "$@"; }
cd "$tmp"

# A probe and a whole job of one white-to-move position A (node 7, then node 9
# after a resume) and a rerun of it, a probe whose whole job never came, a
# black-to-move job proven, one disproven, a line that is not a job, probes
# of pn 1, 2, 4, 7 and 8 (the bucket edges) with their whole jobs, and a probe
# and a whole job of position A's string with black to move (paired apart).
A='"position":"B:h8,i7 W:h9"'
P='"stones":3,"result":"unknown","dn":1'
cat > log <<LOG
{"job":1,"node":7,$A,"to_move":"white","stones":3,"result":"unknown","work":1000,"pn":5,"dn":9,"probe":true}
{"job":2,"node":8,"position":"B:h8,i7 W:h9,g9","to_move":"black","stones":4,"result":"proven","work":3000,"pn":0,"dn":2147483647,"probe":false}
search: nodes 4.00k
{"job":1,"node":9,$A,"to_move":"white","stones":3,"result":"unknown","work":50000,"pn":40,"dn":3,"probe":false}
{"job":2,"node":10,"position":"B:h8,j7 W:h9","to_move":"white","stones":3,"result":"unknown","work":1000,"pn":300,"dn":2,"probe":true}
{"job":3,"node":11,"position":"B:h8,i7 W:h9,j9","to_move":"black","stones":4,"result":"disproven","work":45000,"pn":2147483647,"dn":0,"probe":false}
{"node":20,"position":"B:a1 W:c1","to_move":"white",$P,"work":100,"pn":1,"probe":true}
{"node":20,"position":"B:a1 W:c1","to_move":"white","stones":3,"result":"proven","work":200,"pn":0,"probe":false}
{"node":21,"position":"B:a2 W:c1","to_move":"white",$P,"work":100,"pn":2,"probe":true}
{"node":21,"position":"B:a2 W:c1","to_move":"white",$P,"work":200,"pn":9,"probe":false}
{"node":22,"position":"B:a3 W:c1","to_move":"white",$P,"work":100,"pn":4,"probe":true}
{"node":22,"position":"B:a3 W:c1","to_move":"white",$P,"work":200,"pn":9,"probe":false}
{"node":23,"position":"B:a4 W:c1","to_move":"white",$P,"work":100,"pn":7,"probe":true}
{"node":23,"position":"B:a4 W:c1","to_move":"white",$P,"work":200,"pn":9,"probe":false}
{"node":24,"position":"B:a5 W:c1","to_move":"white",$P,"work":100,"pn":8,"probe":true}
{"node":24,"position":"B:a5 W:c1","to_move":"white",$P,"work":200,"pn":9,"probe":false}
{"node":30,$A,"to_move":"black",$P,"work":100,"pn":100,"probe":true}
{"node":9,$A,"to_move":"white",$P,"work":4000,"pn":30,"probe":false}
{"node":30,$A,"to_move":"black",$P,"work":200,"pn":100,"probe":false}
LOG
cat > want-kind <<'OUT'
| stones | to move | job | jobs | proven | disproven | work | share |
|---:|---|---|---:|---:|---:|---:|---:|
| 3 | black | probe | 1 | 0 | 0 | 100 | 0.1% |
| 3 | black | whole | 1 | 0 | 0 | 200 | 0.2% |
| 3 | white | probe | 7 | 0 | 0 | 2.5e+03 | 2.4% |
| 3 | white | whole | 7 | 1 | 0 | 5.5e+04 | 52.0% |
| 4 | black | whole | 2 | 1 | 1 | 4.8e+04 | 45.4% |
| all | | | 18 | 2 | 1 | 1.06e+05 | 100.0% |
OUT
stats log > got-kind 2> err-kind || fail "kind table: exit $?"
diff want-kind got-kind || fail "kind table differs"
[ "$(cat err-kind)" = "joblog-stats: 1 lines skipped (not job records)" ] || fail "the skipped line: $(cat err-kind)"

cat > want-pn <<'OUT'
| to move | probe pn | whole jobs | proven | work |
|---|---|---:|---:|---:|
| black | 64-127 | 1 | 0 | 200 |
| white | 0-1 | 1 | 1 | 200 |
| white | 2-3 | 1 | 0 | 200 |
| white | 4-7 | 4 | 0 | 5.44e+04 |
| white | 8-15 | 1 | 0 | 200 |
OUT
stats --by probe-pn log > got-pn 2> /dev/null || fail "probe-pn table: exit $?"
diff want-pn got-pn || fail "probe-pn table differs"

# --contains: black i7 (7 jobs), black i7 and white j9 (1); --first: the jobs of the first 4,000 work (2).
stats --contains "B:i7" log 2> /dev/null | grep -q '^| all | | | 7 | 1 | 1 | 1.03e+05 | 100.0% |$' ||
    fail "--contains B:i7: $(stats --contains B:i7 log 2>&1)"
stats --contains "B:i7 W:j9" log 2> /dev/null | grep -q '^| all | | | 1 | 0 | 1 | 4.5e+04 | 100.0% |$' ||
    fail "--contains B:i7 W:j9: $(stats --contains 'B:i7 W:j9' log 2>&1)"
stats --first 4e3 log 2> /dev/null | grep -q '^| all | | | 2 | 1 | 0 | 4e+03 | 100.0% |$' ||
    fail "--first: $(stats --first 4e3 log 2>&1)"

# Malformed records are skipped, not a crash or a hang: work null, pn Infinity, not an object, not UTF-8.
{ echo '{"position":"B:h8 W:h9","to_move":"white","stones":2,"result":"unknown","work":null,"pn":1,"probe":true}'
  echo '{"position":"B:h8 W:h9","to_move":"white","stones":2,"result":"unknown","work":5,"pn":Infinity,"probe":true}'
  echo '[1, 2]'; printf '\xff\n'; } > bad.log
timeout 20 python3 "$src/scripts/joblog-stats.py" --by probe-pn bad.log > /dev/null 2> err-bad || fail "malformed records: exit $?"
grep -q "^joblog-stats: 4 lines skipped" err-bad || fail "malformed records: $(cat err-bad)"

# A real search's log: every job once, its work summed.
"$bin" opening search "h8 i9 i7 i8 g9" --goal win --job-nodes 20000 --max-jobs 40 --db s.lmdb \
    --job-log real.log --progress none > /dev/null
n=$(wc -l < real.log)
[ "$n" -ge 10 ] || fail "the search logged $n jobs"
work=$(sed -n 's/.*"work":\([0-9]*\),.*/\1/p' real.log | awk '{s += $1} END {printf "%.3g", s}')
stats real.log | grep -q "^| all | | | $n | .* | $work | 100.0% |$" ||
    fail "real log: not $n jobs and $work work: $(stats real.log | tail -n 1)"

# Errors: one line, the exit codes of docs/cli.md (64 usage, 66 missing input).
set +e
stats --contains "X:h8" log > /dev/null 2> e1; r1=$?
stats missing.log > /dev/null 2> e2; r2=$?
stats --first -5 log > /dev/null 2> e3; r3=$?
stats --first nan log > /dev/null 2> e4; r4=$?
stats --by nope log > /dev/null 2> e5; r5=$?
stats > /dev/null 2> e6; r6=$?
set -e
[ $r1 -eq 64 ] && [ "$(wc -l < e1)" -eq 1 ] || fail "bad --contains: exit $r1, $(cat e1)"
[ $r2 -eq 66 ] && grep -q "missing.log" e2 || fail "missing log: exit $r2, $(cat e2)"
[ $r3 -eq 64 ] && [ $r4 -eq 64 ] || fail "bad --first: exit $r3 and $r4"
[ $r5 -eq 64 ] && [ "$(wc -l < e5)" -eq 1 ] || fail "bad --by: exit $r5, $(cat e5)"
[ $r6 -eq 64 ] && [ "$(wc -l < e6)" -eq 1 ] || fail "no log: exit $r6, $(cat e6)"
echo "test_joblog_stats: ok"
