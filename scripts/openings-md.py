#!/usr/bin/env python3
"""openings-md.py - results/openings.json (from `renju opening report`) -> results/openings.md.

Usage:
    scripts/openings-md.py [IN [OUT]]

IN (default results/openings.json, "-" = stdin) is the JSON array that
`renju opening report --db DB` prints, one object per opening (keys code,
japanese, chinese, english, moves, noswap, fourth_classes, fourth_proven,
fourth_disproven, fourth_searched, fourth, n_fair_min, n_fair_max, work_nodes,
rules), optionally with the strings "commit" and "command" that
scripts/make-openings.sh adds.  OUT (default results/openings.md, "-" =
stdout) gets a summary table of every opening, the places where the proven
bounds agree or disagree with expert opinion and practical N (docs/renju.md
"Known results to check against"), one section per opening with anything searched, and how to
reproduce it.  A picture link ![D4](img/D4.png) is written for an opening
only when img/<code>.png exists next to OUT.  Nothing is guessed: unknown
stays unknown, bounds are printed as the intervals the report gives.

Standard library only.  Exit status: 0 done, 1 bad input, 2 usage error.
"""
import json
import os
import re
import sys

# docs/renju.md "Known results to check against": expert evaluations under the old RIF rule (N = 2).
EXPERT = {}
for _label, _codes in [
    ("sure black win", "D1 D2 D4 D6 D7 I2 I3 I4 I6 I7 I8 I10"),
    ("black advantage", "D5 D8 D10 D12 I9 I12"),
    ("slightly black", "D9 I11"),
    ("equal", "D3 D11"),
    ("slightly white", "I1 I5"),
    ("sure white win", "D13 I13"),
]:
    for _c in _codes.split():
        EXPERT[_c] = _label
BLACKISH = {"sure black win", "black advantage", "slightly black"}

# docs/renju.md "Known results to check against": practical N reported by players.  (lo, hi, source);
# lo = None: no number ("unplayable").  T: Tarannikov 2009 (depends on the 4th
# move); G: one Chinese opening guide, for one popular 4th move.
PRACTICAL = {
    "D2": [(7, 7, "T", "~7")],
    "I2": [(7, 7, "T", "~7")],
    "I4": [(5, 6, "T", "5-6")],
    "D11": [(1, 2, "T", "1-2"), (2, 2, "G", "2")],
    "I1": [(1, 2, "T", "1-2"), (1, 1, "G", "1")],
    "I13": [(None, None, "T", "unplayable")],
    "D1": [(4, 4, "G", "4")],
    "D7": [(3, 3, "G", "3")],
    "D4": [(6, 6, "G", "6")],
    "I7": [(6, 6, "G", "6")],
    "I10": [(3, 3, "G", "3")],
    "I11": [(3, 3, "G", "3")],
}
SOURCE = {"T": "Tarannikov 2009", "G": "a Chinese opening guide, for one popular 4th move"}
# docs/renju.md: Wen 2007 published full proofs that black wins D4 and I7 in plain play.
WEN_2007 = {"D4", "I7"}

REQUIRED = ["code", "japanese", "chinese", "moves", "noswap", "fourth_classes", "fourth_proven",
            "fourth_disproven", "fourth_searched", "fourth", "n_fair_min", "n_fair_max",
            "work_nodes", "rules"]
RULE_TITLE = {"no-swap": "no-swap", "rif": "RIF", "yamaguchi": "Yamaguchi", "soosorv": "Soosõrv",
              "taraguchi": "Taraguchi", "tarannikov": "Tarannikov", "jonsson": "Jonsson"}


class InputError(Exception):
    pass


def human(n):
    """Node counts: 0, 950, 12k-ish as 1.2e4, 1.2e9."""
    if n is None:
        return "—"
    n = int(n)
    if n < 10000:
        return str(n)
    s = "%.1e" % n
    mant, exp = s.split("e")
    return "%se%d" % (mant, int(exp))


def plural(n, word, words=None):
    return "%d %s" % (n, word if n == 1 else (words or word + "s"))


def at_most_wins(k):
    return "no winning 5th move" if k <= 0 else "at most " + plural(k, "winning 5th move")


def interval(a, b):
    return "[%s, %s]" % ("?" if a is None else a, "?" if b is None else b)


def md_cell(s):
    return str(s).replace("|", "\\|").replace("\n", " ")


