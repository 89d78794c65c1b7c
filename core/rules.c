/* rules.c - see rules.h.  (Placeholder until the rules work lands.) */
#include "rules.h"

#include "board.h"

void rules_init(void) {}

bool rules_makes_five(const Board *b, Point p, Color c, RuleSet rs)
{
    (void)b, (void)p, (void)c, (void)rs;
    return false;
}

ForbidKind rules_forbidden(Board *b, Point p)
{
    (void)b, (void)p;
    return FORBID_NONE;
}

bool rules_is_forbidden(Board *b, Point p) { return rules_forbidden(b, p) != FORBID_NONE; }

bool rules_is_legal(Board *b, Point p, RuleSet rs)
{
    if (p == POINT_PASS)
        return true;
    if (board_at(b, p) != EMPTY)
        return false;
    return !(rs == RULE_RENJU && b->to_move == BLACK && rules_is_forbidden(b, p));
}

Color rules_last_move_wins(const Board *b, RuleSet rs)
{
    (void)b, (void)rs;
    return EMPTY;
}

bool rules_game_over(const Board *b, RuleSet rs, Color *winner)
{
    *winner = rules_last_move_wins(b, rs);
    return *winner != EMPTY || board_two_passes(b) || board_stone_count(b) == BOARD_POINTS;
}

int rules_five_points(const Board *b, Color c, RuleSet rs, Point *out)
{
    (void)b, (void)c, (void)rs, (void)out;
    return 0;
}

int rules_four_points_after(Board *b, Point p, Color c, RuleSet rs, Point *out)
{
    (void)b, (void)p, (void)c, (void)rs, (void)out;
    return 0;
}

int rules_three_points_after(Board *b, Point p, Color c, int dir, RuleSet rs, Point *out)
{
    (void)b, (void)p, (void)c, (void)dir, (void)rs, (void)out;
    return 0;
}
