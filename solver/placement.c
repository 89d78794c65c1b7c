/* placement.c - see placement.h. */
#include "placement.h"

#include <omp.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

void place_record(Placement *p, int thread_num)
{
    if (thread_num >= 0 && thread_num < PLACE_MAX_THREADS)
        p->tid[thread_num] = (int)syscall(SYS_gettid);
}

/* True when tid is a thread of this process (signal 0 only checks). */
static bool own_thread(int tid) { return tid > 0 && syscall(SYS_tgkill, getpid(), tid, 0) == 0; }

void place_helpers_away(Placement *p, int nthreads)
{
    int n = nthreads < PLACE_MAX_THREADS ? nthreads : PLACE_MAX_THREADS;
    for (int i = 0; i < n; i++)
        p->moved[i] = false;
    p->cpu = -1;
    cpu_set_t allowed;
    if (n < 2 || omp_get_proc_bind() != omp_proc_bind_false || sched_getaffinity(0, sizeof allowed, &allowed) != 0)
        return;
    int cpu = sched_getcpu();
    if (cpu < 0 || !CPU_ISSET(cpu, &allowed) || CPU_COUNT(&allowed) < 2)
        return;
    for (int i = 1; i < n; i++) {
        cpu_set_t away;
        if (!own_thread(p->tid[i]) || sched_getaffinity(p->tid[i], sizeof p->mask[i], &p->mask[i]) != 0) {
            p->tid[i] = 0; /* not ours any more: forget it until it is recorded again */
            continue;
        }
        CPU_AND(&away, &p->mask[i], &allowed);
        CPU_CLR(cpu, &away);
        if (CPU_COUNT(&away) > 0 && sched_setaffinity(p->tid[i], sizeof away, &away) == 0) {
            p->moved[i] = true;
            p->cpu = cpu;
        }
    }
}

void place_restore(Placement *p, int nthreads)
{
    int n = nthreads < PLACE_MAX_THREADS ? nthreads : PLACE_MAX_THREADS;
    for (int i = 1; i < n; i++) {
        if (p->moved[i] && own_thread(p->tid[i]))
            sched_setaffinity(p->tid[i], sizeof p->mask[i], &p->mask[i]);
        p->moved[i] = false;
    }
}
