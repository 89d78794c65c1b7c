#!/usr/bin/env python3
"""scaling-model.py - the MPI opening search's efficiency at scale, from measurements.

    scripts/scaling-model.py --bench BENCH.txt --status STATUS.json [--rate NODES_PER_S]
                             [--out results/scaling.md] [--plot results/img/scaling.png]

Inputs (both measured on this project's machine):
  BENCH.txt    the stats lines of scripts/bench-mpi.sh (one JSON object per run, 1 and 2
               workers): the master's time per job, bytes per message, commits;
  STATUS.json  `renju opening status OPENING --json` of a real opening search: the work
               of each 4th-move class's job(s) (its "effort"), the job-size distribution.
Work nodes become seconds at --rate work nodes per second and thread (default 2.0e6,
`renju bench`'s figure for one thread).

The model (a discrete-event simulation, deterministic seed): N workers and one master.
Every job's duration is drawn from the measured distribution; when a job ends its result
waits in the master's queue, the master serves results one at a time (the measured time
per job: checking proofs, committing, updating the tree and choosing the next job), and
only then does the worker get its next job.  Efficiency = job time / (N x makespan).
The search overhead of parallel job-level PNS (jobs picked in parallel are less proving
than the one a single worker would pick next) is not in the model: it is a property of
the tree, measured as jobs to proof, not of the machinery.
"""
import argparse
import heapq
import json
import random
import statistics
import sys


