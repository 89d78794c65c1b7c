#!/usr/bin/env bash
# make-results.sh - re-derive results/proven-positions.{jsonl,md}: solve every
# position of results/positions.txt (black attacker, 1 thread, 128 MiB TT),
# store each proof in a fresh database, re-check every stored proof with the
# independent checker (`renju db verify`) and export the database.
# The main job imports the export as its embedded default database.
# The script is one { ... } group ending in exit, read whole before it runs, so an
# edit of this file under a running job cannot change what that job runs.
{
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${RENJU:-build/renju}"
[ -x "$bin" ] || bin="$(bash scripts/build.sh Release)/renju"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
db="$work/results.lmdb"
md=results/proven-positions.md
{
  echo "# Proven positions (embedded default database)"
  echo
  echo "Every row is a df-pn proof that black wins, checked by the independent proof"
  echo "checker before it was stored and again by \`renju db verify\` after. Produced by"
  echo "\`bash scripts/make-results.sh\` ($("$bin" --version), 1 thread, 128 MiB TT, $(date -u +%Y-%m-%d));"
  echo "the proofs themselves are in \`proven-positions.jsonl\` (\`renju db import\` format)."
  echo
  echo "| position | to move | best | proof nodes | proof depth | search nodes | time (s) |"
  echo "|---|---|---|---:|---:|---:|---:|"
} > "$md"
grep -v '^#' results/positions.txt | grep -v '^$' | while IFS= read -r pos; do
  json=$("$bin" solve "$pos" --attacker black --threads 1 --tt-mb 128 --time 300 --db "$db" --json --quiet)
  python3 - "$pos" "$json" >> "$md" <<'PY'
import json, sys
pos, j = sys.argv[1], json.loads(sys.argv[2])
n = len(pos.split())
if j["result"] != "proven":
    print(f"| `{pos}` | {'black' if n % 2 == 0 else 'white'} | — | unknown after {j['nodes']} nodes | | | {j['time_s']:.2f} |")
else:
    print(f"| `{pos}` | {'black' if n % 2 == 0 else 'white'} | {j['best']} | {j['proof_nodes']} | {j['proof_depth']} | {j['nodes']} | {j['time_s']:.2f} |")
PY
done
"$bin" db verify --db "$db" >&2
"$bin" db export --db "$db" > results/proven-positions.jsonl
echo "make-results: $(wc -l < results/proven-positions.jsonl) results in results/proven-positions.jsonl, table in $md" >&2
exit
}
