#!/usr/bin/env bash
# tsan.sh - ThreadSanitizer over the parallel solver through the CLI: builds
# build-tsan/ and runs 2-, 3- and 9-thread solves (one in a full TT), a 2-thread verify and a
# 2-thread `fifth` (many solves in one solver); fails on any report
# (suppressions: scripts/tsan.supp).  A few minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(bash scripts/build.sh Tsan)
bin="$dir/renju"
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 suppressions=$PWD/scripts/tsan.supp"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() {
    echo "tsan.sh: $*" >&2
    "$bin" "$@" >/dev/null 2>"$tmp/err" || { rc=$?; [ "$rc" = 66 ] && { cat "$tmp/err" >&2; exit 1; }; }
    if grep -q "WARNING: ThreadSanitizer" "$tmp/err"; then cat "$tmp/err" >&2; exit 1; fi
}
for t in 2 3 9; do
    for p in "h8 i9 i7 i8 g7 f8" "h8 i9 i7 i8 g7 k7" "h8 h9 i9 e5 k9 e11"; do
        run solve "$p" --attacker black --threads "$t" --nodes 300000
    done
done
run solve "h8 i9 i7 i8 g7 f11" --attacker black --threads 2 --tt-mb 1 # a full TT: the solved store
run verify "h8 i9 i7 i8 g7 k7" --threads 2 --db "$tmp/t.lmdb"
run fifth "h8 i9 i7 i8" --nodes 3000 --per-class --threads 2 --no-db
echo "tsan.sh: no reports" >&2
