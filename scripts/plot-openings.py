#!/usr/bin/python3
"""plot-openings.py - one board picture per renju opening, 4th moves coloured by result.

Usage:
    scripts/plot-openings.py [--in FILE] [--out DIR] [--only CODE[,CODE]]
    scripts/plot-openings.py --self-test

Reads FILE (default results/openings.json of this repository: a JSON array with
one object per opening, keys "code", "japanese", "chinese", "moves" and
"fourth", a list of white 4th-move classes {"move", "members", "status",
"wins_min", ...}) and writes DIR/<code>.png (default results/img/) for every
opening, or only for the codes given with --only (comma-separated, repeatable,
case-insensitive).  Each picture is a 700x760 px 15x15 board, a1 at the bottom
left, with the three opening stones numbered 1-3 and every point of every 4th-move
class (all its "members", else just "move") marked: green circle = proven (black
wins after that 4th move), red square = disproven (no 5th move wins for black),
small grey dot = unknown; the number on a green point is its proven lower bound on
W (winning 5th moves) when that is 2 or more.  The title counts board points, not
classes.  A class without "status" is classed from its bounds (wins_min >= 1:
proven, wins_max == 0: disproven).  The Chinese name appears in the title only
when a CJK font (Debian fonts-noto-cjk or fonts-wqy-zenhei) is installed.  The
PNGs carry no timestamp or version, so equal input gives equal bytes.

--self-test renders a built-in sample into a temporary directory and checks the
files, pixel size, marker colours and byte-for-byte repeatability; exit 0 if all
hold, else 1.  Needs Debian's python3-matplotlib (hence /usr/bin/python3).
Exit status: 0 done, 1 bad input or failed self-test, 2 usage error.
"""
import argparse
import glob
import json
import logging
import os
import random
import re
import struct
import sys
import tempfile

try:
    import matplotlib
except ImportError:
    sys.exit("plot-openings: needs matplotlib: apt-get install python3-matplotlib, then run with /usr/bin/python3")
matplotlib.use("Agg")
from matplotlib import font_manager  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Circle, Rectangle  # noqa: E402

N = 15
WIDTH_PX, HEIGHT_PX, DPI = 700, 760, 100
STARS = ["d4", "d12", "l4", "l12", "h8"]
WOOD, WOOD_EDGE, LINE = "#deb665", "#8a5a2b", "#3b2a14"
GREEN, RED, GREY = "#1a9641", "#d7191c", "#8c8c8c"
BOARD_BOTTOM, BOARD_SIDE = 0.095, 0.90 * WIDTH_PX / HEIGHT_PX  # board axes, fractions of the figure
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CJK_FILES = [
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
]
CJK_GLOBS = ["/usr/share/fonts/**/NotoSansCJK*", "/usr/share/fonts/**/NotoSerifCJK*",
             "/usr/share/fonts/**/wqy-zenhei*", "/usr/share/fonts/**/wqy-microhei*"]

logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)


class InputError(Exception):
    pass


# ---------------------------------------------------------------- notation

POINT_RE = re.compile(r"([a-o])(1[0-5]|[1-9])")


def parse_point(s):
    """'h8' -> (7, 7): column a..o -> x 0..14, row 1..15 -> y 0..14 (a1 = bottom left)."""
    m = POINT_RE.fullmatch(str(s).strip().lower())
    if not m:
        raise InputError(f"not a board point: {s!r}")
    return ord(m.group(1)) - ord("a"), int(m.group(2)) - 1


def point_str(p):
    return f"{chr(ord('a') + p[0])}{p[1] + 1}"


def parse_moves(s):
    """'h8 i9 i7', 'h8i9i7', 'H8,I9,I7' -> [(7,7), (8,8), (8,6)] (passes are dropped)."""
    return [parse_point(a + b) for a, b in POINT_RE.findall(str(s).lower().replace("pass", " "))]


# ---------------------------------------------------------------- fonts

_cjk = None  # (path, family name) once looked up; False if there is none


