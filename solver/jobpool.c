/* jobpool.c - see jobpool.h. */
#include "jobpool.h"

#include <pthread.h>

#include "clock.h"
#include "error.h"

typedef struct {
    JobTree *t;
    const JobPoolConfig *c;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint64_t started;
    int err;
    bool interrupted;
} Pool;

typedef struct {
    Pool *p;
    int w;
} Worker;

static bool stopping(const Pool *p)
{
    if (p->err || p->interrupted)
        return true;
    if (p->c->stop && atomic_load(p->c->stop))
        return true;
    if (p->c->deadline > 0 && clock_now() >= p->c->deadline)
        return true;
    if (p->c->max_work && jt_stats(p->t)->nodes >= p->c->max_work)
        return true;
    return p->c->max_jobs && p->started >= p->c->max_jobs;
}

/* One worker's loop; the lock is held except while a job runs. */
static void *work(void *arg)
{
    Worker *wk = arg;
    Pool *p = wk->p;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        if (stopping(p))
            break;
        JtJob job;
        int rc = jt_next(p->t, &job);
        if (rc == RJ_ENOTFOUND) {
            if (jt_running(p->t) == 0)
                break;
            pthread_cond_wait(&p->cv, &p->mu);
            continue;
        }
        if (rc) {
            p->err = rc;
            break;
        }
        p->started++;
        pthread_mutex_unlock(&p->mu);
        JtOutcome o;
        rc = jobrun_run(&p->c->runners[wk->w], &job.board, job.budget, job.extend, job.extend_pn, job.look, &o);
        pthread_mutex_lock(&p->mu);
        if (rc == 0 && p->c->flush)
            rc = p->c->flush(p->c->flush_ctx);
        if (rc == RJ_EINTR) {
            jt_abandon(p->t, &job);
            p->interrupted = true;
        } else if (rc) {
            jt_abandon(p->t, &job);
            if (!p->err)
                p->err = rc;
        } else {
            rc = jt_done(p->t, &job, &o);
            if (rc && !p->err)
                p->err = rc;
            if (p->c->progress)
                p->c->progress(p->c->ctx, p->t, &job, &o);
        }
        pthread_cond_broadcast(&p->cv);
    }
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

int jobpool_run(JobTree *t, const JobPoolConfig *c)
{
    if (c->workers < 1 || !c->runners)
        return RJ_EBADARG;
    Pool p = { .t = t, .c = c };
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.cv, NULL);
    Worker wk[64];
    pthread_t th[64];
    int n = c->workers > 64 ? 64 : c->workers, started = 0;
    for (int i = 0; i < n; i++)
        wk[i] = (Worker){ &p, i };
    for (int i = 1; i < n; i++) {
        if (pthread_create(&th[i], NULL, work, &wk[i]))
            break;
        started++;
    }
    work(&wk[0]);
    for (int i = 1; i <= started; i++)
        pthread_join(th[i], NULL);
    pthread_cond_destroy(&p.cv);
    pthread_mutex_destroy(&p.mu);
    if (p.err)
        return p.err;
    return p.interrupted || (c->stop && atomic_load(c->stop)) ? RJ_EINTR : 0;
}
