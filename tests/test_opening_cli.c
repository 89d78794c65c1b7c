/* test_opening_cli.c - end to end against the built binaries: `renju fifth`,
 * `renju fair-n`, `renju batch plan|run` + `db merge`, resuming, SIGTERM, and
 * the MPI launcher (only when mpirun and renju-mpi exist).  Tiny budgets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "board.h"
#include "cli_run.h"
#include "fifth.h"
#include "notation.h"
#include "position.h"
#include "rules.h"
#include "sym.h"
#include "test_util.h"

static char g_dir[256];

static const char *path(const char *name) { return scratch_path(g_dir, name); }

/* Paths live in 8 rotating buffers: copy one that must outlive later calls. */

/* Run a shell command line built from fmt (binary paths spelled out by the caller); returns the exit code. */
static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
    char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* renju ARGS > out 2> stderr.txt */
#define RENJU(out, args, ...) sh("%s " args " >%s 2>%s", RJ_RENJU_BIN, __VA_ARGS__, out, path("stderr.txt"))

static char *slurp(const char *p)
{
    FILE *f = fopen(p, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = 0;
    fclose(f);
    return buf;
}

static long json_int(const char *s, const char *key)
{
    char k[64];
    snprintf(k, sizeof k, "\"%s\":", key);
    const char *p = strstr(s, k);
    assert_non_null(p);
    return strtol(p + strlen(k), NULL, 10);
}

typedef struct {
    int n;
    MoveClass cls[BOARD_POINTS];
    char status[BOARD_POINTS][12];
    bool from_db[BOARD_POINTS];
} Classes;

/* Parse the "classes" (fifth) or "fourth" (fair-n, members) arrays of one JSON object. */
static void parse_classes(const char *s, const char *key, Classes *c)
{
    c->n = 0;
    char k[64];
    snprintf(k, sizeof k, "\"%s\":[", key);
    const char *p = strstr(s, k);
    while ((p = strstr(p, key[0] == 'c' ? "{\"moves\":[" : "\"members\":[")) != NULL) {
        p = strchr(p, '[') + 1;
        MoveClass *m = &c->cls[c->n];
        m->n = 0;
        while (*p == '"') {
            Point q;
            int used;
            assert_int_equal(notation_parse_point(p + 1, &q, &used), 0);
            assert_true(m->n < NUM_SYMS);
            m->moves[m->n++] = q;
            p = strchr(p + 1, '"') + 1;
            if (*p == ',')
                p++;
        }
        assert_int_equal(*p, ']');
        if (key[0] == 'c') {
            const char *st = strstr(p, "\"status\":\"");
            assert_non_null(st);
            st += 10;
            size_t len = strcspn(st, "\"");
            assert_true(len < sizeof c->status[0]);
            memcpy(c->status[c->n], st, len);
            c->status[c->n][len] = 0;
            const char *fd = strstr(p, "\"from_db\":");
            assert_non_null(fd);
            c->from_db[c->n] = !strncmp(fd + 10, "true", 4);
        }
        c->n++;
    }
}

/* The classes printed equal fifth_move_classes() of b: every legal move exactly once, same orbits. */
static void check_classes_cover(Board *b, const Classes *c)
{
    MoveClass want[BOARD_POINTS];
    int n = fifth_move_classes(b, RULE_RENJU, want);
    assert_int_equal(c->n, n);
    int seen[BOARD_POINTS] = { 0 };
    for (int i = 0; i < n; i++) {
        assert_int_equal(c->cls[i].n, want[i].n);
        for (int j = 0; j < want[i].n; j++) {
            assert_int_equal(c->cls[i].moves[j], want[i].moves[j]);
            seen[c->cls[i].moves[j]]++;
        }
    }
    for (int p = 0; p < BOARD_POINTS; p++)
        assert_int_equal(seen[p], board_at(b, (Point)p) == EMPTY && rules_is_legal(b, (Point)p, RULE_RENJU) ? 1 : 0);
}

static void check_bounds(const char *json, const Classes *c)
{
    int proven = 0, disproven = 0;
    for (int i = 0; i < c->n; i++) {
        assert_true(!strcmp(c->status[i], "proven") || !strcmp(c->status[i], "disproven") ||
                    !strcmp(c->status[i], "unknown"));
        proven += !strcmp(c->status[i], "proven");
        disproven += !strcmp(c->status[i], "disproven");
    }
    long lo = json_int(json, "wins_min"), hi = json_int(json, "wins_max");
    assert_true(lo <= hi);
    assert_int_equal(lo, proven);
    assert_int_equal(hi, c->n - disproven);
}

/* A real 4-stone position (D1 + white h11: every stone on the h file, stabiliser of order 2). */
static const char *FOUR = "D1 h11";
/* Black g8 h8 i8, white h7 h9 (stabiliser of order 4), black to move: f8/j8 make an open four. */
static const char *THREE = "B:g8,h8,i8 W:h7,h9";

static Classes g_c, g_c2;

static void test_fifth_four_stones(void **state)
{
    (void)state;
    assert_int_equal(RENJU(path("f.json"), "fifth '%s' --nodes 1 --per-class --json --quiet", FOUR), 0);
    char *j = slurp(path("f.json"));
    assert_non_null(strstr(j, "\"four_stones\":true"));
    Board b = parse_pos(FOUR, EMPTY);
    parse_classes(j, "classes", &g_c);
    check_classes_cover(&b, &g_c);
    assert_true(g_c.n > 100 && g_c.n < 130); /* one mirror: about half of the 221 legal moves */
    check_bounds(j, &g_c);
    free(j);
    /* Human-readable output names the interval. */
    assert_int_equal(RENJU(path("f.txt"), "fifth '%s' --nodes 1 --per-class --quiet", FOUR), 0);
    j = slurp(path("f.txt"));
    assert_non_null(strstr(j, "W in ["));
    free(j);
}

static void test_fifth_wins_and_resume(void **state)
{
    (void)state;
    char db[512];
    snprintf(db, sizeof db, "%s", path("fifth.lmdb"));
    assert_int_equal(RENJU(path("w.json"), "fifth '%s' --to-move black --nodes 1 --per-class --db %s --json --quiet",
                           THREE, db),
                     0);
    char *j = slurp(path("w.json"));
    Board b = parse_pos(THREE, BLACK);
    parse_classes(j, "classes", &g_c);
    check_classes_cover(&b, &g_c);
    check_bounds(j, &g_c);
    /* The open four f8 (same class as j8) is an immediate win. */
    bool found = false;
    for (int i = 0; i < g_c.n; i++) {
        assert_false(g_c.from_db[i]);
        char s[8];
        if (!strcmp(notation_point_str(g_c.cls[i].moves[0], s), "f8")) {
            assert_string_equal(g_c.status[i], "proven");
            assert_int_equal(g_c.cls[i].n, 2);
            found = true;
        }
    }
    assert_true(found);
    assert_true(json_int(j, "wins_min") >= 1);
    free(j);
    /* Rerun: every class comes from the DB (proven ones and effort records), same statuses. */
    assert_int_equal(RENJU(path("w2.json"), "fifth '%s' --to-move black --nodes 1 --per-class --db %s --json --quiet",
                           THREE, db),
                     0);
    j = slurp(path("w2.json"));
    parse_classes(j, "classes", &g_c2);
    assert_int_equal(g_c2.n, g_c.n);
    for (int i = 0; i < g_c.n; i++) {
        assert_true(g_c2.from_db[i]);
        assert_string_equal(g_c2.status[i], g_c.status[i]);
    }
    assert_int_equal(json_int(j, "nodes"), 0);
    free(j);
    /* Stored proofs check independently. */
    assert_int_equal(RENJU("/dev/null", "db verify --db %s", db), 0);
    /* A larger budget searches the unknown classes again (but not the proven ones). */
    assert_int_equal(RENJU(path("w3.json"), "fifth '%s' --to-move black --nodes 300 --per-class --db %s --json --quiet",
                           THREE, db),
                     0);
    j = slurp(path("w3.json"));
    parse_classes(j, "classes", &g_c2);
    for (int i = 0; i < g_c.n; i++)
        assert_int_equal(g_c2.from_db[i], strcmp(g_c.status[i], "unknown") != 0);
    free(j);
}

static void test_fifth_errors(void **state)
{
    (void)state;
    assert_int_equal(RENJU("/dev/null", "fifth D4 --nodes 1 --no-db%s", ""), 65);   /* white to move */
    assert_int_equal(RENJU("/dev/null", "fifth 'D4 zz' --nodes 1 --no-db%s", ""), 65);
    assert_int_equal(RENJU("/dev/null", "fifth%s", ""), 64);
    assert_int_equal(RENJU("/dev/null", "fifth '%s' --per-class=3", FOUR), 64);
    assert_int_equal(RENJU("/dev/null", "fair-n '%s' --no-db", FOUR), 65);         /* black to move */
    assert_int_equal(RENJU("/dev/null", "fair-n D4 --fourth zz --no-db%s", ""), 64);
}

static void test_fifth_interrupt(void **state)
{
    (void)state;
    char db[512];
    snprintf(db, sizeof db, "%s", path("intr.lmdb"));
    /* Signalled once its first progress line shows a position done: the run (every class of FOUR at
     * 100000 nodes) is far from its end then, and its handlers are installed. */
    pid_t pid = run_until(path("i.json"), path("i.err"), " positions, ", "fifth", FOUR, "--nodes", "100000",
                          "--per-class", "--db", db, "--json", NULL);
    kill(pid, SIGTERM);
    assert_int_equal(run_wait(pid), 75);
    char *j = slurp(path("i.json"));
    assert_non_null(strstr(j, "\"interrupted\":true"));
    parse_classes(j, "classes", &g_c);
    Board b = parse_pos(FOUR, EMPTY);
    check_classes_cover(&b, &g_c); /* partial output still lists every class */
    check_bounds(j, &g_c);
    free(j);
    /* What was finished is stored (an unknown after 100000 nodes only if a class finished). */
    assert_int_equal(RENJU(path("st.txt"), "db stats --db %s", db), 0);
}

static void test_fair_n(void **state)
{
    (void)state;
    /* White to move (3 black, 2 white); only the 4th-move class h10 is searched. */
    assert_int_equal(RENJU(path("n.json"), "fair-n '%s' --fourth h10 --nodes 1 --per-class --no-db --json --quiet", THREE), 0);
    char *j = slurp(path("n.json"));
    Board b = parse_pos(THREE, EMPTY);
    assert_int_equal(b.to_move, WHITE);
    parse_classes(j, "fourth", &g_c);
    check_classes_cover(&b, &g_c);
    /* Bounds per 4th class, and N_fair = 1 + min over the classes. */
    const char *p = strstr(j, "\"fourth\":[");
    int lo = 1 << 30, hi = 1 << 30, searched = 0;
    for (int i = 0; i < g_c.n; i++) {
        p = strstr(p, "\"fifth_classes\":");
        assert_non_null(p);
        int nf = (int)json_int(p, "fifth_classes"), wmin = (int)json_int(p, "wins_min"),
            wmax = (int)json_int(p, "wins_max");
        bool s = !strncmp(strstr(p, "\"searched\":") + 11, "true", 4);
        assert_true(0 <= wmin && wmin <= wmax && wmax <= nf);
        /* Check nfifth against the library: the classes after the representative. */
        board_play(&b, g_c.cls[i].moves[0]);
        MoveClass tmp[BOARD_POINTS];
        assert_int_equal(nf, fifth_move_classes(&b, RULE_RENJU, tmp));
        board_undo(&b);
        bool has_h10 = false;
        for (int k = 0; k < g_c.cls[i].n; k++)
            has_h10 |= g_c.cls[i].moves[k] == point_make(7, 9);
        assert_int_equal(s, has_h10);
        if (!s) {
            assert_int_equal(wmin, 0);
            assert_int_equal(wmax, nf);
        } else {
            searched++;
            assert_true(wmin >= 1); /* f8 / j8: an open four */
        }
        lo = wmin < lo ? wmin : lo;
        hi = wmax < hi ? wmax : hi;
        p++;
    }
    assert_int_equal(searched, 1);
    long nmin = json_int(j, "n_fair_min"), nmax = json_int(j, "n_fair_max");
    assert_true(nmin <= nmax);
    assert_int_equal(nmin, 1 + lo);
    assert_int_equal(nmax, 1 + hi);
    free(j);
}

/* Canonical key text of a plan line, for duplicate checks. */
static void plan_keys(const char *plan, int *count, bool *dups)
{
    char *text = slurp(plan);
    assert_int_equal(strncmp(text, "renju-plan 1 rules=renju\n", 25), 0);
    int n = 0, cap = 8192;
    SymKey *keys = malloc(sizeof *keys * (size_t)cap);
    *dups = false;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#' || !strncmp(line, "renju-plan", 10))
            continue;
        assert_true(line[0] == 'b' || line[0] == 'w');
        Board b = parse_pos(line + 2, line[0] == 'b' ? BLACK : WHITE);
        if (n == cap) {
            cap *= 2;
            keys = realloc(keys, sizeof *keys * (size_t)cap);
        }
        sym_canonical(&b, RULE_RENJU, &keys[n], NULL);
        for (int i = 0; i < n && !*dups; i++)
            *dups = !memcmp(keys[i].b, keys[n].b, SYMKEY_LEN);
        n++;
    }
    free(keys);
    free(text);
    *count = n;
}

