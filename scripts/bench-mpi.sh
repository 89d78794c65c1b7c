#!/usr/bin/env bash
# bench-mpi.sh [BUILD_DIR] - measure the MPI opening search's master on this
# machine: two workloads (below; a fresh database each run) with 1 and 2
# workers (mpirun -np 2 / -np 3); prints the master's stats line of each run
# (JSON: workload, workers, results, wall_s, master_busy_s, master_check_s,
# master_commit_s, commits, bytes_in, jobs_sent, bytes_out, job_time_s).
# scripts/scaling-model.py turns them into results/scaling.md.
# The script is one { ... } group ending in exit, read whole before it runs, so an
# edit of this file under a running job cannot change what that job runs.
{
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Two workloads: mostly unknown jobs (a 4-stone position's 5th moves), and mostly proven
# jobs with proofs to check and store (a 7-stone position black wins, every white reply).
run() { # name np args...
  local name=$1 np=$2
  shift 2
  mpirun --oversubscribe -np "$np" "$build/renju-mpi" opening search "$@" --db "$work/$name-$np.lmdb" 2>&1 >/dev/null \
    | sed -n "s/^renju-mpi: stats {/{\"workload\":\"$name\",/p"
}
for np in 2 3; do
  run unknown "$np" "I7 i8" --goal w4 --job-nodes 200000 --max-jobs 80
  run proven "$np" "h8 h9 i9 e11 i11 k5 j8" --job-nodes 50000
done
exit
}
