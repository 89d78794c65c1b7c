/* proof_writer.c - the ProofWriter buffer of proof.h. */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "proof.h"

int pw_bytes(ProofWriter *w, const void *p, size_t n)
{
    if (w->err)
        return w->err;
    if (w->len + n > w->cap) {
        size_t cap = w->cap ? w->cap : 256;
        while (cap < w->len + n)
            cap *= 2;
        uint8_t *d = realloc(w->data, cap);
        if (!d)
            return w->err = RJ_ENOMEM;
        w->data = d;
        w->cap = cap;
    }
    memcpy(w->data + w->len, p, n);
    w->len += n;
    return 0;
}

int pw_header(ProofWriter *w, RuleSet rs, Color attacker)
{
    const uint8_t h[PROOF_HEADER_LEN] = {'R', 'J', 'P', 'F', PROOF_VERSION, (uint8_t)rs, (uint8_t)attacker, 0};
    return pw_bytes(w, h, sizeof h);
}

size_t pw_reserve_u16(ProofWriter *w)
{
    size_t at = w->len;
    pw_u16(w, 0);
    return at;
}

void pw_patch_u16(ProofWriter *w, size_t at, uint16_t v)
{
    if (w->err || at + 2 > w->len)
        return;
    w->data[at] = (uint8_t)(v & 0xff);
    w->data[at + 1] = (uint8_t)(v >> 8);
}
