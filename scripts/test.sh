#!/usr/bin/env bash
# test.sh - set up, build (warnings as errors) and run the whole test suite with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
dir=$(bash scripts/build.sh Release)
(cd "$dir" && ctest --output-on-failure -j"$(nproc)")
# Sanitizer build (ASan+UBSan) of the tests that touch memory and threads.
if [ "${RJ_SKIP_SANITIZE:-0}" != 1 ]; then
  sdir=$(bash scripts/build.sh Asan)
  (cd "$sdir" && ctest --output-on-failure -j"$(nproc)" -L sanitize)
fi