def cjk_font():
    global _cjk
    if _cjk is None:
        _cjk = False
        seen = []
        for pat in CJK_FILES + CJK_GLOBS:
            for path in sorted(glob.glob(pat, recursive=True)):
                if path not in seen and os.path.isfile(path):
                    seen.append(path)
        for path in seen:
            try:
                font_manager.fontManager.addfont(path)
                name = font_manager.FontProperties(fname=path).get_name()
                _cjk = (path, name)
                break
            except Exception:  # unreadable or unsupported file: try the next one
                continue
    return _cjk


def has_glyphs(path, text):
    try:
        from matplotlib.ft2font import FT2Font
        f = FT2Font(path)
        return all(f.get_char_index(ord(c)) != 0 for c in text if not c.isspace())
    except Exception:
        return False


def title_font(cjk_text):
    """A font family for a title containing cjk_text, or None to leave the CJK text out."""
    if not cjk_text:
        return ["DejaVu Sans"]
    cjk = cjk_font()
    if not cjk or not has_glyphs(cjk[0], cjk_text):
        return None
    major, minor = (int(v) for v in matplotlib.__version__.split(".")[:2])
    if (major, minor) >= (3, 6):  # per-glyph font fallback
        return ["DejaVu Sans", cjk[1]]
    return [cjk[1]]


# ---------------------------------------------------------------- data

def fourth_status(cl):
    st = cl.get("status")
    if st in ("proven", "disproven", "unknown"):
        return st
    if st is not None:
        raise InputError(f"4th move {cl.get('move')!r}: bad status {st!r}")
    lo, hi = cl.get("wins_min"), cl.get("wins_max")
    if isinstance(lo, int) and lo >= 1:
        return "proven"
    if isinstance(hi, int) and hi == 0:
        return "disproven"
    return "unknown"


def opening_points(op):
    """{point: (status, wins_min)} for every member of every 4th-move class of op."""
    code = op.get("code", "?")
    stones = parse_moves(op.get("moves", ""))
    out = {}
    for cl in op.get("fourth") or []:
        if not isinstance(cl, dict) or "move" not in cl:
            raise InputError(f"{code}: a 4th-move entry without 'move': {cl!r}")
        st = fourth_status(cl)
        members = cl.get("members") or [cl["move"]]
        for m in members:
            p = parse_point(m)
            if p in stones:
                raise InputError(f"{code}: 4th move {m} is on an opening stone")
            out[p] = (st, cl.get("wins_min") if isinstance(cl.get("wins_min"), int) else 0)
    return out


# ---------------------------------------------------------------- drawing

