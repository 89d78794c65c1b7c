/* exchange.c - see exchange.h. */
#include "exchange.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "error.h"
#include "names.h"
#include "notation.h"
#include "position.h"

/* Append the stone list of colour c ("h8,j10") to f. */
static void put_stones(FILE *f, const Board *b, Color c)
{
    bool first = true;
    for (int p = 0; p < BOARD_POINTS; p++)
        if (board_at(b, (Point)p) == c) {
            char s[8];
            fprintf(f, "%s%s", first ? "" : ",", notation_point_str((Point)p, s));
            first = false;
        }
}

static void put_hex(FILE *f, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%02x", p[i]);
}

int dbx_format(const DbEntry *e, char **line)
{
    Board b;
    RuleSet rs;
    Color att;
    *line = NULL;
    if (e->status || db_key_decode(&e->key, &b, &rs, &att))
        return RJ_EBADDATA;
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    if (!f)
        return RJ_ENOMEM;
    const DbRecord *r = &e->rec;
    fputs("{\"position\":\"B:", f);
    put_stones(f, &b, BLACK);
    fputs(" W:", f);
    put_stones(f, &b, WHITE);
    fprintf(f, "\",\"to_move\":\"%s\",\"rules\":\"%s\",\"attacker\":\"%s\",\"result\":\"%s\",\"best\":",
            color_name(b.to_move), ruleset_name(rs), color_name(att), result_name(r->result));
    if (r->best == POINT_NONE) {
        fputs("null", f);
    } else {
        char s[8];
        fprintf(f, "\"%s\"", notation_point_str(r->best, s));
    }
    fprintf(f, ",\"proof_nodes\":%llu,\"proof_depth\":%u,\"nodes\":%llu,\"solver_version\":\"",
            (unsigned long long)r->proof_nodes, r->proof_depth, (unsigned long long)r->nodes);
    for (const char *p = r->version; *p; p++) {
        if (*p == '"' || *p == '\\')
            fputc('\\', f);
        fputc(*p, f);
    }
    fprintf(f, "\",\"time\":%llu", (unsigned long long)r->time);
    if (e->proof) {
        fputs(",\"proof\":\"", f);
        put_hex(f, e->proof, e->proof_len);
        fputc('"', f);
    }
    fputc('}', f);
    if (fclose(f) || !buf) {
        free(buf);
        return RJ_ENOMEM;
    }
    *line = buf;
    return 0;
}

/* ---- a small parser for one flat JSON object ---- */

typedef struct {
    const char *s;
    char *why;
    size_t whylen;
} Parser;

