/*
 * jobpool.h - run the opening-level search (jobtree.h) on local worker
 * threads: the dispatcher between the tree (the master logic) and the job
 * runners (jobrun.h).  The MPI master is another dispatcher over the same
 * tree calls.
 *
 * Every worker takes the next job from the tree under one lock, runs it
 * outside the lock with its own JobRunner (own df-pn solver), then, under the
 * lock again, flushes the results store (so the tree's proof composition sees
 * the job's proof) and reports the outcome.  With one worker the jobs run in
 * the calling thread, one at a time, deterministically for a node budget.
 *
 * Stopping: the runners' df-pn stop flag (DfpnConfig.stop) set by a signal
 * ends the running jobs (their results are dropped: a partial job is not
 * effort) and the run; the deadline, max_jobs and max_work only stop new
 * jobs from starting (the running ones finish within their budget, so a run
 * can end up to a job's budget per worker past max_work).
 */
#ifndef RJ_JOBPOOL_H
#define RJ_JOBPOOL_H

#include <stdatomic.h>

#include "jobrun.h"
#include "jobtree.h"

typedef struct {
    int workers;             /* >= 1 */
    JobRunner *runners;      /* one per worker */
    atomic_bool *stop;       /* the flag the runners' solvers watch (may be NULL) */
    double deadline;         /* monotonic seconds (clock_now, core/clock.h), 0: none */
    uint64_t max_jobs;       /* jobs to start, 0: no limit */
    uint64_t max_work;       /* no job starts once the finished jobs spent this many work nodes, 0: no limit */
    /* Commit the runners' queued results (may be NULL); called under the lock before jt_done. */
    int (*flush)(void *flush_ctx);
    void *flush_ctx;
    /* After each job (may be NULL), under the lock. */
    void (*progress)(void *ctx, JobTree *t, const JtJob *job, const JtOutcome *o);
    void *ctx;
} JobPoolConfig;

/*
 * Run jobs until the goal is met, the tree has no open leaf, the deadline,
 * max_jobs or max_work is reached, or the stop flag is set.  Returns 0, RJ_EINTR (the stop
 * flag), or the first error of the tree, a runner or flush (the other
 * workers then stop after their job).
 */
int jobpool_run(JobTree *t, const JobPoolConfig *c);

#endif /* RJ_JOBPOOL_H */
