#!/usr/bin/env bash
# test-slurm.sh [BUILD_DIR] - the Slurm scripts tested for real on this machine.
#
# Starts a single-node Slurm (munged, slurmctld, slurmd from Debian's munge and
# slurm-wlm; a minimal slurm.conf: one node with this machine's CPUs,
# proctrack/linuxproc, task/none, private ports) in a temporary directory,
# then on a tiny workload:
#   1. opening-search.sbatch: the MPI opening search (3 tasks: a master and
#      two workers) must give the result of the same search in one process;
#   2. solve-array.sbatch (a 2-task array) + merge.sbatch: the merged shards
#      must equal a single `renju batch run` of the same plan.
# Everything it started is stopped at the end, also on failure.  Needs root
# (slurmd runs jobs as their users; munged's key) and the packages of
# scripts/setup.sh.  Exit 0 when both comparisons hold.
# The script is one { ... } group ending in exit, read whole before it runs, so an
# edit of this file under a running job cannot change what that job runs.
{
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
bin=$PWD/$build/renju
mpibin=$PWD/$build/renju-mpi
[ "$(id -u)" -eq 0 ] || { echo "test-slurm: needs root (starts munged, slurmctld and slurmd)" >&2; exit 1; }
for c in munged slurmctld slurmd sbatch sinfo mpirun mdb_copy; do
  command -v "$c" >/dev/null || [ -x "/usr/sbin/$c" ] || { echo "test-slurm: $c not found (bash scripts/setup.sh)" >&2; exit 1; }
done
[ -x "$bin" ] && [ -x "$mpibin" ] || { echo "test-slurm: $bin or $mpibin missing (bash scripts/build.sh)" >&2; exit 1; }

work=$(mktemp -d /tmp/renju-slurm.XXXXXX)
chmod 755 "$work"
host=$(hostname -s)
export SLURM_CONF=$work/slurm.conf
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 # the test runs as root
started_munge=0
cleanup() {
  set +e
  scancel --user=root >/dev/null 2>&1
  for f in slurmd slurmctld; do
    [ -f "$work/$f.pid" ] && kill "$(cat "$work/$f.pid")" 2>/dev/null
  done
  sleep 1
  for f in slurmd slurmctld; do
    [ -f "$work/$f.pid" ] && kill -9 "$(cat "$work/$f.pid")" 2>/dev/null
  done
  [ "$started_munge" = 1 ] && [ -f "$work/munge/munged.pid" ] && kill "$(cat "$work/munge/munged.pid")" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# munge: its own socket and pid file, so a munged already running is left alone.
mkdir -p "$work/munge"
chown munge:munge "$work/munge"
if [ ! -s /etc/munge/munge.key ]; then
  echo "test-slurm: /etc/munge/munge.key missing (reinstall munge)" >&2
  exit 1
fi
runuser -u munge -- /usr/sbin/munged --socket="$work/munge/munge.socket" --pid-file="$work/munge/munged.pid" \
  --log-file="$work/munge/munged.log" --seed-file="$work/munge/munged.seed"
started_munge=1

cat > "$SLURM_CONF" <<CONF
ClusterName=renjutest
SlurmctldHost=$host
AuthType=auth/munge
AuthInfo=socket=$work/munge/munge.socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
SlurmctldPort=26817
SlurmdPort=26818
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$(nproc) RealMemory=2000 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
mkdir -p "$work/state" "$work/spool"
/usr/sbin/slurmctld
/usr/sbin/slurmd
for _ in $(seq 1 120); do
  [ "$(sinfo -h -o %T 2>/dev/null | head -1)" = idle ] && break
  sleep 0.5
done
[ "$(sinfo -h -o %T | head -1)" = idle ] || { echo "test-slurm: the node did not come up"; tail -20 "$work/slurmd.log" "$work/slurmctld.log"; exit 1; }
echo "test-slurm: single-node Slurm up ($host, $(nproc) CPUs)" >&2

statuses() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["result"], "".join(c["status"][0] for c in d["fourth"]), d["pass"])' "$1"; }
strip_time() { "$bin" db export --db "$1" | sed -e 's/"time":[0-9]*//' | sort; }

# 1. The MPI opening search under sbatch against one process.
pos="h8 h9 i9 e11 i11 k5 j8"
"$bin" opening search "$pos" --job-nodes 50000 --db "$work/local.lmdb" --json --quiet > "$work/local.json"
OPENING="$pos" DB="$work/mpi.lmdb" RENJU_MPI="$mpibin" \
  sbatch --wait --quiet --ntasks=3 --overcommit --output="$work/mpi.log" scripts/slurm/opening-search.sbatch \
  --job-nodes 50000 --quiet || { echo "test-slurm: opening-search.sbatch failed"; cat "$work/mpi.log"; exit 1; }
"$bin" opening status "$pos" --db "$work/mpi.lmdb" --json > "$work/mpi.json"
a=$(statuses "$work/local.json"); b=$(statuses "$work/mpi.json")
[ "$a" = "$b" ] || { echo "test-slurm: MPI search differs from the local one:"; echo "$a"; echo "$b"; exit 1; }
"$bin" db verify --db "$work/mpi.lmdb" --quiet
echo "test-slurm: opening-search.sbatch (MPI, 3 tasks) = local search: ${a%% *}" >&2

# 2. The array path: 2 array tasks + merge against one batch run.
"$bin" batch plan "h8 h9 i9 e11 i11 k5" --depth 1 --out "$work/small.plan" 2>/dev/null
"$bin" batch run "$work/small.plan" --db "$work/single.lmdb" --nodes 2000 --quiet
PLAN="$work/small.plan" OUTDIR="$work/shards" RENJU="$bin" \
  sbatch --wait --quiet --array=0-1 --output="$work/array_%a.log" scripts/slurm/solve-array.sbatch --nodes 2000 \
  || { echo "test-slurm: solve-array.sbatch failed"; cat "$work"/array_*.log; exit 1; }
OUTDIR="$work/shards" MERGED="$work/merged.lmdb" RENJU="$bin" \
  sbatch --wait --quiet --output="$work/merge.log" scripts/slurm/merge.sbatch \
  || { echo "test-slurm: merge.sbatch failed"; cat "$work/merge.log"; exit 1; }
if ! diff <(strip_time "$work/single.lmdb") <(strip_time "$work/merged.lmdb") > "$work/diff.txt"; then
  echo "test-slurm: merged array shards differ from the single run:"; head "$work/diff.txt"; exit 1
fi
echo "test-slurm: solve-array.sbatch (2 tasks) + merge.sbatch = single batch run ($(strip_time "$work/single.lmdb" | wc -l) results)" >&2
echo "test-slurm: 2 passed, 0 failed"
exit
}
