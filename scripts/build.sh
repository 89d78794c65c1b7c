#!/usr/bin/env bash
# build.sh [BUILD_TYPE] - configure and build into build/ (or build-<type>/), warnings as errors.
# The script is one { ... } group ending in exit, read whole before it runs, so an
# edit of this file under a running job cannot change what that job runs.
{
set -euo pipefail
cd "$(dirname "$0")/.."
type="${1:-Release}"
dir=build
[ "$type" = Release ] || dir="build-$(echo "$type" | tr 'A-Z' 'a-z')"
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE="$type" -DRJ_WERROR=ON >/dev/null
cmake --build "$dir" -j"$(nproc)" >&2
echo "$dir"
exit
}