def load(path):
    try:
        if path == "-":
            data = json.load(sys.stdin)
        else:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
    except OSError as e:
        raise InputError("%s: %s" % (path, e.strerror or e))
    except json.JSONDecodeError as e:
        raise InputError("%s: not JSON: %s" % (path, e))
    if not isinstance(data, list) or not data:
        raise InputError("%s: expected a non-empty JSON array of openings" % path)
    seen = set()
    for i, o in enumerate(data):
        if not isinstance(o, dict):
            raise InputError("%s: element %d is not an object" % (path, i))
        missing = [k for k in REQUIRED if k not in o]
        if missing:
            raise InputError("%s: opening %s lacks %s" % (path, o.get("code", "#%d" % i), ", ".join(missing)))
        if not isinstance(o["fourth"], list) or not isinstance(o["rules"], list):
            raise InputError("%s: opening %s: \"fourth\" and \"rules\" must be arrays" % (path, o["code"]))
        if not isinstance(o["noswap"], dict) or "result" not in o["noswap"]:
            raise InputError("%s: opening %s: \"noswap\" lacks \"result\"" % (path, o["code"]))
        for fc in o["fourth"]:
            for k in ("move", "status", "wins_min", "wins_max", "nfifth"):
                if k not in fc:
                    raise InputError("%s: opening %s: a 4th-move class lacks \"%s\"" % (path, o["code"], k))
        if o["code"] in seen:
            raise InputError("%s: opening %s appears twice" % (path, o["code"]))
        seen.add(o["code"])
    return data


def rule(o, name):
    for r in o["rules"]:
        if r.get("rule") == name:
            return r
    return None


def noswap_text(o):
    ns = o["noswap"]
    res = ns.get("result")
    if res == "proven":
        return "**black wins**"
    if res == "disproven":
        return "**not a black win**"
    pn, dn = ns.get("pn"), ns.get("dn")
    if pn is None or dn is None:
        return "open"
    return "open (pn %s, dn %s)" % (pn, dn)


def verdict_text(r, short=True):
    """Compact verdict of one rule: 'open', '2nd player (stage: black)', ..."""
    if r is None:
        return "—"
    v = r.get("verdict")
    if v in (None, "open"):
        return "open"
    names = {"black": "black", "white": "white/draw", "second-player": "2nd player",
             "first-player": "1st player"}
    s = names.get(v, str(v))
    if v != "white" and r.get("draw_possible"):
        s += ", ≥ draw"
    st = r.get("stage")
    if st in ("black", "white") and r.get("rule") != "no-swap":
        s += " (stage: %s)" % ("black" if st == "black" else "white/draw")
    return s


def fourth_text(o):
    s = "%d/%d" % (o["fourth_proven"], o["fourth_classes"])
    if o["fourth_disproven"]:
        s += ", %d ✗" % o["fourth_disproven"]
    return s + " (%d)" % o["fourth_searched"]


def trivial_fair_max(o):
    nf = [fc["nfifth"] for fc in o["fourth"]]
    return 1 + min(nf) if nf else None


def practical_text(code):
    p = PRACTICAL.get(code)
    if not p:
        return ""
    return ", ".join("%s (%s)" % (txt, src) for _, _, src, txt in p)


def has_anything(o):
    return o["fourth_searched"] > 0 or o["noswap"].get("result") != "unknown"


def informative(o):
    """The N_fair interval says more than the class counts alone."""
    a, b = o["n_fair_min"], o["n_fair_max"]
    return a is not None and b is not None and (a > 1 or b < (trivial_fair_max(o) or b + 1))


def tight_moves(o):
    """The 4th moves that give the N_fair upper bound (wins_max + 1 == n_fair_max), as `m1`, `m2`."""
    b = o["n_fair_max"]
    t = [fc["move"] for fc in o["fourth"] if b is not None and fc["wins_max"] + 1 == b]
    return ", ".join("`%s`" % m for m in t[:6]) + (" ..." if len(t) > 6 else "")