def render(op, path):
    code = str(op.get("code", "?"))
    stones = parse_moves(op.get("moves", ""))
    if len(stones) < 3:
        raise InputError(f"{code}: 'moves' should hold the 3 opening stones, got {op.get('moves')!r}")
    pts = opening_points(op)
    count = {s: sum(1 for v in pts.values() if v[0] == s) for s in ("proven", "disproven", "unknown")}

    fig = Figure(figsize=(WIDTH_PX / DPI, HEIGHT_PX / DPI), dpi=DPI, facecolor="white")
    ax = fig.add_axes([0.05, BOARD_BOTTOM, 0.90, BOARD_SIDE])
    lo, hi = -1.05, N + 0.05
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_aspect("equal")
    ax.axis("off")

    # wooden board with the coordinates on its rim
    ax.add_patch(Rectangle((lo, lo), hi - lo, hi - lo, facecolor=WOOD, edgecolor=WOOD_EDGE, linewidth=2.5,
                           zorder=0))
    for i in range(N):
        w = 1.6 if i in (0, N - 1) else 0.8
        ax.plot([0, N - 1], [i, i], color=LINE, linewidth=w, zorder=1, solid_capstyle="projecting")
        ax.plot([i, i], [0, N - 1], color=LINE, linewidth=w, zorder=1, solid_capstyle="projecting")
        ax.text(i, -0.72, chr(ord("a") + i), ha="center", va="center", fontsize=10, color=LINE, zorder=1)
        ax.text(-0.72, i, str(i + 1), ha="center", va="center", fontsize=10, color=LINE, zorder=1)
    for s in STARS:
        x, y = parse_point(s)
        ax.add_patch(Circle((x, y), 0.09, facecolor=LINE, edgecolor="none", zorder=2.5))  # above grey dots

    # 4th moves
    for (x, y), (st, wmin) in sorted(pts.items()):
        if st == "proven":
            ax.add_patch(Circle((x, y), 0.34, facecolor=GREEN, edgecolor="#0b4d21", linewidth=0.8, zorder=3))
            if wmin >= 2:
                ax.text(x, y - 0.01, str(wmin), ha="center", va="center", fontsize=7 if wmin < 100 else 6,
                        fontweight="bold", color="white", zorder=4)
        elif st == "disproven":
            ax.add_patch(Rectangle((x - 0.28, y - 0.28), 0.56, 0.56, facecolor=RED, edgecolor="#6b0c0d",
                                   linewidth=0.8, zorder=3))
        else:
            ax.add_patch(Circle((x, y), 0.16, facecolor="#ececec", edgecolor=GREY, linewidth=0.8, zorder=2))

    # the opening stones, numbered
    for k, (x, y) in enumerate(stones[:3]):
        black = k % 2 == 0
        ax.add_patch(Circle((x + 0.04, y - 0.05), 0.45, facecolor="#00000040", edgecolor="none", zorder=5))
        ax.add_patch(Circle((x, y), 0.45, facecolor="#111111" if black else "#fafafa",
                            edgecolor="#000000" if black else "#333333", linewidth=1.0, zorder=6))
        ax.text(x, y - 0.02, str(k + 1), ha="center", va="center", fontsize=11, fontweight="bold",
                color="white" if black else "black", zorder=7)

    # title: code, name, counts
    chinese = str(op.get("chinese") or "")
    family = title_font(chinese)
    name = str(op.get("japanese") or op.get("english") or "")
    if family is None:
        family, label = ["DejaVu Sans"], f"{code} {name}"
    else:
        label = f"{code} {name} ({chinese})" if chinese else f"{code} {name}"
    title = (f"{label.strip()} \u2014 4th moves: {count['proven']} black wins, "
             f"{count['disproven']} not, {count['unknown']} unknown")
    t = fig.text(0.5, 0.972, title, ha="center", va="center", fontsize=12.5, fontweight="bold", family=family)
    renderer = FigureCanvasAgg(fig).get_renderer()
    while t.get_fontsize() > 8 and t.get_window_extent(renderer).width > 0.97 * WIDTH_PX:
        t.set_fontsize(t.get_fontsize() - 0.5)  # long names and counts: shrink to fit
    sub = [" ".join(point_str(p) for p in stones)]
    ns = op.get("noswap")
    if isinstance(ns, dict) and ns.get("result"):
        sub.append(f"no swap: {ns['result']}")
    if isinstance(op.get("n_fair_min"), int) and isinstance(op.get("n_fair_max"), int):
        a, b = op["n_fair_min"], op["n_fair_max"]
        sub.append(f"N fair = {a}" if a == b else f"N fair in [{a}, {b}]")
    fig.text(0.5, 0.943, "   \u00b7   ".join(sub), ha="center", va="center", fontsize=9.5, color="#444444")

    # legend
    handles = [
        Line2D([], [], linestyle="none", marker="o", markersize=10, markerfacecolor=GREEN,
               markeredgecolor="#0b4d21", label=f"black wins ({count['proven']})"),
        Line2D([], [], linestyle="none", marker="s", markersize=9, markerfacecolor=RED,
               markeredgecolor="#6b0c0d", label=f"not a black win ({count['disproven']})"),
        Line2D([], [], linestyle="none", marker="o", markersize=5, markerfacecolor="#e8e8e8",
               markeredgecolor=GREY, label=f"unknown ({count['unknown']})"),
    ]
    fig.legend(handles=handles, loc="center", bbox_to_anchor=(0.5, 0.058), ncol=3, frameon=False,
               fontsize=10, handletextpad=0.4, columnspacing=1.8)
    fig.text(0.5, 0.02, "Marks: white 4th moves.  Number on a green point: proven lower bound on W "
             "(winning 5th moves), if \u2265 2", ha="center", va="center", fontsize=8,
             color="#555555")

    tmp = f"{path}.tmp{os.getpid()}"
    fig.savefig(tmp, format="png", dpi=DPI, metadata={"Software": None})
    os.replace(tmp, path)
    return count


