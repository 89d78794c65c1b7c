#!/usr/bin/env bash
# bench-mpi.sh [BUILD_DIR] - measure the MPI opening search's master on this
# machine: the same workload (POS, GOAL, JOB_NODES, MAX_JOBS below; a fresh
# database each run) with 1 and 2 workers (mpirun -np 2 / -np 3); prints the
# master's stats line of each run (JSON: results, wall_s, master_busy_s,
# master_check_s, master_commit_s, commits, bytes_in, jobs_sent, bytes_out,
# job_time_s).  scripts/scaling-model.py turns them into results/scaling.md.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
pos=${POS:-I7 i8}
goal=${GOAL:-w4}
job_nodes=${JOB_NODES:-200000}
max_jobs=${MAX_JOBS:-80}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for np in 2 3; do
  mpirun --oversubscribe -np "$np" "$build/renju-mpi" opening search "$pos" --goal "$goal" \
    --job-nodes "$job_nodes" --max-jobs "$max_jobs" --db "$work/np$np.lmdb" 2>&1 >/dev/null \
    | sed -n 's/^renju-mpi: stats //p'
done