def simulate(durations, n_workers, service, jobs, seed=1):
    """Makespan and total job time of `jobs` jobs on n_workers with a master of `service` s/job."""
    rng = random.Random(seed)
    events = []  # (time a job ends, worker)
    total = 0.0
    started = 0
    for w in range(min(n_workers, jobs)):
        d = rng.choice(durations)
        total += d
        started += 1
        heapq.heappush(events, (d, w))
    master_free = 0.0
    end = 0.0
    while events:
        t, w = heapq.heappop(events)
        # the master serves this result (FIFO by arrival time)
        begin = max(t, master_free)
        master_free = begin + service
        end = max(end, master_free)
        if started < jobs:
            d = rng.choice(durations)
            total += d
            started += 1
            heapq.heappush(events, (master_free + d, w))
    return end, total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bench", required=True)
    ap.add_argument("--status", required=True)
    ap.add_argument("--rate", type=float, default=2.0e6)
    ap.add_argument("--out", default="results/scaling.md")
    ap.add_argument("--plot", default="results/img/scaling.png")
    ap.add_argument("--jobs", type=int, default=20000)
    ap.add_argument("--proof-bytes", type=float, default=82000,
                    help="mean proof size of a proven 4th-move job (the I7 batch: 5.24 MB / 64)")
    ap.add_argument("--sample", type=int, default=256, help="the master re-checks one large proof in this many")
    ap.add_argument("--check-us-per-byte", type=float, default=12.6,
                    help="checker time per byte of a large (4th-move) proof: `time renju db verify` of the I7 "
                         "batch database, 66 s for 64 proofs of 5.24 MB")
    a = ap.parse_args()

    runs = [json.loads(l) for l in open(a.bench) if l.strip().startswith("{")]
    if not runs:
        sys.exit("scaling-model: no stats lines in %s" % a.bench)
    status = json.load(open(a.status))
    efforts = [c["effort"] for c in status.get("fourth", status.get("classes", [])) if c.get("effort", 0) > 0]
    if not efforts:
        sys.exit("scaling-model: no searched classes in %s" % a.status)
    long_jobs = [e / a.rate for e in efforts]
    # The same search with 16x smaller jobs (job-nodes / 16): the distribution scaled down.
    short_jobs = [d / 16 for d in long_jobs]
    # The master's time per job: the measured time without proofs to check (the "unknown"
    # workload), plus re-checking the sampled proofs of a proven job, at the measured
    # checking speed (the "proven" workload) and the real proof sizes of 4th-move jobs.
    base = max(r["master_busy_s"] / max(1, r["results"]) for r in runs if r.get("workload") == "unknown")
    prov = [r for r in runs if r.get("workload") == "proven"]
    small_check_per_byte = max(r["master_check_s"] / max(1, r["bytes_in"]) for r in prov)
    check_per_byte = a.check_us_per_byte * 1e-6
    budget = max(efforts)
    p_proven = sum(1 for e in efforts if e < budget * 0.99) / len(efforts)
    proof_bytes = a.proof_bytes
    sampled = proof_bytes * 2 / a.sample  # the job's proof and its 5th-move child, one in `sample` checked
    service = base + p_proven * check_per_byte * sampled

    ns = [1, 2, 16, 64, 256, 1024, 4096]
    rows = []
    for name, dist in (("measured 4-stone jobs", long_jobs), ("jobs 16x smaller", short_jobs)):
        for n in ns:
            mk, tot = simulate(dist, n, service, max(a.jobs, 20 * n))
            rows.append((name, n, tot / (n * mk), n * service / statistics.mean(dist)))

    out = []
    out.append("# Scaling of the MPI opening search (`renju-mpi opening search`)\n")
    out.append("Measured on this project's machine (2 cores, shared with two running opening searches),")
    out.append("then modelled for larger runs. Produced by:\n")
    out.append("    bash scripts/bench-mpi.sh > bench.txt")
    out.append("    renju opening status I7 --db I7.lmdb --json > status.json")
    out.append("    scripts/scaling-model.py --bench bench.txt --status status.json\n")
    out.append("## Measured\n")
    out.append("*unknown*: 80 jobs of `\"I7 i8\" --goal w4 --job-nodes 200000` (almost all stay unknown);")
    out.append("*proven*: `\"h8 h9 i9 e11 i11 k5 j8\" --job-nodes 50000` to its proof (about 225 small jobs, most")
    out.append("proven, their proofs checked by the master: all of them are under its 16 KB sampling threshold).\n")
    out.append("| workload | workers | jobs/s | utilisation | master ms/job | proof check ms/job | commit ms/job | bytes/result | bytes/job msg | commits/s |")
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in runs:
        res = max(1, r["results"])
        out.append("| %s | %d | %.2f | %.0f%% | %.2f | %.2f | %.2f | %.0f | %.0f | %.1f |" % (
            r.get("workload", "?"), r["workers"], r["results"] / r["wall_s"], 100 * r["job_time_s"] / (r["workers"] * r["wall_s"]),
            1000 * r["master_busy_s"] / res, 1000 * r["master_check_s"] / res, 1000 * r["master_commit_s"] / res,
            r["bytes_in"] / res, r["bytes_out"] / max(1, r["jobs_sent"]), r["commits"] / r["wall_s"]))
    out.append("")
    out.append("Utilisation = the workers' job time / (workers x wall time). A result message carries the")
    out.append("outcome (with the job's child estimates) and every result to store with its proof; a job")
    out.append("message is the position (243 bytes). The master's time per job covers re-checking the")
    out.append("proofs, committing, saving the node's state (one LMDB commit each), updating the tree and")
    out.append("choosing the next job.\n")
    out.append("## Modelled\n")
    out.append("Job durations: the %d 4th-move jobs of the I7 search (`--job-nodes 2000000 --job-scale 4`:" % len(long_jobs))
    out.append("up to 3.2e7 work nodes), at %.1e work nodes/s: mean %.1f s, median %.1f s, max %.1f s;" % (
        a.rate, statistics.mean(long_jobs), statistics.median(long_jobs), max(long_jobs)))
    out.append("and the same distribution 16x smaller. Master: %.2f ms per job = %.2f ms measured without" % (1000 * service, 1000 * base))
    out.append("proofs + %.0f%% proven jobs x their two proofs of %.0f KB, one in %d re-checked at %.1f us per" % (
        100 * p_proven, proof_bytes / 1000, a.sample, 1e6 * check_per_byte))
    out.append("byte (large proofs, measured with `renju db verify` on the I7 4th-move proofs: 66 s for 5.24 MB;")
    out.append("the small proofs of the *proven* workload check at %.2f us per byte). `--master-check all`" % (
        1e6 * small_check_per_byte))
    out.append("would make it %.0f ms per job: the master would saturate near %.0f workers." % (
        1000 * (base + p_proven * check_per_byte * proof_bytes * 2),
        statistics.mean(long_jobs) / (base + p_proven * check_per_byte * proof_bytes * 2)))
    out.append("%d jobs per run (at least 20 per worker).\n" % a.jobs)
    out.append("| jobs | workers | efficiency | master load |")
    out.append("|---|---:|---:|---:|")
    for name, n, eff, load in rows:
        out.append("| %s | %d | %.1f%% | %.3f |" % (name, n, 100 * eff, load))
    out.append("")
    sat_long = statistics.mean(long_jobs) / service
    sat_short = statistics.mean(short_jobs) / service
    out.append("Master load = workers x master time / mean job time: the master saturates where it reaches 1,")
    out.append("at about %.0f workers for the measured jobs and %.0f for 16x smaller ones. Below that the" % (sat_long, sat_short))
    out.append("efficiency lost is the tail (workers idle while the last jobs of a run finish), which the")
    out.append("20-jobs-per-worker runs keep small; a real search keeps going (its tree widens), so the tail")
    out.append("is paid once per run, not per round. For comparison, job-level PNS on Connect6 reached 8.58x")
    out.append("on 16 cores (54%). Not modelled: the search overhead of picking several jobs at once.\n")
    out.append("What would move the ceiling: committing the state and results of several jobs in one LMDB")
    out.append("transaction (two commits per job now), updating only the ancestors of a finished job instead")
    out.append("of the whole tree, and bigger jobs (`--job-nodes`) for bigger clusters.")
    open(a.out, "w").write("\n".join(out) + "\n")

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("scaling-model: matplotlib missing (apt-get install python3-matplotlib): no plot", file=sys.stderr)
        return
    fig, ax = plt.subplots(figsize=(6.4, 4.0), dpi=100)
    for name in ("measured 4-stone jobs", "jobs 16x smaller"):
        xs = [n for nm, n, _, _ in rows if nm == name]
        ys = [100 * e for nm, _, e, _ in rows if nm == name]
        ax.plot(xs, ys, marker="o", label=name)
    ax.axhline(85, color="grey", linestyle="--", linewidth=0.8)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("workers")
    ax.set_ylabel("efficiency (%)")
    ax.set_ylim(0, 105)
    ax.set_title("renju-mpi opening search: modelled efficiency")
    ax.legend()
    fig.tight_layout()
    fig.savefig(a.plot, metadata={"Software": None})
    print("scaling-model: %s, %s" % (a.out, a.plot), file=sys.stderr)


if __name__ == "__main__":
    main()