def findings(data):
    """(disagreements, agreements, notes): lists of markdown bullet texts, from the data only."""
    dis, agree, notes = [], [], []
    uninformative = []
    for o in data:
        code = o["code"]
        name = "%s %s" % (code, o["japanese"])
        a, b = o["n_fair_min"], o["n_fair_max"]
        ns = o["noswap"].get("result")
        exp = EXPERT.get(code)
        rif = rule(o, "rif")
        stage = rif.get("stage") if rif else None
        # Wen 2007: D4 and I7 are black wins in plain play.
        if code in WEN_2007:
            if ns == "disproven":
                dis.append("%s: the no-swap game is proven **not** a black win, against Wen's 2007 proof "
                           "that black wins it." % name)
            elif ns == "proven":
                agree.append("%s: the no-swap game is proven a black win, as in Wen's 2007 proof." % name)
        # Expert evaluations (RIF, N = 2) against the proven N = 2 stage and 4th moves.
        if exp:
            if stage == "white":
                if exp in BLACKISH:
                    (dis if exp == "sure black win" else notes).append(
                        "%s: experts say *%s* under RIF, but white has a 4th move (%s) proven to leave black "
                        "%s (N_fair ≤ %s), so black cannot win the N = 2 stage."
                        % (name, exp, tight_moves(o), at_most_wins(b - 1), b))
                elif exp == "sure white win":
                    agree.append("%s: experts say *sure white win* under RIF; proven: black cannot win the "
                                 "N = 2 stage (N_fair ≤ %s)." % (name, b))
            elif stage == "black":
                if exp in ("sure white win", "slightly white", "equal"):
                    dis.append("%s: experts say *%s* under RIF, but black is proven to win the N = 2 stage "
                               "after every 4th move (N_fair ≥ %s)." % (name, exp, a))
                elif exp == "sure black win":
                    agree.append("%s: experts say *sure black win* under RIF; proven: black wins the N = 2 "
                                 "stage after every 4th move (N_fair ≥ %s)." % (name, a))
                else:
                    notes.append("%s: experts say *%s* under RIF; proven: black wins the N = 2 stage "
                                 "after every 4th move (N_fair ≥ %s)." % (name, exp, a))
            if exp == "sure white win" and o["fourth_proven"] > 0:
                notes.append("%s: experts say *sure white win*, yet %s of its %d 4th-move classes %s in plain "
                             "play (white can still choose another 4th move)."
                             % (name, o["fourth_proven"], o["fourth_classes"],
                                "is a proven black win" if o["fourth_proven"] == 1 else "are proven black wins"))
            if exp in BLACKISH and ns == "disproven":
                notes.append("%s: experts say *%s* under RIF, but the no-swap game is proven not a black win "
                           "(an N-choice judgement and a no-swap value can differ: in plain play white may also "
                           "pass at move 4)." % (name, exp))
            if exp == "sure white win" and ns == "proven":
                notes.append("%s: experts say *sure white win* under RIF (an N = 2 judgement), and the no-swap "
                             "game is proven a black win: white cannot hold plain play without the 5th-move "
                             "choice." % name)
        # Practical N against the N_fair interval.
        for lo, hi, src, txt in PRACTICAL.get(code, []):
            if lo is None:
                if a is not None and a > 1:
                    notes.append("%s: reported *%s* (%s); proven: black wins with %s after every "
                                 "4th move." % (name, txt, SOURCE[src], plural(a - 1, "5th-move alternative")))
                continue
            if a is None or b is None:
                continue
            where = "practical N %s (%s)" % (txt, SOURCE[src])
            if a > hi:
                dis.append("%s: %s, but N_fair ∈ %s: black provably wins the %d-choice game whatever the "
                           "4th move, so N = %s favours black." % (name, where, interval(a, b), a - 1, txt))
            elif b < lo:
                if src == "G":
                    notes.append("%s: %s, while N_fair ∈ %s: some 4th move leaves black fewer winning 5th "
                                 "moves than the guide's popular one (not a contradiction: N_fair is the "
                                 "minimum over 4th moves)." % (name, where, interval(a, b)))
                else:
                    dis.append("%s: %s, but N_fair ∈ %s: white has a 4th move (%s) proven to leave black "
                               "%s (unless the practical figure assumes another 4th move)."
                               % (name, where, interval(a, b), tight_moves(o), at_most_wins(b - 1)))
            elif informative(o):
                agree.append("%s: %s lies inside the proven N_fair interval %s." % (name, where, interval(a, b)))
            else:
                uninformative.append(code)
    return dis, agree, notes, sorted(set(uninformative), key=lambda c: (c[0], int(c[1:])))


