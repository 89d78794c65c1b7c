#!/usr/bin/env bash
# test.sh - set up, build (warnings as errors) and run the whole test suite with ctest:
# first the Release build (every test, test_bench_signature among them: `renju bench` must
# print the signature recorded in tests/data/bench-signature.txt), then an ASan+UBSan build
# (every test, end-to-end ones included, but those labelled `no_sanitize`, each with its
# reason in tests/CMakeLists.txt; skip with RJ_SKIP_SANITIZE=1), and the Slurm scripts on a single-node
# Slurm started for the test (scripts/slurm/test-slurm.sh; root only; skip with
# RJ_SKIP_SLURM=1), then ThreadSanitizer on the parallel code paths (scripts/tsan.sh: the
# tests labelled `tsan`, 2-thread CLI solves, the opening search with 2 workers; skip with
# RJ_SKIP_TSAN=1).  First of all, the clang-format check of changed lines and of the files
# known to be formatted (scripts/check-format.sh; seconds).  Prints each stage's time.  Fails
# when any test fails or none ran.
# The script is one { ... } group ending in exit, read whole before it runs, so an
# edit of this file under a running job cannot change what that job runs.
{
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
jobs=$(nproc)
stage() { echo "test.sh: $1 took $((SECONDS - t0)) s" >&2; t0=$SECONDS; }
t0=$SECONDS
bash scripts/check-format.sh
stage "format check"
dir=$(bash scripts/build.sh Release)
(cd "$dir" && ctest --output-on-failure --no-tests=error -j"$jobs")
stage "Release build + ctest"
# The Slurm scripts on a real single-node Slurm (needs root: CI runs as root).
if [ "${RJ_SKIP_SLURM:-0}" = 1 ]; then
  echo "test.sh: Slurm test skipped (RJ_SKIP_SLURM=1)" >&2
elif [ "$(id -u)" -ne 0 ]; then
  echo "test.sh: Slurm test skipped: it needs root to start munged, slurmctld and slurmd" >&2
else
  bash scripts/slurm/test-slurm.sh "$dir"
  stage "Slurm test"
fi
if [ "${RJ_SKIP_SANITIZE:-0}" = 1 ]; then
  echo "test.sh: ASan+UBSan run skipped (RJ_SKIP_SANITIZE=1)" >&2
else
  sdir=$(bash scripts/build.sh Asan)
  (cd "$sdir" && ctest --output-on-failure --no-tests=error -j"$jobs" -LE no_sanitize)
  stage "ASan+UBSan build + ctest"
fi
if [ "${RJ_SKIP_TSAN:-0}" = 1 ]; then
  echo "test.sh: ThreadSanitizer run skipped (RJ_SKIP_TSAN=1)" >&2
else
  bash scripts/tsan.sh
  stage "ThreadSanitizer build + runs"
fi
echo "test.sh: all tests passed" >&2
exit
}
