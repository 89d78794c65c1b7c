/* openings.c - see openings.h. */
#include "openings.h"

/* Point (col,row) as a constant expression. */
#define P(c, r) ((Point)((r)*BOARD_SIZE + (c)))

/* docs/renju.md: black 1 = h8; direct openings white 2 = h9, indirect i9. */
static const Opening OPENINGS[NUM_OPENINGS] = {
    {"D1", "Kansei", "寒星", "Cold Star", {P(7, 7), P(7, 8), P(7, 9)}},
    {"D2", "Keigetsu", "溪月", "Brook Moon", {P(7, 7), P(7, 8), P(8, 9)}},
    {"D3", "Sosei", "疏星", "Sparse Star", {P(7, 7), P(7, 8), P(9, 9)}},
    {"D4", "Kagetsu", "花月", "Flower Moon", {P(7, 7), P(7, 8), P(8, 8)}},
    {"D5", "Zangetsu", "残月", "Waning Moon", {P(7, 7), P(7, 8), P(9, 8)}},
    {"D6", "Ugetsu", "雨月", "Rain Moon", {P(7, 7), P(7, 8), P(8, 7)}},
    {"D7", "Kinsei", "金星", "Golden Star", {P(7, 7), P(7, 8), P(9, 7)}},
    {"D8", "Shogetsu", "松月", "Pine Moon", {P(7, 7), P(7, 8), P(7, 6)}},
    {"D9", "Kyugetsu", "丘月", "Hill Moon", {P(7, 7), P(7, 8), P(8, 6)}},
    {"D10", "Shingetsu", "新月", "New Moon", {P(7, 7), P(7, 8), P(9, 6)}},
    {"D11", "Zuisei", "瑞星", "Auspicious Star", {P(7, 7), P(7, 8), P(7, 5)}},
    {"D12", "Sangetsu", "山月", "Mountain Moon", {P(7, 7), P(7, 8), P(8, 5)}},
    {"D13", "Yusei", "游星", "Wandering Star", {P(7, 7), P(7, 8), P(9, 5)}},
    {"I1", "Chosei", "长星", "Long Star", {P(7, 7), P(8, 8), P(9, 9)}},
    {"I2", "Kyogetsu", "峡月", "Gorge Moon", {P(7, 7), P(8, 8), P(9, 8)}},
    {"I3", "Kosei", "恒星", "Fixed Star", {P(7, 7), P(8, 8), P(9, 7)}},
    {"I4", "Suigetsu", "水月", "Water Moon", {P(7, 7), P(8, 8), P(9, 6)}},
    {"I5", "Ryusei", "流星", "Meteor", {P(7, 7), P(8, 8), P(9, 5)}},
    {"I6", "Ungetsu", "云月", "Cloud Moon", {P(7, 7), P(8, 8), P(8, 7)}},
    {"I7", "Hogetsu", "浦月", "Bay Moon", {P(7, 7), P(8, 8), P(8, 6)}},
    {"I8", "Rangetsu", "岚月", "Storm Moon", {P(7, 7), P(8, 8), P(8, 5)}},
    {"I9", "Gingetsu", "银月", "Silver Moon", {P(7, 7), P(8, 8), P(7, 6)}},
    {"I10", "Myojo", "明星", "Morning Star", {P(7, 7), P(8, 8), P(7, 5)}},
    {"I11", "Shagetsu", "斜月", "Slanting Moon", {P(7, 7), P(8, 8), P(6, 6)}},
    {"I12", "Meigetsu", "名月", "Harvest Moon", {P(7, 7), P(8, 8), P(6, 5)}},
    {"I13", "Suisei", "彗星", "Comet", {P(7, 7), P(8, 8), P(5, 5)}},
};

const Opening *opening_get(int i) { return i >= 0 && i < NUM_OPENINGS ? &OPENINGS[i] : NULL; }

/* Other spellings people use: romaji with long vowels, Japanese kanji and
 * traditional Chinese characters. */
static const struct {
    const char *alias, *code;
} ALIASES[] = {
    {"Sousei", "D3"},    {"Shougetsu", "D8"}, {"Kyuugetsu", "D9"}, {"Yuusei", "D13"},  {"Chousei", "I1"},
    {"Kyougetsu", "I2"}, {"Kousei", "I3"},    {"Ryuusei", "I5"},   {"Hougetsu", "I7"}, {"Myoujou", "I10"},
    {"Myoujo", "I10"},   {"渓月", "D2"},      {"疎星", "D3"},      {"殘月", "D5"},     {"遊星", "D13"},
    {"長星", "I1"},      {"峽月", "I2"},      {"恆星", "I3"},      {"雲月", "I6"},     {"嵐月", "I8"},
    {"銀月", "I9"},
};

/*
 * Compare two names ignoring ASCII case and the ASCII characters space, '-'
 * and '_' (so "Cold Star", "cold-star" and "coldstar" are one name).
 */
static int ascii_lower(char ch) { return ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : (unsigned char)ch; }

static bool same_name(const char *a, const char *b)
{
    for (;;) {
        while (*a == ' ' || *a == '-' || *a == '_')
            a++;
        while (*b == ' ' || *b == '-' || *b == '_')
            b++;
        if (!*a || !*b)
            return !*a && !*b;
        if (ascii_lower(*a) != ascii_lower(*b))
            return false;
        a++, b++;
    }
}

const Opening *opening_find(const char *name)
{
    if (!*name)
        return NULL;
    for (int i = 0; i < NUM_OPENINGS; i++) {
        const Opening *o = &OPENINGS[i];
        if (same_name(name, o->code) || same_name(name, o->japanese) || same_name(name, o->chinese) ||
            same_name(name, o->english))
            return o;
    }
    for (size_t i = 0; i < sizeof ALIASES / sizeof ALIASES[0]; i++)
        if (same_name(name, ALIASES[i].alias))
            return opening_find(ALIASES[i].code);
    return NULL;
}
