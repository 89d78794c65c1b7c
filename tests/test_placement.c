/* test_placement.c - helper threads kept off the master's CPU for a region, then given their masks back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "placement.h"

/* True when this process may run on two CPUs or more and OpenMP may start two threads. */
static bool two_cpus(void)
{
    cpu_set_t m;
    return sched_getaffinity(0, sizeof m, &m) == 0 && CPU_COUNT(&m) >= 2 && omp_get_max_threads() >= 2 &&
           omp_get_proc_bind() == omp_proc_bind_false;
}

static void test_helpers_moved_and_restored(void **state)
{
    (void)state;
    if (!two_cpus()) {
        skip(); /* one CPU or bound threads: nothing is placed */
        return;
    }
    Placement p;
    memset(&p, 0, sizeof p);
    cpu_set_t before[2];
#pragma omp parallel num_threads(2)
    {
        place_record(&p, omp_get_thread_num());
        sched_getaffinity(0, sizeof before[0], &before[omp_get_thread_num()]);
    }
    assert_true(p.tid[1] > 0);
    place_helpers_away(&p, 2);
    assert_true(p.moved_tid[1] == p.tid[1]);
    assert_true(p.cpu >= 0);
    cpu_set_t during;
    CPU_ZERO(&during);
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 1)
            sched_getaffinity(0, sizeof during, &during);
    }
    /* The helper may run anywhere the master's mask allows but on the master's CPU. */
    assert_false(CPU_ISSET(p.cpu, &during));
    assert_true(CPU_COUNT(&during) >= 1);
    place_restore(&p, 2);
    assert_int_equal(p.moved_tid[1], 0);
    cpu_set_t after;
    CPU_ZERO(&after);
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 1)
            sched_getaffinity(0, sizeof after, &after);
    }
    assert_true(CPU_EQUAL(&after, &before[1]));
}

/* Record a 2-thread team led by the calling thread (the test is skipped without two CPUs). */
static void record_team(Placement *p)
{
    if (!two_cpus())
        skip(); /* ends the test */
    memset(p, 0, sizeof *p);
#pragma omp parallel num_threads(2)
    place_record(p, omp_get_thread_num());
}

/* A recorded id that is not a thread of this process is dropped, never used. */
static void test_foreign_id_skipped(void **state)
{
    (void)state;
    Placement p;
    record_team(&p);
    /* An id no thread of this process has (in a PID namespace even 1 can be ours). */
    int foreign = 0;
    for (int t = 4194303; t > 1 && !foreign; t--)
        if (syscall(SYS_tgkill, getpid(), t, 0) != 0)
            foreign = t;
    assert_true(foreign > 0);
    p.tid[1] = foreign;
    place_helpers_away(&p, 2);
    assert_int_equal(p.moved_tid[1], 0);
    assert_int_equal(p.tid[1], 0);
    place_restore(&p, 2);
}

static void *place_from_other_thread(void *arg)
{
    Placement *p = arg;
    place_helpers_away(p, 2);
    return NULL;
}

/*
 * The recorded team belongs to the thread that led it (libgomp keeps a pool
 * per calling thread): another caller moves nothing, and one inside a
 * parallel region neither.
 */
static void test_other_caller_moves_nothing(void **state)
{
    (void)state;
    Placement p;
    record_team(&p);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, place_from_other_thread, &p), 0);
    assert_int_equal(pthread_join(th, NULL), 0);
    assert_int_equal(p.moved_tid[1], 0);
    int moved_inside = -1;
#pragma omp parallel num_threads(2)
    {
#pragma omp single
        {
            place_helpers_away(&p, 2);
            moved_inside = p.moved_tid[1];
        }
    }
    assert_int_equal(moved_inside, 0);
    /* The leader itself, outside any region, does move the helper. */
    record_team(&p);
    place_helpers_away(&p, 2);
    assert_true(p.moved_tid[1] > 0);
    place_restore(&p, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_helpers_moved_and_restored),
        cmocka_unit_test(test_foreign_id_skipped),
        cmocka_unit_test(test_other_caller_moves_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
