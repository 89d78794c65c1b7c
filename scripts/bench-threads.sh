#!/usr/bin/env bash
# bench-threads.sh [POSITIONS] [THREADS...] - time-to-proof of every position
# (one a line, black attacking) with each thread count, 32 MiB TT (TT_MB), on an
# otherwise idle machine.  ROUNDS (default 1) rounds; within a round each
# position is solved with every thread count in turn, so a drift in the
# machine's speed (this VM's varies by tens of percent over minutes) falls on
# all counts alike.  Prints one line per round, position and thread count,
# then per round and thread count: total time (the solves' time_s; the
# processes' wall-clock time, start-up included, in brackets), total work, the busiest
# thread's work, the speedup of the total over the first count and the
# geometric mean of the per-position speedups; with several rounds, last the
# median of the rounds' total speedups.  Default: results/bench-positions.txt
# with 1 and 2 threads.  RENJU names another binary to time (default build/renju).
# The script is one { ... } group ending in exit, read whole before it runs, so an
# edit of this file under a running job cannot change what that job runs.
{
set -euo pipefail
cd "$(dirname "$0")/.."
list="${1:-results/bench-positions.txt}"
shift || true
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1 2)
bin="${RENJU:-build/renju}"
rounds="${ROUNDS:-1}"
[ -x "$bin" ] || bash scripts/build.sh >/dev/null
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for r in $(seq "$rounds"); do
    grep -v '^#' "$list" | grep -v '^ *$' | while IFS= read -r pos; do
        for t in "${counts[@]}"; do
            t0=$(date +%s.%N)
            json=$("$bin" solve "$pos" --attacker black --threads "$t" --tt-mb "${TT_MB:-32}" --json 2>/dev/null | tail -1)
            t1=$(date +%s.%N)
            python3 - "$r" "$t" "$pos" "$json" "$t0" "$t1" <<'PY' | tee -a "$out"
import json, sys
r, t, pos, d = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
wall = float(sys.argv[6]) - float(sys.argv[5])
print(f"{r}\t{t}\t{d['result']}\t{d['time_s']:.3f}\t{d['nodes']}\t{d['max_thread_nodes']}\t{wall:.3f}\t{pos}")
PY
        done
    done
done
python3 - "$out" "${counts[@]}" <<'PY'
import math, statistics, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
counts = sys.argv[2:]
by = {}
for r, t, res, tm, nodes, busy, wall, pos in rows:
    by.setdefault(r, {}).setdefault(t, {})[pos] = (res, float(tm), int(nodes), int(busy), float(wall))
speedups = {t: [] for t in counts}
for r in sorted(by, key=int):
    base = by[r][counts[0]]
    base_tot = sum(v[1] for v in base.values())
    for t in counts:
        d = by[r][t]
        tot = sum(v[1] for v in d.values())
        wall = sum(v[4] for v in d.values())
        work = sum(v[2] for v in d.values())
        busy = sum(v[3] for v in d.values())
        proven = sum(v[0] == "proven" for v in d.values())
        logs = [math.log(base[p][1] / v[1]) for p, v in d.items() if v[1] > 0 and base[p][1] > 0]
        gm = math.exp(sum(logs) / len(logs)) if logs else 0
        speedups[t].append(base_tot / tot if tot > 0 else 0)
        print(f"round {r} threads {t}: {proven}/{len(d)} proven, total {tot:.2f} s (processes {wall:.2f} s), "
              f"work {work}, busiest thread {busy}, speedup total {speedups[t][-1]:.2f}x, geometric mean {gm:.2f}x")
if len(by) > 1:
    for t in counts:
        s = speedups[t]
        print(f"threads {t}: median speedup total {statistics.median(s):.2f}x over {len(s)} rounds "
              f"(min {min(s):.2f}x, max {max(s):.2f}x)")
PY
exit
}