/* db export without the time stamps (which differ between runs). */
static char *export_no_time(const char *db, const char *out)
{
    assert_int_equal(sh("%s db export --db %s --quiet | sed 's/\"time\":[0-9]*//' >%s", RJ_RENJU_BIN, db, out), 0);
    return slurp(out);
}

static void test_batch(void **state)
{
    (void)state;
    /* Depth 1 from a 4-stone position: one line per 5th-move class. */
    assert_int_equal(RENJU(path("out.txt"), "batch plan '%s' --out %s", FOUR, path("four.plan")), 0);
    int n;
    bool dups;
    plan_keys(path("four.plan"), &n, &dups);
    Board b = parse_pos(FOUR, EMPTY);
    MoveClass cls[BOARD_POINTS];
    assert_int_equal(n, fifth_move_classes(&b, RULE_RENJU, cls));
    assert_false(dups);
    /* Depth 2 from a symmetric "opening": no two lines symmetric. */
    assert_int_equal(RENJU(path("out.txt"), "batch plan '%s' --depth 2 --out %s", THREE, path("deep.plan")), 0);
    plan_keys(path("deep.plan"), &n, &dups);
    assert_false(dups);
    assert_true(n > 3000);
    /* A small plan: the first 7 lines of the deep plan plus positions with immediate wins. */
    assert_int_equal(sh("head -9 %s >%s && printf 'w B:f8,g8,h8,i8 W:h7,h9,h10,a1\\nw B:f8,g8,h8,i8 W:h7,h9,h10\\n' >>%s",
                        path("deep.plan"), path("small.plan"), path("small.plan")),
                     0);
    char plan[512];
    snprintf(plan, sizeof plan, "%s", path("small.plan"));
    assert_int_equal(RENJU(path("single.json"), "batch run %s --db %s --nodes 1 --json --quiet", plan,
                           path("single.lmdb")),
                     0);
    char *j = slurp(path("single.json"));
    assert_int_equal(json_int(strstr(j, "\"summary\""), "positions"), 9);
    assert_int_equal(json_int(strstr(j, "\"summary\""), "done"), 9);
    assert_true(json_int(strstr(j, "\"summary\""), "proven") >= 1);
    free(j);
    assert_int_equal(RENJU(path("s0.json"), "batch run %s --shard 0/2 --db %s --nodes 1 --json --quiet", plan,
                           path("s0.lmdb")),
                     0);
    assert_int_equal(RENJU(path("s1.json"), "batch run %s --shard 1/2 --db %s --nodes 1 --json --quiet", plan,
                           path("s1.lmdb")),
                     0);
    j = slurp(path("s0.json"));
    assert_int_equal(json_int(strstr(j, "\"summary\""), "positions"), 5);
    free(j);
    assert_int_equal(RENJU("/dev/null", "db merge %s %s %s", path("merged.lmdb"), path("s0.lmdb"), path("s1.lmdb")), 0);
    char *a = export_no_time(path("single.lmdb"), path("single.jsonl"));
    char *m = export_no_time(path("merged.lmdb"), path("merged.jsonl"));
    assert_string_equal(a, m);
    free(m);
    /* Resume: a rerun of a shard finds everything stored. */
    assert_int_equal(RENJU(path("s0b.json"), "batch run %s --shard 0/2 --db %s --nodes 1 --json --quiet", plan,
                           path("s0.lmdb")),
                     0);
    j = slurp(path("s0b.json"));
    assert_int_equal(json_int(strstr(j, "\"summary\""), "from_db"), 5);
    assert_int_equal(json_int(strstr(j, "\"summary\""), "nodes"), 0);
    free(j);
    /* Errors: missing plan, bad shard, not a plan. */
    assert_int_equal(RENJU("/dev/null", "batch run %s --db %s", path("nope.plan"), path("x.lmdb")), 66);
    assert_int_equal(RENJU("/dev/null", "batch run %s --shard 2/2 --db %s", plan, path("x.lmdb")), 64);
    assert_int_equal(RENJU("/dev/null", "batch run %s --shard x --db %s", plan, path("x.lmdb")), 64);
    assert_int_equal(RENJU("/dev/null", "batch run %s --db %s", path("single.json"), path("x.lmdb")), 65);
    assert_int_equal(sh("printf 'renju-plan 1 rules=renju\\nw B:h8 W:h8\\n' >%s", path("bad.plan")), 0);
    assert_int_equal(RENJU("/dev/null", "batch run %s --db %s", path("bad.plan"), path("x.lmdb")), 65);
    assert_int_equal(RENJU("/dev/null", "batch frobnicate%s", ""), 64);

    free(a);
}

