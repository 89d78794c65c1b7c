/* progress.c - see progress.h. */
#include "progress.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"

static const char *const MODE_NAMES[] = {"auto", "live", "plain", "json", "none"};

int progress_mode_parse(const char *s, int *mode)
{
    for (int i = 0; i < (int)(sizeof MODE_NAMES / sizeof MODE_NAMES[0]); i++)
        if (!strcmp(s, MODE_NAMES[i])) {
            *mode = i;
            return 0;
        }
    return -1;
}

ProgressInfo progress_info(void)
{
    return (ProgressInfo){.done = -1, .total = -1, .proven = -1, .disproven = -1, .unknown = -1, .from_db = -1};
}

void progress_init(Progress *p, const CliArgs *a, const char *what, bool json_auto)
{
    memset(p, 0, sizeof *p);
    p->f = stderr;
    p->what = what;
    ProgressMode m = (ProgressMode)a->progress;
    if (a->quiet)
        m = PROGRESS_NONE;
    if (m == PROGRESS_AUTO) {
        const char *term = getenv("TERM");
        if (json_auto && a->json)
            m = PROGRESS_JSON;
        else if (isatty(fileno(stderr)) && !(term && !strcmp(term, "dumb")))
            m = PROGRESS_LIVE;
        else
            m = PROGRESS_PLAIN;
    }
    p->mode = m;
    p->interval = a->progress_interval > 0 ? a->progress_interval
                  : m == PROGRESS_LIVE     ? 0.5
                  : m == PROGRESS_PLAIN    ? 10.0
                                           : 1.0;
    p->t0 = clock_now();
    /* A log shows early that the run started; then the mode's interval. */
    p->next = p->t0 + (p->interval < 1.0 ? p->interval : 1.0);
}

bool progress_due(const Progress *p) { return p->mode != PROGRESS_NONE && clock_now() >= p->next; }

double progress_interval(const Progress *p) { return p->interval < 1.0 ? p->interval : 1.0; }

/* "1h02m", "3m05s", "12.3s". */
static char *duration(double s, char *buf, size_t len)
{
    if (s < 60)
        snprintf(buf, len, "%.1fs", s);
    else if (s < 3600)
        snprintf(buf, len, "%dm%02ds", (int)(s / 60), (int)s % 60);
    else
        snprintf(buf, len, "%dh%02dm", (int)(s / 3600), (int)(s / 60) % 60);
    return buf;
}

/* "1234", "12.3k", "4.56M", "7.89G". */
static char *count(double v, char *buf, size_t len)
{
    if (v < 1e4)
        snprintf(buf, len, "%.0f", v);
    else if (v < 1e6)
        snprintf(buf, len, "%.1fk", v / 1e3);
    else if (v < 1e9)
        snprintf(buf, len, "%.2fM", v / 1e6);
    else
        snprintf(buf, len, "%.2fG", v / 1e9);
    return buf;
}

static void json_line(Progress *p, const ProgressInfo *in, double el, double rate, double eta, bool final)
{
    FILE *f = p->f;
    fprintf(f, "{\"progress\":\"%s\",\"elapsed_s\":%.3f,\"nodes\":%llu,\"nodes_per_s\":%.0f", p->what, el, in->nodes,
            rate);
    if (in->done >= 0)
        fprintf(f, ",\"done\":%lld", in->done);
    if (in->total >= 0)
        fprintf(f, ",\"total\":%lld", in->total);
    if (eta >= 0)
        fprintf(f, ",\"eta_s\":%.1f", eta);
    if (in->proven >= 0)
        fprintf(f, ",\"proven\":%lld", in->proven);
    if (in->disproven >= 0)
        fprintf(f, ",\"disproven\":%lld", in->disproven);
    if (in->unknown >= 0)
        fprintf(f, ",\"unknown\":%lld", in->unknown);
    if (in->from_db >= 0)
        fprintf(f, ",\"from_db\":%lld", in->from_db);
    if (in->have_root)
        fprintf(f, ",\"root_pn\":%u,\"root_dn\":%u", in->root_pn, in->root_dn);
    if (in->json && in->json[0])
        fprintf(f, ",%s", in->json);
    fprintf(f, ",\"final\":%s}\n", final ? "true" : "false");
}

/* Append printf-style text at line[*n] (size len), cut to fit. */
static void add(char *line, size_t len, size_t *n, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void add(char *line, size_t len, size_t *n, const char *fmt, ...)
{
    if (*n >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(line + *n, len - *n, fmt, ap);
    va_end(ap);
    if (k > 0)
        *n += (size_t)k;
}

static void text_line(Progress *p, const ProgressInfo *in, double el, double rate, double eta)
{
    char line[1024], a[32], b[32];
    size_t n = 0;
    add(line, sizeof line, &n, "%s: ", p->what);
    if (in->done >= 0 && in->total >= 0)
        add(line, sizeof line, &n, "%lld/%lld positions, ", in->done, in->total);
    if (in->proven >= 0)
        add(line, sizeof line, &n, "%lld proven, ", in->proven);
    if (in->disproven >= 0)
        add(line, sizeof line, &n, "%lld disproven, ", in->disproven);
    if (in->unknown >= 0)
        add(line, sizeof line, &n, "%lld unknown, ", in->unknown);
    if (in->from_db >= 0)
        add(line, sizeof line, &n, "%lld from db, ", in->from_db);
    add(line, sizeof line, &n, "nodes %s (%s/s)", count((double)in->nodes, a, sizeof a), count(rate, b, sizeof b));
    if (in->have_root)
        add(line, sizeof line, &n, " root pn %u dn %u", in->root_pn, in->root_dn);
    if (in->text && in->text[0])
        add(line, sizeof line, &n, ", %s", in->text);
    add(line, sizeof line, &n, ", %s", duration(el, a, sizeof a));
    if (eta >= 0)
        add(line, sizeof line, &n, ", ETA %s", duration(eta, b, sizeof b));
    if (n >= sizeof line)
        n = sizeof line - 1;
    if (p->mode == PROGRESS_LIVE) {
        fprintf(p->f, "\r%s\033[K", line);
        p->shown = true;
    } else {
        fprintf(p->f, "%s\n", line);
    }
}

static void report(Progress *p, const ProgressInfo *in, bool final)
{
    double now = clock_now(), el = now - p->t0;
    double rate = el > 0 ? (double)in->nodes / el : 0;
    double eta = -1;
    if (in->done > 0 && in->total > in->done)
        eta = el * (double)(in->total - in->done) / (double)in->done;
    if (p->mode == PROGRESS_JSON)
        json_line(p, in, el, rate, eta, final);
    else
        text_line(p, in, el, rate, eta);
    fflush(p->f);
    p->lines++;
    p->next = now + p->interval;
}

void progress_report(Progress *p, const ProgressInfo *in)
{
    if (p->mode != PROGRESS_NONE)
        report(p, in, false);
}

void progress_tick(Progress *p, const ProgressInfo *in)
{
    if (progress_due(p))
        report(p, in, false);
}

void progress_clear(Progress *p)
{
    if (p->shown) {
        fputs("\r\033[K", p->f);
        fflush(p->f);
        p->shown = false;
    }
}

void progress_end(Progress *p, const ProgressInfo *last)
{
    progress_clear(p);
    /* A plain log gets a last line only when it has others (short runs stay quiet). */
    if (last && ((p->mode == PROGRESS_PLAIN && p->lines > 0) || p->mode == PROGRESS_JSON))
        report(p, last, p->mode == PROGRESS_JSON);
}
