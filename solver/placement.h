/*
 * placement.h - keep a parallel solve's helper threads off the CPU of the
 * thread that starts it.
 *
 * OpenMP's pooled threads sleep between parallel regions.  When the master
 * wakes them for the next region, Linux may place a woken thread on the
 * master's own CPU, where it preempts the master until the next load balance
 * moves one of them to an idle CPU: on this project's 2-vCPU VM that was one
 * scheduler tick (4 ms) in most 2-thread solves, the master entering the
 * region 0-8 ms late (solver-bench.md).  So before a region the master
 * narrows each helper's CPU mask to its own allowed CPUs minus the one it
 * runs on, and widens it back after: a helper then wakes on another CPU and
 * the master runs on at once.  The master itself is never pinned.
 *
 * Helpers are named by the OS thread ids they recorded in the previous
 * region (libgomp keeps the same pooled threads for a team of the same size,
 * one pool per calling thread): nothing is moved unless the caller is the
 * thread that was thread 0 of that region and is not itself inside a
 * parallel region.  An id that is no longer a thread of this process is
 * skipped (tgkill with signal 0), so no other process's thread is ever
 * touched.  The ids moved are kept apart from the ones recorded meanwhile,
 * and each of those threads gets its own mask back.  Nothing is moved when the user binds OpenMP's threads
 * (OMP_PROC_BIND) or the master may run on one CPU only.  Everything here is
 * a hint: any failure leaves the masks as they were.
 */
#ifndef RJ_PLACEMENT_H
#define RJ_PLACEMENT_H

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>

enum { PLACE_MAX_THREADS = 64 };

typedef struct {
    /* OS thread id of OpenMP thread i as last recorded (0: none); written by thread i in a region. */
    _Atomic int tid[PLACE_MAX_THREADS];
    int moved_tid[PLACE_MAX_THREADS];  /* the thread moved as helper i (0: none) */
    cpu_set_t mask[PLACE_MAX_THREADS]; /* its own mask before it was moved */
    int cpu;                           /* the CPU they were moved off (-1: none) */
} Placement;

/* Record the calling OpenMP thread (number thread_num) in p; call it inside a region. */
void place_record(Placement *p, int thread_num);

/* Before a region of nthreads threads: move the recorded helpers off the caller's CPU. */
void place_helpers_away(Placement *p, int nthreads);

/* After the region: give the helpers moved by place_helpers_away their own masks back. */
void place_restore(Placement *p, int nthreads);

#endif /* RJ_PLACEMENT_H */