# ---------------------------------------------------------------- driver

def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror}")
    except ValueError as e:
        raise InputError(f"{path}: not JSON: {e}")
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list) or not all(isinstance(o, dict) and "code" in o for o in data):
        raise InputError(f"{path}: expected an array of opening objects with a 'code'")
    return data


def run(inp, out, only=None, quiet=False):
    ops = load(inp)
    if only:
        want = {c.strip().upper() for c in only if c.strip()}
        have = {str(o["code"]).upper() for o in ops}
        missing = sorted(want - have)
        if missing:
            raise InputError(f"{inp}: no opening {', '.join(missing)} (has {', '.join(sorted(have)) or 'none'})")
        ops = [o for o in ops if str(o["code"]).upper() in want]
    os.makedirs(out, exist_ok=True)
    written = []
    for op in ops:
        code = str(op["code"])
        if not re.fullmatch(r"[A-Za-z0-9_-]+", code):
            raise InputError(f"bad opening code {code!r}")
        path = os.path.join(out, f"{code}.png")
        c = render(op, path)
        written.append(path)
        if not quiet:
            print(f"{path}: {c['proven']} black wins, {c['disproven']} not, {c['unknown']} unknown")
    return written


# ---------------------------------------------------------------- self-test

SYMS = [
    lambda x, y: (x, y), lambda x, y: (N - 1 - y, x), lambda x, y: (N - 1 - x, N - 1 - y),
    lambda x, y: (y, N - 1 - x), lambda x, y: (N - 1 - x, y), lambda x, y: (x, N - 1 - y),
    lambda x, y: (y, x), lambda x, y: (N - 1 - y, N - 1 - x),
]


def sample_opening(code, jp, zh, en, moves, seed):
    """A made-up result for an opening: its real 4th-move classes (symmetric points grouped), random statuses."""
    stones = parse_moves(moves)
    b, w = set(stones[0::2]), set(stones[1::2])
    stab = [s for s in SYMS if {s(*p) for p in b} == b and {s(*p) for p in w} == w]
    rng = random.Random(seed)
    seen, fourth = set(), []
    for y in range(N):
        for x in range(N):
            if (x, y) in seen or (x, y) in stones:
                continue
            cls = sorted({s(x, y) for s in stab}, key=lambda p: (p[1], p[0]))
            seen.update(cls)
            near = max(abs(x - 7), abs(y - 7)) <= 2
            r = rng.random()
            if near and r < 0.6:
                st, lo, hi = "proven", rng.choice([1, 1, 2, 3, 5, 12, 140]), 200
            elif r < 0.08:
                st, lo, hi = "disproven", 0, 0
            else:
                st, lo, hi = "unknown", 0, 200
            fourth.append({"move": point_str(cls[0]), "members": [point_str(p) for p in cls], "status": st,
                           "wins_min": lo, "wins_max": hi, "nfifth": 221})
    fourth[-1].pop("members")  # "members" is optional
    if fourth[-1]["status"] != "proven":
        fourth[-1].pop("status")  # so is "status" (then the bounds decide)
    return {"code": code, "japanese": jp, "chinese": zh, "english": en, "moves": moves,
            "noswap": {"result": "unknown", "pn": 3, "dn": 40}, "fourth": fourth,
            "n_fair_min": 1 + min(c["wins_min"] for c in fourth), "n_fair_max": 221}


