#!/usr/bin/env python3
"""new-lines.py [--by-result] OUT [OLD.jsonl.xz...] < LINES - the lines that no OLD file has.

Writes to OUT, in input order, each line of standard input whose text is in
none of the OLD files (xz-compressed JSON Lines, the committed parts) and did
not come earlier in the input; prints "<input lines> <lines written>" on
standard output.  With no OLD file every distinct line is written.

Lines are compared by their 128-bit BLAKE2b digest (trailing newline
stripped), so memory is about 100 bytes per distinct old line and no sorted
copy of the input or of the old files is ever written: export-openings.sh
streams a many-GB export through it and keeps on disk only the new lines.
(Two different lines share a digest with probability about n^2 / 2^129:
below 1e-24 for 1e8 lines.)

--by-result compares `renju db export` lines by their start only, up to the
end of the "result" field (position, side to move, rules, attacker,
result): a line whose position already has that result in an OLD file is
not new, whatever its proof, counts and time (scripts/export-part.sh: a
result copied from a working database is stored again with a new time).
Lines without a "result" field are compared whole.
"""
import hashlib
import re
import subprocess
import sys


RESULT = re.compile(rb'"result":"[a-z]*"')


def digest(line, by_result=False):
    text = line.rstrip(b"\n")
    if by_result:
        m = RESULT.search(text)
        if m:
            text = text[:m.end()]
    return hashlib.blake2b(text, digest_size=16).digest()


def main(argv):
    by_result = len(argv) > 1 and argv[1] == "--by-result"
    if by_result:
        argv = argv[:1] + argv[2:]
    if len(argv) < 2 or argv[1].startswith("-"):
        sys.stderr.write("usage: new-lines.py [--by-result] OUT [OLD.jsonl.xz...] < LINES\n")
        return 2
    out, old = argv[1], argv[2:]
    seen = set()
    if old:
        xz = subprocess.Popen(["xz", "-dc", "--"] + old, stdout=subprocess.PIPE, bufsize=1 << 20)
        for line in xz.stdout:
            seen.add(digest(line, by_result))
        if xz.wait() != 0:
            sys.stderr.write("new-lines.py: xz -dc failed on %s\n" % " ".join(old))
            return 1
    total = written = 0
    with open(out, "wb") as f:
        for line in sys.stdin.buffer:
            total += 1
            d = digest(line, by_result)
            if d in seen:
                continue
            seen.add(d)
            written += 1
            f.write(line if line.endswith(b"\n") else line + b"\n")
    print(total, written)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
