/*
 * progress.h - the one progress reporter of the long commands (solve, verify,
 * fifth, fair-n, batch run, opening search), on stderr.
 *
 * Modes (--progress MODE; --quiet is none):
 *   live   one status line rewritten in place ("\r" and erase-to-end-of-line),
 *          cleared when the run ends; every 0.5 s by default;
 *   plain  ordinary lines, the first after 1 s, then every 10 s by default
 *          (logs, pipes, batch systems);
 *   json   one JSON object per line, every 1 s by default, and a last one with
 *          "final":true when the run ends (keys: docs/cli.md "Progress");
 *   none   nothing;
 *   auto   (the default) live when stderr is a terminal (and TERM is not
 *          "dumb"), else plain; the opening search keeps its documented
 *          behaviour of JSON progress under --json.
 * --progress-interval SECONDS replaces the mode's interval.
 *
 * Reporting never changes what a search does: callers pass counts they have.
 * Thread safety: one Progress per run, used from one thread at a time.
 */
#ifndef RJ_PROGRESS_H
#define RJ_PROGRESS_H

#include <stdio.h>

#include "cli.h"

typedef enum {
    PROGRESS_AUTO = 0,
    PROGRESS_LIVE = 1,
    PROGRESS_PLAIN = 2,
    PROGRESS_JSON = 3,
    PROGRESS_NONE = 4
} ProgressMode;

/* Parse a mode name ("auto", "live", "plain", "json", "none") into *mode.  0, or -1 for another word. */
int progress_mode_parse(const char *s, int *mode);

typedef struct {
    FILE *f;
    ProgressMode mode; /* resolved: LIVE, PLAIN, JSON or NONE */
    const char *what;  /* the "progress" key: "solve", "fifth", "batch", "search", ... */
    double interval, t0, next;
    bool shown; /* a live line is on the screen */
    int lines;  /* reports written */
} Progress;

/* What a report says.  Counts that mean nothing for a command are -1 (left out). */
typedef struct {
    unsigned long long nodes; /* search nodes so far */
    long long done, total;    /* work items (positions, jobs) done and planned: an ETA when both are known */
    long long proven, disproven, unknown, from_db;
    bool have_root; /* root_pn / root_dn are meaningful */
    unsigned root_pn, root_dn;
    const char *text; /* extra words for live and plain lines, or NULL */
    const char *json; /* extra JSON members for json lines ("\"k\":1,\"m\":2", no braces), or NULL */
} ProgressInfo;

/* A ProgressInfo with every count -1 and nothing else set. */
ProgressInfo progress_info(void);

/*
 * Start a reporter for command `what` from the options in a (--progress,
 * --progress-interval, --quiet; json_auto: auto means json under --json).
 * Prints nothing.
 */
void progress_init(Progress *p, const CliArgs *a, const char *what, bool json_auto);

/* True when a report is due (the mode is not none and its interval has passed). */
bool progress_due(const Progress *p);

/* The interval the caller's own timer should use (e.g. DfpnConfig.progress_interval). */
double progress_interval(const Progress *p);

/* Write a report now (whatever the time) and schedule the next one. */
void progress_report(Progress *p, const ProgressInfo *in);

/* progress_report() when progress_due(). */
void progress_tick(Progress *p, const ProgressInfo *in);

/* Erase the live line (before other output on the same terminal); the next report redraws it. */
void progress_clear(Progress *p);

/*
 * The run ended: erase the live line; with last != NULL, plain writes a last
 * line and json a last object with "final":true.
 */
void progress_end(Progress *p, const ProgressInfo *last);

#endif /* RJ_PROGRESS_H */