static void test_mpi(void **state)
{
    (void)state;
#ifdef RJ_RENJU_MPI_BIN
    if (sh("command -v mpirun >/dev/null 2>&1") != 0) {
        print_message("mpirun not found: MPI launcher test skipped\n");
        skip();
    }
    /* The small plan of test_batch over 2 ranks equals the single run. */
    /* Open MPI's plug-ins leak at exit: keep LeakSanitizer quiet in sanitizer builds. */
    assert_int_equal(sh("mkdir -p %s && ASAN_OPTIONS=detect_leaks=0 mpirun --allow-run-as-root --oversubscribe -np 2 %s %s --out %s --nodes 1 "
                        "--quiet >%s 2>&1",
                        path("mpi"), RJ_RENJU_MPI_BIN, path("small.plan"), path("mpi/merged.lmdb"), path("mpi.log")),
                     0);
    char *a = slurp(path("single.jsonl"));
    char *m = export_no_time(path("mpi/merged.lmdb"), path("mpi.jsonl"));
    assert_true(strlen(a) > 0);
    assert_string_equal(a, m);
    free(m);
    free(a);
    /* Both shard DBs were written next to the output. */
    assert_int_equal(sh("test -f %s && test -f %s", path("mpi/shard-0.lmdb"), path("mpi/shard-1.lmdb")), 0);
#else
    print_message("renju-mpi not built (CMake found no MPI): MPI launcher test skipped\n");
    skip();
#endif
}

static int setup_dir(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/rj_test_opening_cli.XXXXXX");
    if (!mkdtemp(g_dir))
        return -1;
    /* Never touch a default database of the user running the tests. */
    return setenv("RENJU_DB", path("default-never-created.lmdb"), 1);
}

static int teardown_dir(void **state)
{
    (void)state;
    char cmd[700];
    if (getenv("RJ_KEEP_TEST_DIR"))
        return 0;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    rules_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fifth_four_stones),
        cmocka_unit_test(test_fifth_wins_and_resume),
        cmocka_unit_test(test_fifth_errors),
        cmocka_unit_test(test_fifth_interrupt),
        cmocka_unit_test(test_fair_n),
        cmocka_unit_test(test_batch),
        cmocka_unit_test(test_mpi),
    };
    return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
