#!/usr/bin/env bash
# setup.sh - install the Debian 12 packages the build and the tests need.
# Idempotent: installs only what is missing (and runs apt-get update only then).
# Works as root, or as a user with sudo.
# The script is one { ... } group ending in exit, read whole before it runs, so an
# edit of this file under a running job cannot change what that job runs.
{
set -euo pipefail

# clang-14, libclang-rt-14-dev (its TSan runtime) and libomp-14-dev (LLVM's OpenMP with the
# Archer tool): the ThreadSanitizer build of scripts/tsan.sh; clang-format: scripts/check-format.sh;
# procps (pgrep, ps): scripts/solve-open.sh's stop and its test.
PKGS=(build-essential cmake pkg-config liblmdb-dev lmdb-utils libxxhash-dev libcmocka-dev
      libopenmpi-dev openmpi-bin python3 xz-utils procps slurm-wlm munge
      clang-14 libclang-rt-14-dev libomp-14-dev clang-format)

if ! command -v dpkg-query >/dev/null; then
  echo "setup: dpkg-query not found: this script expects Debian 12; install by hand: ${PKGS[*]}" >&2
  exit 1
fi
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PKGS[@]} packages present" >&2
  exit 0
fi
SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  SUDO=(sudo)
fi
echo "setup: installing ${missing[*]}" >&2
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
exit
}
