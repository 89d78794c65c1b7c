/* record.c - see record.h. */
#include "record.h"

#include <string.h>

#include "error.h"

static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static bool valid_best(unsigned p) { return p < BOARD_POINTS || p == POINT_PASS || p == POINT_NONE; }

int record_encode(const DbRecord *r, uint8_t *out, size_t cap, size_t *len)
{
    if (r->result > RESULT_DISPROVEN || (r->attacker != BLACK && r->attacker != WHITE) || !valid_best(r->best) ||
        (r->flags & ~RECORD_HAS_PROOF))
        return RJ_EBADARG;
    size_t n = strnlen(r->version, RECORD_VERSION_MAX);
    for (size_t i = 0; i < n; i++)
        if (r->version[i] < 0x20 || r->version[i] > 0x7e)
            return RJ_EBADARG;
    if (cap < RECORD_FIXED_LEN + n)
        return RJ_ENOMEM;
    memset(out, 0, RECORD_FIXED_LEN);
    out[0] = RECORD_VERSION;
    out[1] = (uint8_t)r->result;
    out[2] = (uint8_t)r->attacker;
    out[3] = r->best;
    out[4] = r->flags;
    put_u64(out + 8, r->proof_nodes);
    put_u32(out + 16, r->proof_depth);
    put_u64(out + 24, r->nodes);
    put_u64(out + 32, r->time);
    out[40] = (uint8_t)n;
    memcpy(out + RECORD_FIXED_LEN, r->version, n);
    *len = RECORD_FIXED_LEN + n;
    return 0;
}

int record_decode(const uint8_t *buf, size_t len, DbRecord *r)
{
    if (!buf || len < RECORD_FIXED_LEN || buf[0] != RECORD_VERSION)
        return RJ_EBADDATA;
    size_t n = buf[40];
    if (n > RECORD_VERSION_MAX || len != RECORD_FIXED_LEN + n)
        return RJ_EBADDATA;
    if (buf[1] > RESULT_DISPROVEN || (buf[2] != BLACK && buf[2] != WHITE) || !valid_best(buf[3]) ||
        (buf[4] & ~RECORD_HAS_PROOF) || buf[5] || buf[6] || buf[7] || get_u32(buf + 20))
        return RJ_EBADDATA;
    for (size_t i = 0; i < n; i++)
        if (buf[RECORD_FIXED_LEN + i] < 0x20 || buf[RECORD_FIXED_LEN + i] > 0x7e)
            return RJ_EBADDATA;
    r->result = (Result)buf[1];
    r->attacker = (Color)buf[2];
    r->best = buf[3];
    r->flags = buf[4];
    r->proof_nodes = get_u64(buf + 8);
    r->proof_depth = get_u32(buf + 16);
    r->nodes = get_u64(buf + 24);
    r->time = get_u64(buf + 32);
    memcpy(r->version, buf + RECORD_FIXED_LEN, n);
    r->version[n] = 0;
    return 0;
}
