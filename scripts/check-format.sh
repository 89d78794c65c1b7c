#!/usr/bin/env bash
# check-format.sh [BASE] - clang-format check of the C sources against .clang-format (clang-format
# 14, Debian's). Fails, printing the diff, when
#   1. a file listed in tests/data/formatted-files.txt is not formatted as a whole (the files
#      known to be formatted stay so), or
#   2. a line of a C file (.c, .h) changed since BASE, in a commit or in the work tree, is not
#      formatted (only the changed lines: clang-format-diff), or an untracked C file is not.
#
# BASE is the argument, else $RJ_FORMAT_BASE, else the commit in tests/data/format-base.txt:
# the commit on main where this check began. CI runs in a fresh clone of main, where no
# origin/main...HEAD range or previous CI run is known; a fixed commit of main's own history is
# there in every full clone, covers every commit since (a push of several commits included, not
# only HEAD~1..HEAD), and does not ask anyone to reformat the old lines of a file they touch. In a
# clone without that commit (shallow), HEAD~1 is the base if present, else only the list is
# checked; the script says which.
#
# To format a file: clang-format -i FILE, then add it to tests/data/formatted-files.txt.
# The script is one { ... } group ending in exit, read whole before it runs, so an
# edit of this file under a running job cannot change what that job runs.
{
set -euo pipefail
cd "$(dirname "$0")/.."
cf=$(command -v clang-format-14 || command -v clang-format || true)
cfd=$(command -v clang-format-diff-14 || command -v clang-format-diff || true)
if [ -z "$cf" ] || [ -z "$cfd" ]; then
    echo "check-format: clang-format (14) not found (scripts/setup.sh installs it)" >&2
    exit 1
fi
"$cf" --version | grep -q 'version 14\.' ||
    echo "check-format: warning: $("$cf" --version) is not clang-format 14; layouts may differ" >&2
list=tests/data/formatted-files.txt
bad=0

# 1. The listed files, whole.
n=0
while read -r f; do
    case "$f" in '' | '#'*) continue ;; esac
    [ -f "$f" ] || { echo "check-format: $list names $f, which does not exist" >&2; bad=1; continue; }
    n=$((n + 1))
    if ! "$cf" --style=file "$f" | diff -u --label "$f" --label "$f (formatted)" "$f" - >&2; then
        bad=1
    fi
done <"$list"

# 2. Lines changed since the base.
base="${1:-${RJ_FORMAT_BASE:-$(sed -n 's/^\([0-9a-f]\{40\}\).*/\1/p' tests/data/format-base.txt | head -1)}}"
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    echo "check-format: not a git checkout: only the $n listed files checked" >&2
    base=
elif ! git cat-file -e "$base^{commit}" 2>/dev/null; then
    if git cat-file -e "HEAD~1^{commit}" 2>/dev/null; then
        echo "check-format: base $base not in this clone (shallow?): changed lines since HEAD~1" >&2
        base=HEAD~1
    else
        echo "check-format: base $base not in this clone: only the $n listed files checked" >&2
        base=
    fi
fi
if [ -n "$base" ]; then
    out=$(git diff -U0 -M --no-color --diff-filter=ACMR "$base" -- '*.c' '*.h' | "$cfd" -p1 -binary "$cf")
    if [ -n "$out" ]; then
        printf '%s\n' "$out" >&2
        bad=1
    fi
    while read -r f; do
        [ -n "$f" ] || continue
        "$cf" --style=file "$f" | diff -u --label "$f" --label "$f (formatted)" "$f" - >&2 || bad=1
    done < <(git ls-files --others --exclude-standard -- '*.c' '*.h')
fi
if [ "$bad" != 0 ]; then
    echo "check-format: FAILED: not formatted as .clang-format says (diff above; fix with clang-format -i FILE)" >&2
    exit 1
fi
echo "check-format: ok ($n listed files${base:+, lines changed since $(git rev-parse --short "$base")})" >&2
exit
}
