#!/usr/bin/env python3
"""sym-positions.py [IN] - every position of IN (default results/bench-positions.txt:
move lists, one a line, '#' comments) in each of the 8 board symmetries, one a
line, the identity first.  A position's work under df-pn depends on its
orientation only through the order of equally scored moves, yet varies 10-50x
over the 8 (results/solver-bench.md), so a suite in one orientation measures
that orientation's luck as much as the solver; this one does not."""
import sys

N = 15
SYMS = [
    lambda x, y: (x, y),
    lambda x, y: (N - 1 - y, x),
    lambda x, y: (N - 1 - x, N - 1 - y),
    lambda x, y: (y, N - 1 - x),
    lambda x, y: (N - 1 - x, y),
    lambda x, y: (x, N - 1 - y),
    lambda x, y: (y, x),
    lambda x, y: (N - 1 - y, N - 1 - x),
]


def parse(move):
    x, y = ord(move[0]) - ord("a"), int(move[1:]) - 1
    if not (0 <= x < N and 0 <= y < N):
        raise ValueError(f"not a board point: {move}")
    return x, y


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "results/bench-positions.txt"
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        moves = [parse(m) for m in line.split()]
        for f in SYMS:
            print(" ".join(f"{chr(ord('a') + a)}{b + 1}" for a, b in (f(x, y) for x, y in moves)))


if __name__ == "__main__":
    main()
