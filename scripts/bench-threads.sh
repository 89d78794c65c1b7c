#!/usr/bin/env bash
# bench-threads.sh [POSITIONS] [THREADS...] - time-to-proof of every position
# (one a line, black attacking) with each thread count, 32 MiB TT (TT_MB), on an
# otherwise idle machine.  Prints one line per position and thread count,
# then per thread count: total time, total work, the busiest thread's work,
# and the geometric mean of the per-position speedup over the first count.
# Default: results/bench-positions.txt with 1 and 2 threads.  RENJU names
# another binary to time (default build/renju).
set -euo pipefail
cd "$(dirname "$0")/.."
list="${1:-results/bench-positions.txt}"
shift || true
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1 2)
bin="${RENJU:-build/renju}"
[ -x "$bin" ] || bash scripts/build.sh >/dev/null
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for t in "${counts[@]}"; do
    grep -v '^#' "$list" | grep -v '^ *$' | while IFS= read -r pos; do
        json=$("$bin" solve "$pos" --attacker black --threads "$t" --tt-mb "${TT_MB:-32}" --json 2>/dev/null | tail -1)
        python3 - "$t" "$pos" "$json" <<'PY' | tee -a "$out"
import json, sys
t, pos, d = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
print(f"{t}\t{d['result']}\t{d['time_s']:.3f}\t{d['nodes']}\t{d['max_thread_nodes']}\t{pos}")
PY
    done
done
python3 - "$out" "${counts[@]}" <<'PY'
import math, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
counts = sys.argv[2:]
by = {}
for t, res, tm, nodes, busy, pos in rows:
    by.setdefault(t, {})[pos] = (res, float(tm), int(nodes), int(busy))
base = by[counts[0]]
for t in counts:
    r = by[t]
    tot = sum(v[1] for v in r.values())
    work = sum(v[2] for v in r.values())
    busy = sum(v[3] for v in r.values())
    proven = sum(v[0] == "proven" for v in r.values())
    logs = [math.log(base[p][1] / v[1]) for p, v in r.items() if v[1] > 0 and base[p][1] > 0]
    gm = math.exp(sum(logs) / len(logs)) if logs else 0
    print(f"threads {t}: {proven}/{len(r)} proven, total {tot:.2f} s, work {work}, busiest thread {busy}, "
          f"speedup total {sum(v[1] for v in base.values()) / tot:.2f}x, geometric mean {gm:.2f}x")
PY
