/* db_key.c - db_key and db_key_decode of db.h: the canonical key of a position. */
#include "db.h"

#include <string.h>

#include "board.h"
#include "error.h"

void db_key(const Board *b, RuleSet rs, Color attacker, DbKey *key, int *t)
{
    SymKey k;
    sym_canonical(b, rs, &k, t);
    memcpy(key->b, k.b, SYMKEY_LEN);
    key->b[SYMKEY_LEN] = (uint8_t)attacker;
}

int db_key_decode(const DbKey *key, Board *b, RuleSet *rs, Color *attacker)
{
    const uint8_t *k = key->b;
    if ((k[0] != BLACK && k[0] != WHITE) || k[1] > RULE_STANDARD || (k[SYMKEY_LEN] != BLACK && k[SYMKEY_LEN] != WHITE))
        return RJ_EBADDATA;
    /* Bits past point 224 and bytes 59..63 are zero; no cell holds 3. */
    if (k[2 + (BOARD_POINTS - 1) / 4] >> 2)
        return RJ_EBADDATA;
    for (int i = 3 + (BOARD_POINTS - 1) / 4; i < SYMKEY_LEN; i++)
        if (k[i])
            return RJ_EBADDATA;
    for (int i = 2; i < 3 + (BOARD_POINTS - 1) / 4; i++)
        if ((k[i] & (k[i] >> 1)) & 0x55)
            return RJ_EBADDATA;
    if (b) {
        board_init(b);
        for (int p = 0; p < BOARD_POINTS; p++) {
            int c = k[2 + p / 4] >> (2 * (p % 4)) & 3;
            if (c)
                board_setup_stone(b, (Point)p, (Color)c);
        }
        board_set_to_move(b, (Color)k[0]);
    }
    if (rs)
        *rs = (RuleSet)k[1];
    if (attacker)
        *attacker = (Color)k[SYMKEY_LEN];
    return 0;
}
