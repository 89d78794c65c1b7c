#!/usr/bin/env bash
# main-job.sh - set up, build, and run the main job on the default database.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
dir=$(bash scripts/build.sh Release)
bin="$dir/renju"
"$bin" openings
"$bin" show D4
echo "main job done: binary at $bin" >&2