static int perr(Parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int perr(Parser *p, const char *fmt, ...)
{
    if (p->why && p->whylen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(p->why, p->whylen, fmt, ap);
        va_end(ap);
    }
    return RJ_EBADDATA;
}

static void ws(Parser *p)
{
    while (*p->s == ' ' || *p->s == '\t' || *p->s == '\r' || *p->s == '\n')
        p->s++;
}

static int hexval(int c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* Parse a JSON string at p->s into a malloc'd C string (non-ASCII escapes become '?'). */
static int parse_string(Parser *p, char **out)
{
    if (*p->s != '"')
        return perr(p, "string expected");
    p->s++;
    size_t cap = 64, n = 0;
    char *buf = malloc(cap);
    if (!buf)
        return RJ_ENOMEM;
    for (;;) {
        unsigned char c = (unsigned char)*p->s++;
        if (c == 0 || c < 0x20) {
            free(buf);
            return perr(p, "unterminated string");
        }
        if (c == '"')
            break;
        if (c == '\\') {
            char e = *p->s++;
            switch (e) {
            case '"':
            case '\\':
            case '/':
                c = (unsigned char)e;
                break;
            case 'n':
                c = '\n';
                break;
            case 't':
                c = '\t';
                break;
            case 'r':
                c = '\r';
                break;
            case 'b':
                c = '\b';
                break;
            case 'f':
                c = '\f';
                break;
            case 'u': {
                int v = 0;
                for (int i = 0; i < 4; i++) {
                    int h = hexval(*p->s);
                    if (h < 0) {
                        free(buf);
                        return perr(p, "bad \\u escape");
                    }
                    v = v * 16 + h;
                    p->s++;
                }
                c = v > 0 && v < 0x80 ? (unsigned char)v : '?';
                break;
            }
            default:
                free(buf);
                return perr(p, "bad escape");
            }
        }
        if (n + 1 >= cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                return RJ_ENOMEM;
            }
            buf = nb;
        }
        buf[n++] = (char)c;
    }
    buf[n] = 0;
    *out = buf;
    return 0;
}

static int parse_uint(Parser *p, uint64_t *v)
{
    if (!isdigit((unsigned char)*p->s))
        return perr(p, "unsigned integer expected");
    char *end;
    errno = 0;
    unsigned long long x = strtoull(p->s, &end, 10);
    if (errno || *end == '.' || *end == 'e' || *end == 'E')
        return perr(p, "unsigned integer expected");
    p->s = end;
    *v = x;
    return 0;
}

typedef struct {
    char *position, *to_move, *rules, *attacker, *result, *best, *version, *proof;
    char *work, *value; /* resume-state lines */
    bool best_null;
    uint64_t proof_nodes, proof_depth, nodes, time;
} Fields;

static void fields_free(Fields *f)
{
    free(f->position), free(f->to_move), free(f->rules), free(f->attacker);
    free(f->result), free(f->best), free(f->version), free(f->proof);
    free(f->work), free(f->value);
}

/* Parse the object into f; unknown keys are skipped. */
static int parse_object(Parser *p, Fields *f)
{
    ws(p);
    if (*p->s++ != '{')
        return perr(p, "a JSON object expected");
    ws(p);
    if (*p->s == '}') {
        p->s++;
        return 0;
    }
    for (;;) {
        ws(p);
        char *key = NULL;
        int rc = parse_string(p, &key);
        if (rc)
            return rc;
        ws(p);
        if (*p->s++ != ':') {
            free(key);
            return perr(p, "':' expected");
        }
        ws(p);
        char **str = !strcmp(key, "position")         ? &f->position
                     : !strcmp(key, "to_move")        ? &f->to_move
                     : !strcmp(key, "rules")          ? &f->rules
                     : !strcmp(key, "attacker")       ? &f->attacker
                     : !strcmp(key, "result")         ? &f->result
                     : !strcmp(key, "best")           ? &f->best
                     : !strcmp(key, "solver_version") ? &f->version
                     : !strcmp(key, "proof")          ? &f->proof
                     : !strcmp(key, "work")           ? &f->work
                     : !strcmp(key, "value")          ? &f->value
                                                      : NULL;
        uint64_t *num = !strcmp(key, "proof_nodes")   ? &f->proof_nodes
                        : !strcmp(key, "proof_depth") ? &f->proof_depth
                        : !strcmp(key, "nodes")       ? &f->nodes
                        : !strcmp(key, "time")        ? &f->time
                                                      : NULL;
        bool is_best = !strcmp(key, "best");
        free(key);
        if (!strncmp(p->s, "null", 4)) {
            p->s += 4;
            if (is_best)
                f->best_null = true;
            else if (str || num)
                return perr(p, "null not allowed here");
        } else if (!strncmp(p->s, "true", 4) || !strncmp(p->s, "false", 5)) {
            if (str || num)
                return perr(p, "boolean not allowed here");
            p->s += *p->s == 't' ? 4 : 5;
        } else if (*p->s == '"') {
            char *v = NULL;
            if ((rc = parse_string(p, &v)))
                return rc;
            if (num) {
                free(v);
                return perr(p, "number expected");
            }
            if (str) {
                free(*str);
                *str = v;
            } else {
                free(v);
            }
        } else {
            uint64_t v = 0;
            if ((rc = parse_uint(p, &v)))
                return rc;
            if (str)
                return perr(p, "string expected");
            if (num)
                *num = v;
        }
        ws(p);
        if (*p->s == ',') {
            p->s++;
            continue;
        }
        if (*p->s == '}') {
            p->s++;
            break;
        }
        return perr(p, "',' or '}' expected");
    }
    ws(p);
    return *p->s ? perr(p, "text after the object") : 0;
}

/* At most 20 characters of s with anything unprintable as '?' (messages stay one line). */
static const char *clip(const char *s, char *buf)
{
    size_t i = 0;
    for (; s[i] && i < 20; i++)
        buf[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
    buf[i] = 0;
    return buf;
}

static int unhex(Parser *p, const char *h, const char *what, uint8_t **out, size_t *n);

int dbx_parse(const char *line, Board *b, RuleSet *rs, DbRecord *r, uint8_t **proof, size_t *proof_len, char *why,
              size_t whylen)
{
    Parser p = {line, why, whylen};
    Fields f;
    memset(&f, 0, sizeof f);
    *proof = NULL;
    *proof_len = 0;
    memset(r, 0, sizeof *r);
    char cb[24];
    int rc = parse_object(&p, &f);
    if (rc)
        goto done;
    rc = RJ_EBADDATA;
    if (!f.position || !f.attacker || !f.result) {
        perr(&p, "missing key (position, attacker and result are required)");
        goto done;
    }
    *rs = RULE_RENJU;
    if (f.rules && ruleset_parse(f.rules, false, rs)) {
        perr(&p, "bad rules '%s'", clip(f.rules, cb));
        goto done;
    }
    Color to_move = EMPTY;
    if (f.to_move && color_parse(f.to_move, false, &to_move)) {
        perr(&p, "bad to_move '%s'", clip(f.to_move, cb));
        goto done;
    }
    if (color_parse(f.attacker, false, &r->attacker)) {
        perr(&p, "bad attacker '%s'", clip(f.attacker, cb));
        goto done;
    }
    if (result_parse(f.result, false, &r->result)) {
        perr(&p, "bad result '%s'", clip(f.result, cb));
        goto done;
    }
    char err[256];
    const char *pos = f.position;
    /* An empty stone set has no token position_parse would recognise. */
    if (strspn(pos, "BWbw: ") == strlen(pos) && strchr(pos, ':')) {
        board_init(b);
        board_set_to_move(b, to_move ? to_move : BLACK);
    } else if (position_parse(pos, *rs, to_move, b, err, sizeof err)) {
        perr(&p, "bad position: %s", err);
        goto done;
    }
    r->best = POINT_NONE;
    if (f.best) {
        int used;
        if (notation_parse_point(f.best, &r->best, &used) || f.best[used]) {
            perr(&p, "bad best move '%s'", clip(f.best, cb));
            goto done;
        }
        if (r->best != POINT_PASS && board_at(b, r->best) != EMPTY) {
            perr(&p, "best move '%.20s' is on an occupied point", f.best);
            goto done;
        }
    }
    if (f.proof_depth > UINT32_MAX) {
        perr(&p, "proof_depth too large");
        goto done;
    }
    r->proof_nodes = f.proof_nodes;
    r->proof_depth = (uint32_t)f.proof_depth;
    r->nodes = f.nodes;
    r->time = f.time;
    if (f.version) {
        size_t n = strlen(f.version);
        if (n > RECORD_VERSION_MAX) {
            perr(&p, "solver_version longer than %d characters", RECORD_VERSION_MAX);
            goto done;
        }
        for (size_t i = 0; i < n; i++)
            if (f.version[i] < 0x20 || f.version[i] > 0x7e) {
                perr(&p, "solver_version is not printable ASCII");
                goto done;
            }
        memcpy(r->version, f.version, n + 1);
    }
    if (f.proof) {
        if (!f.proof[0] || strlen(f.proof) % 2) {
            perr(&p, "proof hex has odd length");
            goto done;
        }
        if ((rc = unhex(&p, f.proof, "proof", proof, proof_len)))
            goto done;
        r->flags = RECORD_HAS_PROOF;
    }
    rc = 0;
done:
    fields_free(&f);
    return rc;
}

/* ---- resume-state lines ---- */

int dbx_format_work(const uint8_t *key, size_t klen, const uint8_t *val, size_t vlen, char **line)
{
    *line = NULL;
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    if (!f)
        return RJ_ENOMEM;
    fputs("{\"work\":\"", f);
    put_hex(f, key, klen);
    fputs("\",\"value\":\"", f);
    put_hex(f, val, vlen);
    fputs("\"}", f);
    if (fclose(f) || !buf) {
        free(buf);
        return RJ_ENOMEM;
    }
    *line = buf;
    return 0;
}

bool dbx_is_work(const char *line)
{
    Parser p = {line, NULL, 0};
    ws(&p);
    if (*p.s++ != '{')
        return false;
    ws(&p);
    return !strncmp(p.s, "\"work\"", 6);
}

/* Decode the hex string h into a malloc'd buffer (*out, *n bytes); what names it in errors. */
static int unhex(Parser *p, const char *h, const char *what, uint8_t **out, size_t *n)
{
    size_t len = strlen(h);
    if (len % 2)
        return perr(p, "%s hex has odd length", what);
    uint8_t *buf = malloc(len / 2 + 1);
    if (!buf)
        return RJ_ENOMEM;
    for (size_t i = 0; i < len / 2; i++) {
        int hi = hexval(h[2 * i]), lo = hexval(h[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            free(buf);
            return perr(p, "%s is not hex", what);
        }
        buf[i] = (uint8_t)(hi << 4 | lo);
    }
    *out = buf;
    *n = len / 2;
    return 0;
}

int dbx_parse_work(const char *line, uint8_t **key, size_t *klen, uint8_t **val, size_t *vlen, char *why, size_t whylen)
{
    Parser p = {line, why, whylen};
    Fields f;
    memset(&f, 0, sizeof f);
    *key = *val = NULL;
    *klen = *vlen = 0;
    int rc = parse_object(&p, &f);
    if (rc)
        goto done;
    rc = RJ_EBADDATA;
    if (!f.work || !f.value) {
        perr(&p, "missing key (a state line needs work and value)");
        goto done;
    }
    if ((rc = unhex(&p, f.work, "work key", key, klen)))
        goto done;
    if (*klen == 0 || *klen > 511) {
        rc = perr(&p, "work key of %zu bytes (1..511)", *klen);
        goto done;
    }
    rc = unhex(&p, f.value, "value", val, vlen);
done:
    if (rc) {
        free(*key);
        free(*val);
        *key = *val = NULL;
        *klen = *vlen = 0;
    }
    fields_free(&f);
    return rc;
}
