#!/usr/bin/env python3
"""Tables of the opening ladder (scripts/bench-ladder.sh) and their comparison.

  ladder-compare.py OLD.md NEW.md
      join two ladder tables by position name: both results, both work counts,
      the ratio new/old, and the totals (proven in each, newly proven, lost,
      median and geometric mean of new/old work over the positions both prove,
      the same over the positions the old binary proves).
  ladder-compare.py --table RAW [--command C] [--binary B] [--solve S]
      the Markdown table of bench-ladder.sh from its raw lines
      (name TAB stones TAB moves TAB exit-code TAB solve-json).
  ladder-compare.py --proven-names TABLE.md
      the names a table reports proven, one a line.
"""
import json
import math
import statistics
import sys

COLS = ["name", "stones", "moves", "result", "work nodes", "df-pn nodes", "proof nodes", "seconds"]


def fmt_int(v):
    return f"{v:,}" if isinstance(v, int) else str(v)


def read_raw(path):
    rows = []
    with open(path) as fh:
        for line in fh:
            name, stones, moves, rc, js = line.rstrip("\n").split("\t", 4)
            try:
                d = json.loads(js)
            except ValueError:
                d = {}
            res = d.get("result")
            if not res:
                res = f"error (exit {rc})"
            elif rc not in ("0", ""):
                res = f"{res} (exit {rc})"
            if res == "proven" and d.get("verified") is False:
                res += " (proof rejected)"
            rows.append({
                "name": name,
                "stones": int(stones) if stones.isdigit() else stones,
                "moves": moves,
                "result": res,
                "work": d.get("nodes", 0),
                "dfpn": d.get("dfpn_nodes", 0),
                "proof": d.get("proof_nodes") if res == "proven" else None,
                "checked": d.get("verified") is True,
                "seconds": d.get("time_s", 0.0),
            })
    return rows


def totals(rows):
    proven = [r for r in rows if r["result"] == "proven"]
    work = sum(r["work"] for r in rows)
    med = statistics.median(r["work"] for r in proven) if proven else 0
    secs = sum(r["seconds"] for r in rows)
    return proven, work, med, secs


def by_stones(rows):
    out = {}
    for r in rows:
        p, t = out.get(r["stones"], (0, 0))
        out[r["stones"]] = (p + (r["result"] == "proven"), t + 1)
    return ", ".join(f"{s}: {p}/{t}" for s, (p, t) in sorted(out.items(), key=lambda kv: str(kv[0]).zfill(3)))


def print_table(rows, command, binary, solve):
    if command:
        print(f"    {command}")
        print()
    if binary or solve:
        print(f"Binary `{binary}`; each position: `{solve}`.")
        print()
    print("| " + " | ".join(COLS) + " |")
    print("|---|---:|---|---|---:|---:|---:|---:|")
    for r in rows:
        proof = fmt_int(r["proof"]) if r["proof"] is not None else "-"
        if r["checked"]:
            proof += " checked"
        print(f"| {r['name']} | {r['stones']} | `{r['moves']}` | {r['result']} | {fmt_int(r['work'])} | "
              f"{fmt_int(r['dfpn'])} | {proof} | {r['seconds']:.2f} |")
    proven, work, med, secs = totals(rows)
    print()
    print(f"**Totals**: proven {len(proven)} of {len(rows)} (by stones {by_stones(rows)}); "
          f"median work to proof over the proven ones {fmt_int(int(med))}; "
          f"total work {fmt_int(work)}; total {secs:.1f} s.")


def parse_md(path):
    """The ladder rows of a Markdown file: the first table whose header starts `| name | stones |`."""
    rows = []
    cols = None
    with open(path) as fh:
        for line in fh:
            line = line.strip()
            if not line.startswith("|"):
                if cols and rows:
                    break
                continue
            cells = [c.strip() for c in line.strip("|").split("|")]
            if cells[:2] == ["name", "stones"]:
                cols = cells
                continue
            if not cols or set(cells[0]) <= set("-: "):
                continue
            d = dict(zip(cols, cells))

            def num(k):
                v = d.get(k, "-").replace(",", "").split(" ")[0]
                try:
                    return int(v)
                except ValueError:
                    try:
                        return float(v)
                    except ValueError:
                        return None

            rows.append({
                "name": d["name"],
                "stones": num("stones"),
                "moves": d.get("moves", "").strip("`"),
                "result": d.get("result", "?"),
                "work": num("work nodes") or 0,
                "dfpn": num("df-pn nodes") or 0,
                "proof": num("proof nodes"),
                "seconds": num("seconds") or 0.0,
            })
    if not rows:
        sys.exit(f"ladder-compare.py: no ladder table in {path}")
    return rows


def gmean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else 0.0


def compare(old_path, new_path):
    old = {r["name"]: r for r in parse_md(old_path)}
    new = parse_md(new_path)
    print(f"Comparison: old `{old_path}`, new `{new_path}` (work = work nodes; ratio new/old, < 1 is better).")
    print()
    print("| name | stones | old result | new result | old work | new work | new/old | old proof | new proof |")
    print("|---|---:|---|---|---:|---:|---:|---:|---:|")
    both, ratios, newly, lost = [], [], [], []
    for r in new:
        o = old.get(r["name"])
        if o is None:
            ores, owork, oproof, ratio = "-", "-", "-", "-"
        else:
            ores, owork = o["result"], fmt_int(o["work"])
            oproof = fmt_int(o["proof"]) if o["proof"] is not None else "-"
            ratio = f"{r['work'] / o['work']:.3g}" if o["work"] else "-"
            if o["result"] == "proven" and r["result"] == "proven":
                both.append(r["name"])
                ratios.append(r["work"] / o["work"])
            elif r["result"] == "proven":
                newly.append(r["name"])
            elif o["result"] == "proven":
                lost.append(r["name"])
        nproof = fmt_int(r["proof"]) if r["proof"] is not None else "-"
        print(f"| {r['name']} | {r['stones']} | {ores} | {r['result']} | {owork} | {fmt_int(r['work'])} | "
              f"{ratio} | {oproof} | {nproof} |")
    common = [r for r in new if r["name"] in old]
    op = sum(old[r["name"]]["result"] == "proven" for r in common)
    np_ = sum(r["result"] == "proven" for r in common)
    print()
    print(f"**Compared** {len(common)} positions: proven old {op}, new {np_}; "
          f"newly proven {len(newly)}{' (' + ', '.join(newly) + ')' if newly else ''}; "
          f"no longer proven {len(lost)}{' (' + ', '.join(lost) + ')' if lost else ''}.")
    if ratios:
        ow = statistics.median(old[n]["work"] for n in both)
        nw = statistics.median(r["work"] for r in new if r["name"] in both)
        print(f"On the {len(both)} proven by both: work new/old median {statistics.median(ratios):.3g}, "
              f"geometric mean {gmean(ratios):.3g}; median work {fmt_int(int(ow))} -> {fmt_int(int(nw))} "
              f"({ow / nw if nw else 0:.3g}x lower).")


def main(argv):
    if len(argv) >= 2 and argv[0] == "--table":
        opts = dict(zip(argv[2::2], argv[3::2]))
        print_table(read_raw(argv[1]), opts.get("--command"), opts.get("--binary"), opts.get("--solve"))
    elif len(argv) == 2 and argv[0] == "--proven-names":
        for r in parse_md(argv[1]):
            if r["result"] == "proven":
                print(r["name"])
    elif len(argv) == 2 and not argv[0].startswith("-"):
        compare(argv[0], argv[1])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