def opening_section(o, out_dir):
    code = o["code"]
    lines = ["### %s %s (%s%s) — `%s`" % (code, o["japanese"], o["chinese"],
                                          ", " + o["english"] if o.get("english") else "", o["moves"]), ""]
    if out_dir is not None and os.path.isfile(os.path.join(out_dir, "img", code + ".png")):
        lines += ["![%s](img/%s.png)" % (code, code), ""]
    a, b = o["n_fair_min"], o["n_fair_max"]
    lines.append("No-swap game: %s. 4th-move classes: %d proven, %d disproven, %d searched of %d. "
                 "N_fair ∈ %s. Work: %s nodes."
                 % (noswap_text(o), o["fourth_proven"], o["fourth_disproven"], o["fourth_searched"],
                    o["fourth_classes"], interval(a, b), human(o["work_nodes"])))
    if b is not None and b < (trivial_fair_max(o) or b + 1) and tight_moves(o):
        lines[-1] += " The upper bound comes from 4th move %s." % tight_moves(o)
    lines.append("")
    for r in o["rules"]:
        why = r.get("why") or ""
        m = re.match(r"^([^:]+): ([^:]+): (.*)$", why)
        if m:
            lines.append("- **%s**: %s — %s" % (m.group(1), m.group(2), m.group(3)))
        else:
            lines.append("- **%s**: %s — %s" % (r.get("rule"), verdict_text(r), why))
    lines.append("")
    searched = [fc for fc in o["fourth"] if fc.get("effort", 0) > 0 or fc["status"] != "unknown"
                or fc["wins_min"] > 0 or fc["wins_max"] < fc["nfifth"]]
    shown = [fc for fc in searched if fc["status"] != "unknown" or fc["wins_min"] > 0
             or fc["wins_max"] < fc["nfifth"]]
    rest = [fc for fc in searched if fc not in shown]
    order = {"disproven": 0, "proven": 1, "unknown": 2}
    shown.sort(key=lambda fc: (order.get(fc["status"], 3), fc["wins_max"], -fc.get("effort", 0)))
    if shown:
        lines += ["| 4th move | members | status | W of 5th classes | work |", "|---|---|---|---|---:|"]
        for fc in shown:
            mem = [m for m in fc.get("members", []) if m != fc["move"]]
            lines.append("| %s | %s | %s | %s of %d | %s |"
                         % (fc["move"], " ".join(mem) if mem else "—", fc["status"],
                            interval(fc["wins_min"], fc["wins_max"]), fc["nfifth"], human(fc.get("effort", 0))))
        lines.append("")
    if rest:
        work = sum(fc.get("effort", 0) for fc in rest)
        mv = " ".join(fc["move"] for fc in rest)
        lines += ["Searched without a result yet (trivial bounds, %s nodes): %s." % (human(work), mv), ""]
    return lines


