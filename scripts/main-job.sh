#!/usr/bin/env bash
# main-job.sh - set up, build, and run the main job; prints where the result is.
# For now the job lists the 26 openings and draws one (later: a real solve).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
dir=$(bash scripts/build.sh Release)
bin="$dir/renju"
out="$dir/main-job.txt"
{
  echo "\$ renju openings"
  "$bin" openings
  echo
  echo "\$ renju show D4"
  "$bin" show D4
} | tee "$out"
echo "main-job: result in $out (binary: $bin)" >&2
