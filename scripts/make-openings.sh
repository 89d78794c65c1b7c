#!/usr/bin/env bash
# make-openings.sh DB [DB...] - regenerate results/openings.json, results/openings.md
# and results/img/<code>.png from one or more results databases (e.g. one per
# opening search, as the tree's state stays with the database it was made in):
#   1. `renju opening report --db DB --quiet` for each DB (every opening's
#      standing, JSON); per opening the report of the DB with the most 4th-move
#      classes decided wins (then the most work: a search restarted from an
#      export has all the results but less work of its own);
#   2. adds "commit" (git rev-parse --short HEAD, "-dirty" when core/, solver/,
#      db/ or CMakeLists.txt differ from it) and "command" ($RENJU_OPENING_COMMANDS,
#      the search commands that filled DB; default "see results/README.md") to
#      every opening and writes results/openings.json, one opening per line;
#   3. scripts/openings-md.py results/openings.json results/openings.md;
#   4. scripts/plot-openings.py (needs Debian's python3-matplotlib, run with
#      /usr/bin/python3); skipped with a note when matplotlib is missing or
#      RENJU_PLOTS=0.
# Work figures (an opening's and each 4th-move class's) keep the larger of the
# new one and the one results/openings.json had, not their sum: a tree rebuilt
# from results alone on a new machine records only the work of its own jobs, so
# the figure is a lower bound of the work spent on the opening.
# The binary is $RENJU, else build/renju (built with scripts/build.sh if missing).
# The script is one { ... } group ending in exit, read whole before it runs, so an
# edit of this file under a running job cannot change what that job runs.
{
set -euo pipefail
cd "$(dirname "$0")/.."
die() { echo "make-openings: $*" >&2; exit 1; }

bin="${RENJU:-build/renju}"
if [ ! -x "$bin" ]; then
  [ -z "${RENJU:-}" ] || die "RENJU=$bin is not an executable"
  bin="$(bash scripts/build.sh Release)/renju"
fi
mkdir -p results
tmp=results/openings.json.tmp
trap 'rm -f "$tmp" "$tmp.2" "$tmp".db*' EXIT

[ $# -ge 1 ] || { echo "usage: scripts/make-openings.sh DB [DB...]   (results LMDB files)" >&2; exit 2; }
k=0
for db in "$@"; do
  [ -e "$db" ] || die "$db: no such database"
  rc=0
  "$bin" opening report --db "$db" --json --quiet > "$tmp.db$k" || rc=$?
  [ "$rc" -eq 0 ] || die "'$bin opening report --db $db' failed (exit $rc)"
  k=$((k + 1))
done
python3 - "$tmp" "$tmp".db* <<'PY'
import json, sys
out, ins = sys.argv[1], sys.argv[2:]
best = {}
order = []


def rank(o):
    """The report that knows most: the most 4th-move classes decided, then the most work."""
    return (o.get("fourth_proven", 0) + o.get("fourth_disproven", 0), o.get("work_nodes", 0))


for p in ins:
    with open(p, encoding="utf-8") as f:
        for o in json.load(f):
            c = o["code"]
            if c not in best:
                order.append(c)
                best[c] = o
            elif rank(o) > rank(best[c]):
                best[c] = o
with open(out, "w", encoding="utf-8") as f:
    json.dump([best[c] for c in order], f, ensure_ascii=False)
PY
rm -f "$tmp".db*

commit=$(git rev-parse --short HEAD 2>/dev/null) || commit=unknown
if [ "$commit" != unknown ] && ! git diff --quiet HEAD -- core solver db CMakeLists.txt 2>/dev/null; then
  commit="$commit-dirty"
fi
command=${RENJU_OPENING_COMMANDS:-see results/README.md}

python3 - "$tmp" "$tmp.2" "$commit" "$command" <<'PY'
import json, sys
src, dst, commit, command = sys.argv[1:5]
try:
    with open(src, encoding="utf-8") as f:
        data = json.load(f)
except (OSError, ValueError) as e:
    sys.exit("make-openings: %s: bad report output: %s" % (src, e))
if not isinstance(data, list) or not all(isinstance(o, dict) for o in data):
    sys.exit("make-openings: %s: the report is not a JSON array of openings" % src)
# Work figures never go down: a tree rebuilt from results alone (a new machine without the
# saved states) records no work yet, so each opening and each 4th-move class keeps the larger
# of its new figure and the one results/openings.json had.
try:
    with open("results/openings.json", encoding="utf-8") as f:
        old = {o["code"]: o for o in json.load(f)}
except (OSError, ValueError, KeyError, TypeError):
    old = {}
for o in data:
    o["commit"] = commit
    o["command"] = command
    p = old.get(o.get("code"))
    if not isinstance(p, dict):
        continue
    o["work_nodes"] = max(o.get("work_nodes", 0), p.get("work_nodes", 0))
    pe = {fc.get("move"): fc.get("effort", 0) for fc in p.get("fourth", []) if isinstance(fc, dict)}
    for fc in o.get("fourth", []):
        fc["effort"] = max(fc.get("effort", 0), pe.get(fc.get("move"), 0))
with open(dst, "w", encoding="utf-8") as f:
    f.write("[\n" + ",\n".join(json.dumps(o, ensure_ascii=False, separators=(",", ":")) for o in data) + "\n]\n")
PY
mv "$tmp.2" results/openings.json
echo "make-openings: results/openings.json ($(grep -c '"code"' results/openings.json) openings, commit $commit)" >&2

python3 scripts/openings-md.py results/openings.json results/openings.md \
  || die "scripts/openings-md.py failed"
echo "make-openings: results/openings.md" >&2

if [ "${RENJU_PLOTS:-1}" = 0 ]; then
  echo "make-openings: pictures not regenerated (RENJU_PLOTS=0)" >&2
elif /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
  /usr/bin/python3 scripts/plot-openings.py --in results/openings.json --out results/img \
    || die "scripts/plot-openings.py failed"
  echo "make-openings: results/img/*.png" >&2
  # openings-md.py links a picture only when it exists: rerun now that they do.
  python3 scripts/openings-md.py results/openings.json results/openings.md \
    || die "scripts/openings-md.py failed"
else
  echo "make-openings: note: /usr/bin/python3 has no matplotlib (apt-get install python3-matplotlib);" \
       "pictures not regenerated" >&2
fi
exit
}