def render(data, out_dir):
    L = []
    L += ["# The 26 renju openings: what is proven", ""]
    L += ["Where every opening stands in this project's database. Every *proven* or *disproven* "
          "entry is backed by a proof (or disproof) that the independent checker accepted and that is "
          "in the committed database export; everything else is *open*. All bounds are honest "
          "intervals: a class counts as a black win only with a proof, as a non-win only with a "
          "disproof. The **no-swap game** is plain renju from the three opening stones, white to move "
          "(called game (a) in the rule lines below). **W** of a 4th move is the number of 5th-move "
          "classes that are proven black wins, given as [proven wins, classes not proven non-wins]. "
          "**N_fair** = 1 + min over white's 4th moves of W, the smallest number of 5th-move "
          "alternatives black cannot win with ([README.md](../README.md), \"Opening analysis: W, fair N, "
          "batch and cluster runs\").", ""]
    L += ["## Summary", ""]
    L += ["| code | opening | no-swap game | 4th classes proven/total (searched) | N_fair | RIF (N=2) "
          "| Soosõrv-8 | experts (RIF) | practical N | work |",
          "|---|---|---|---|---|---|---|---|---|---:|"]
    for o in data:
        L.append("| %s | %s (%s) | %s | %s | %s | %s | %s | %s | %s | %s |" % tuple(md_cell(x) for x in (
            o["code"], o["japanese"], o["chinese"], noswap_text(o), fourth_text(o),
            interval(o["n_fair_min"], o["n_fair_max"]), verdict_text(rule(o, "rif")),
            verdict_text(rule(o, "soosorv")), EXPERT.get(o["code"], ""), practical_text(o["code"]),
            human(o["work_nodes"]))))
    L.append("")
    L += ["Legend: *open (pn, dn)* = undecided, with the root proof and disproof numbers of the "
          "opening search; ✗ = 4th-move classes after which black is proven unable to win. Rule verdicts "
          "name who the proven facts favour: *2nd player* = the player making the colour choice "
          "(swap), *≥ draw* = only proven not to lose, *stage* = the 5th-move N-choice stage "
          "(black: black wins it, white/draw: black cannot); "
          "*white/draw* = black cannot win. *Experts*: evaluations under the old RIF rule (N = 2), from "
          "the Wikipedia article \"Renju opening pattern\"; these are N-choice judgements, not no-swap values. *Practical N*: "
          "T = %s, G = %s (both depend on the 4th move)." % (SOURCE["T"], SOURCE["G"]), ""]
    notes = {}
    for o in data:
        for r in o["rules"]:
            if r.get("note") and r.get("rule") not in notes:
                notes[r.get("rule")] = r["note"]
    if notes:
        L.append("Rule notes: " + "; ".join("%s — %s" % (RULE_TITLE.get(k, k), v) for k, v in notes.items()) + ".")
        L.append("")

    L += ["## Disagreements and agreements", ""]
    dis, agree, extra, unin = findings(data)
    if not dis and not agree and not extra:
        L.append("Nothing proven so far decides anything that expert evaluations, practical N or Wen's "
                 "2007 proofs (D4, I7) speak about: no disagreement and no agreement can be stated yet.")
    else:
        L.append("**Disagreements.**" if dis else "**Disagreements.** None found.")
        L += ["- " + s for s in dis]
        L.append("")
        L.append("**Agreements.**" if agree else "**Agreements.** None that the proofs decide yet.")
        L += ["- " + s for s in agree]
        if extra:
            L += ["", "**Worth noting** (not contradictions):"]
            L += ["- " + s for s in extra]
    if unin:
        L += ["", "The practical N of %s lies inside N_fair intervals that are still the trivial ones "
              "(nothing proven narrows them), so it is neither confirmed nor contradicted." % ", ".join(unin)]
    L.append("")

    L += ["## Openings", ""]
    done = [o for o in data if has_anything(o)]
    idle = [o for o in data if not has_anything(o)]
    if not done:
        L += ["No opening has anything searched yet.", ""]
    for o in done:
        L += opening_section(o, out_dir)
    if idle:
        L += ["Nothing searched yet (no-swap game open, no 4th-move class searched): "
              + ", ".join("%s %s" % (o["code"], o["japanese"]) for o in idle) + ".", ""]

    L += ["## Reproduce", ""]
    commits, commands = {}, {}
    for o in data:
        if o.get("commit"):
            commits.setdefault(str(o["commit"]), []).append(o["code"])
        if o.get("command"):
            commands.setdefault(str(o["command"]), []).append(o["code"])

    def grouped(d, what):
        if len(d) == 1:
            return ["%s: `%s`" % (what, next(iter(d))) if what == "Commit" else "%s: %s" % (what, next(iter(d)))]
        out = ["%s (per opening):" % what]
        for k, codes in d.items():
            out.append("- %s: %s" % (" ".join(codes), "`%s`" % k if what == "Commit" else k))
        return out

    if commits:
        L += grouped(commits, "Commit") + [""]
    if commands:
        L += grouped(commands, "Search commands") + [""]
    if not commits and not commands:
        L += ["No commit or command recorded in the input: regenerate with "
              "`bash scripts/make-openings.sh DB` (DB = the results database).", ""]
    L += ["This file and `openings.json` are regenerated from a database by `bash scripts/make-openings.sh DB` "
          "(`renju opening report --db DB`, then `scripts/openings-md.py`, then the pictures).", ""]
    return "\n".join(L).rstrip("\n") + "\n"


def main(argv):
    if any(a in ("-h", "--help") for a in argv[1:]):
        print(__doc__.strip())
        return 0
    if len(argv) > 3:
        sys.stderr.write("usage: openings-md.py [IN [OUT]]\n")
        return 2
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    src = argv[1] if len(argv) > 1 else os.path.join(repo, "results", "openings.json")
    dst = argv[2] if len(argv) > 2 else os.path.join(repo, "results", "openings.md")
    try:
        data = load(src)
        text = render(data, None if dst == "-" else os.path.dirname(os.path.abspath(dst)))
    except InputError as e:
        sys.stderr.write("openings-md: %s\n" % e)
        return 1
    except (TypeError, ValueError, KeyError, AttributeError) as e:
        sys.stderr.write("openings-md: %s: malformed opening data (%s: %s)\n" % (src, type(e).__name__, e))
        return 1
    if dst == "-":
        sys.stdout.write(text)
        return 0
    tmp = dst + ".tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, dst)
    except OSError as e:
        sys.stderr.write("openings-md: %s: %s\n" % (dst, e.strerror or e))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
