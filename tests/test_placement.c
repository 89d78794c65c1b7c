/* test_placement.c - helper threads kept off the master's CPU for a region, then given their masks back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

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
    assert_true(p.moved[1]);
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
    assert_false(p.moved[1]);
    cpu_set_t after;
    CPU_ZERO(&after);
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 1)
            sched_getaffinity(0, sizeof after, &after);
    }
    assert_true(CPU_EQUAL(&after, &before[1]));
}

/* A recorded id that is not a thread of this process is dropped, never used. */
static void test_foreign_id_skipped(void **state)
{
    (void)state;
    if (!two_cpus()) {
        skip();
        return;
    }
    Placement p;
    memset(&p, 0, sizeof p);
    p.tid[1] = 1; /* init, another process */
    place_helpers_away(&p, 2);
    assert_false(p.moved[1]);
    assert_int_equal(p.tid[1], 0);
    place_restore(&p, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_helpers_moved_and_restored),
        cmocka_unit_test(test_foreign_id_skipped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