def sample():
    return [sample_opening("I7", "Hogetsu", "浦月", "Bay Moon", "h8 i9 i7", 7),
            sample_opening("D1", "Kansei", "寒星", "Cold Star", "h8 h9 h10", 1),
            sample_opening("I1", "Chosei", "长星", "Long Star", "h8 i9 j10", 13)]


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


def self_test():
    from matplotlib import image
    ok = True

    def check(cond, what):
        nonlocal ok
        print(f"{'ok  ' if cond else 'FAIL'} {what}")
        ok = ok and bool(cond)

    with tempfile.TemporaryDirectory(prefix="plot-openings-") as d:
        inp, out = os.path.join(d, "openings.json"), os.path.join(d, "img")
        ops = sample()
        with open(inp, "w", encoding="utf-8") as f:
            json.dump(ops, f, ensure_ascii=False)
        run(inp, out, quiet=True)
        for op in ops:
            p = os.path.join(out, op["code"] + ".png")
            check(os.path.isfile(p), f"{p} written")
            if not os.path.isfile(p):
                continue
            check(png_size(p) == (WIDTH_PX, HEIGHT_PX), f"{op['code']}.png is {WIDTH_PX}x{HEIGHT_PX} px "
                  f"(got {png_size(p)})")
            top = round(HEIGHT_PX * (1 - BOARD_BOTTOM - BOARD_SIDE)) + 2  # the board only, not the legend
            px = image.imread(p)[top:round(HEIGHT_PX * (1 - BOARD_BOTTOM)) - 2, :, :3]
            for name, hexc in (("green", GREEN), ("red", RED)):
                rgb = [int(hexc[i:i + 2], 16) / 255 for i in (1, 3, 5)]
                n = int(((abs(px - rgb) < 0.02).all(axis=2)).sum())
                want = any(st == {"green": "proven", "red": "disproven"}[name]
                           for st, _ in opening_points(op).values())
                check((n > 50) == want, f"{op['code']}.png has {name} markers: {n} px (expected {want})")
        pts = opening_points(ops[1])  # D1 is mirror-symmetric: every class has its mirror images
        check(all(pts.get((N - 1 - x, y)) == v for (x, y), v in pts.items()), "D1 members coloured symmetrically")
        check(len(pts) == N * N - 3, f"D1: all {N * N - 3} empty points marked (got {len(pts)})")
        first = open(os.path.join(out, "I7.png"), "rb").read()
        run(inp, os.path.join(d, "again"), only=["i7"], quiet=True)
        again = sorted(os.listdir(os.path.join(d, "again")))
        check(again == ["I7.png"], f"--only i7 writes just I7.png (got {again})")
        check(open(os.path.join(d, "again", "I7.png"), "rb").read() == first, "output is byte-for-byte repeatable")
        check(b"tIME" not in first and b"Software" not in first, "no timestamp or software chunk")
        try:
            run(inp, out, only=["D99"], quiet=True)
            check(False, "--only with an unknown code is rejected")
        except InputError:
            check(True, "--only with an unknown code is rejected")
    print("CJK font:", cjk_font()[1] if cjk_font() else "none (Chinese names left out)")
    print("self-test", "passed" if ok else "FAILED")
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description="Draw one board per renju opening, 4th moves coloured by result.",
                                 epilog="Paths default to this repository's results/openings.json and results/img/.")
    ap.add_argument("--in", dest="inp", default=os.path.join(REPO, "results", "openings.json"), metavar="FILE",
                    help="openings JSON (default: results/openings.json)")
    ap.add_argument("--out", default=os.path.join(REPO, "results", "img"), metavar="DIR",
                    help="output directory for <code>.png (default: results/img)")
    ap.add_argument("--only", action="append", metavar="CODE[,CODE]",
                    help="draw only these openings (comma-separated, repeatable)")
    ap.add_argument("--self-test", action="store_true", help="render a built-in sample and check it; exit 0/1")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    only = [c for arg in a.only for c in arg.split(",")] if a.only else None
    try:
        run(a.inp, a.out, only)
    except InputError as e:
        print(f"plot-openings: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
