#!/usr/bin/env bash
# tsan.sh [--full] - ThreadSanitizer over the parallel code paths; fails on any report.
#
# Builds build-tsan/ with clang-14 and LLVM's OpenMP runtime (libomp): GCC's libgomp is not
# instrumented and wakes its pooled threads through futexes TSan cannot see, so every later
# parallel region would look like a race; libomp's Archer tool (libarcher.so, loaded through
# OMP_TOOL_LIBRARIES) tells TSan about OpenMP's synchronisation instead (scripts/tsan.supp
# ignores only the calls libomp itself makes).  Then runs
#   - the ctests labelled `tsan` (tests/CMakeLists.txt: the parallel df-pn solves of test_dfpn,
#     test_placement's helper threads, test_db's concurrent LMDB readers and writers);
#   - a 2-thread CLI solve, and one in a full table (the solved store);
#   - the opening-level search with --workers 2 (jobs on pthreads sharing one LMDB handle), and
#     `db verify --threads 2` of the proofs it stored;
# and with --full (or RJ_TSAN_FULL=1) also 2-, 3- and 9-thread solves of three positions, a
# 2-thread `verify` and a 2-thread `fifth` (many solves in one solver).
# scripts/test.sh runs the default set (about 3 minutes on 2 busy cores, most of it test_dfpn);
# --full adds a few minutes.
# The script is one { ... } group ending in exit, read whole before it runs, so an
# edit of this file under a running job cannot change what that job runs.
{
set -euo pipefail
cd "$(dirname "$0")/.."
full="${RJ_TSAN_FULL:-0}"
[ "${1:-}" = --full ] && full=1
dir=build-tsan
archer=/usr/lib/llvm-14/lib/libarcher.so
command -v clang-14 >/dev/null || { echo "tsan.sh: clang-14 not found (scripts/setup.sh installs it)" >&2; exit 1; }
[ -f "$archer" ] || { echo "tsan.sh: $archer not found (package libomp-14-dev)" >&2; exit 1; }
cmake -S . -B "$dir" -DCMAKE_C_COMPILER=clang-14 -DCMAKE_BUILD_TYPE=Tsan -DRJ_WERROR=ON >/dev/null
# Only what runs here, one target at a time (make cannot build several top-level targets in
# parallel safely); each target's own objects still build with every core.
mapfile -t tests < <(cd "$dir" && ctest -N -L tsan | sed -n 's/^ *Test *#[0-9]*: *//p')
[ ${#tests[@]} -gt 0 ] || { echo "tsan.sh: no test labelled tsan" >&2; exit 1; }
for t in renju "${tests[@]}"; do
    cmake --build "$dir" -j"$(nproc)" --target "$t" >&2
done
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 suppressions=$PWD/scripts/tsan.supp"
export OMP_TOOL_LIBRARIES="$archer"
echo "tsan.sh: ctest -L tsan: ${tests[*]}" >&2
(cd "$dir" && ctest --output-on-failure --no-tests=error -j"$(nproc)" -L tsan)

bin="$dir/renju"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A run fails on a report (exit 66, or the warning in its stderr) or on a crash; the CLI's own
# exit codes for results (proven, unknown, ...) are not errors here.
run() {
    echo "tsan.sh: renju $*" >&2
    local rc=0
    "$bin" "$@" >/dev/null 2>"$tmp/err" || rc=$?
    if [ "$rc" = 66 ] || [ "$rc" -ge 128 ] || grep -q "WARNING: ThreadSanitizer" "$tmp/err"; then
        cat "$tmp/err" >&2
        echo "tsan.sh: renju $* failed (exit $rc)" >&2
        exit 1
    fi
}
run solve "h8 i9 i7 i8 g7 f8" --attacker black --threads 2 --nodes 300000
run solve "h8 i9 i7 i8 g7 f11" --attacker black --threads 2 --tt-mb 1 # a full TT: the solved store
run opening search "h8 h9 i9 e11 i11 k5 j8" --job-nodes 50000 --workers 2 --db "$tmp/open.lmdb"
run db verify --threads 2 --db "$tmp/open.lmdb" # the proofs that search stored, checked 2 at a time
if [ "$full" = 1 ]; then
    for t in 2 3 9; do
        for p in "h8 i9 i7 i8 g7 f8" "h8 i9 i7 i8 g7 k7" "h8 h9 i9 e5 k9 e11"; do
            run solve "$p" --attacker black --threads "$t" --nodes 300000
        done
    done
    run verify "h8 i9 i7 i8 g7 k7" --threads 2 --db "$tmp/t.lmdb"
    run fifth "h8 i9 i7 i8" --nodes 3000 --per-class --threads 2 --no-db
fi
echo "tsan.sh: no reports" >&2
exit
}
