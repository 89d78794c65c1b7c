/*
 * clock.h - the monotonic clock that times searches, budgets, deadlines and
 * progress lines in every layer.
 */
#ifndef RJ_CLOCK_H
#define RJ_CLOCK_H

/*
 * Seconds on the monotonic clock (CLOCK_MONOTONIC) from an arbitrary fixed
 * point: only differences mean anything, and they never go backwards when
 * the wall clock is set.  Thread-safe and async-signal-safe.
 */
double clock_now(void);

#endif /* RJ_CLOCK_H */
