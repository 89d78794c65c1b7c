/* placement.c - see placement.h. */
#include "placement.h"

#include <omp.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

void place_record(Placement *p, int thread_num)
{
    if (thread_num >= 0 && thread_num < PLACE_MAX_THREADS)
        atomic_store_explicit(&p->tid[thread_num], (int)syscall(SYS_gettid), memory_order_relaxed);
}

/* True when tid is a thread of this process (signal 0 only checks). */
static bool own_thread(int tid) { return tid > 0 && syscall(SYS_tgkill, getpid(), tid, 0) == 0; }

void place_helpers_away(Placement *p, int nthreads)
{
    int n = nthreads < PLACE_MAX_THREADS ? nthreads : PLACE_MAX_THREADS;
    for (int i = 0; i < n; i++)
        p->moved_tid[i] = 0;
    p->cpu = -1;
    cpu_set_t allowed;
    /* The recorded helpers are the pool of the caller only if the caller was their thread 0. */
    int self = (int)syscall(SYS_gettid);
    if (n < 2 || omp_in_parallel() || atomic_load_explicit(&p->tid[0], memory_order_relaxed) != self ||
        omp_get_proc_bind() != omp_proc_bind_false || sched_getaffinity(0, sizeof allowed, &allowed) != 0)
        return;
    int cpu = sched_getcpu();
    if (cpu < 0 || !CPU_ISSET(cpu, &allowed) || CPU_COUNT(&allowed) < 2)
        return;
    for (int i = 1; i < n; i++) {
        int tid = atomic_load_explicit(&p->tid[i], memory_order_relaxed);
        cpu_set_t away;
        if (tid == self || !own_thread(tid) || sched_getaffinity(tid, sizeof p->mask[i], &p->mask[i]) != 0) {
            atomic_store_explicit(&p->tid[i], 0, memory_order_relaxed); /* not a helper of ours now */
            continue;
        }
        CPU_AND(&away, &p->mask[i], &allowed);
        CPU_CLR(cpu, &away);
        if (CPU_COUNT(&away) > 0 && sched_setaffinity(tid, sizeof away, &away) == 0) {
            p->moved_tid[i] = tid;
            p->cpu = cpu;
        }
    }
}

void place_restore(Placement *p, int nthreads)
{
    int n = nthreads < PLACE_MAX_THREADS ? nthreads : PLACE_MAX_THREADS;
    for (int i = 1; i < n; i++) {
        if (p->moved_tid[i] && own_thread(p->moved_tid[i]))
            sched_setaffinity(p->moved_tid[i], sizeof p->mask[i], &p->mask[i]);
        p->moved_tid[i] = 0;
    }
}
