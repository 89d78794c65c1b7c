#!/usr/bin/env bash
# test.sh - set up, build (warnings as errors) and run the whole test suite with ctest:
# first the Release build (every test), then an ASan+UBSan build (tests labelled
# `sanitize`; skip with RJ_SKIP_SANITIZE=1).  Fails when any test fails or none ran.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
jobs=$(nproc)
dir=$(bash scripts/build.sh Release)
(cd "$dir" && ctest --output-on-failure --no-tests=error -j"$jobs")
if [ "${RJ_SKIP_SANITIZE:-0}" != 1 ]; then
  sdir=$(bash scripts/build.sh Asan)
  (cd "$sdir" && ctest --output-on-failure --no-tests=error -j"$jobs" -L sanitize)
fi
echo "test.sh: all tests passed" >&2
