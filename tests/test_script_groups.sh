#!/usr/bin/env bash
# test_script_groups.sh SOURCE_DIR - every bash script (*.sh) under scripts/ is one
# { ... } group that ends in exit: bash reads a script as it runs it, so a
# script that is not read whole first can run a mix of old and new lines when
# its file is rewritten in place under a long job (session 38's class sweeps
# ended in "syntax error near unexpected token" that way).  Checks, per
# script: the first line after the leading comments is "{", the last line is
# "}", the line before it is an exit, those two braces pair with each other
# (bash -n accepts the file with them turned into "(" and ")"), and bash -n
# accepts the file.  (The slurm/*.sbatch files are copied by sbatch when a job
# is submitted, so an edit cannot reach a running job.)
# tests/test_class_sweep.sh rewrites a running class-sweep.sh in place to show
# the group holds.
set -euo pipefail
src=$(realpath "$1")
n=0 bad=0
while IFS= read -r -d '' f; do
  head -n 1 "$f" | grep -q bash || continue
  n=$((n + 1))
  first=$(grep -v -m 1 -E '^(#.*)?[[:space:]]*$' "$f" || true)
  last=$(tail -n 1 "$f")
  before=$(tail -n 2 "$f" | head -n 1)
  why=""
  [ "$first" = "{" ] || why="its first line after the comments is '$first', not '{'"
  [ -z "$why" ] && [ "$last" != "}" ] && why="its last line is '$last', not '}'"
  [ -z "$why" ] && ! [[ "$before" =~ ^exit([[:space:]]|$) ]] && why="the line before its closing '}' is '$before', not an exit"
  [ -z "$why" ] && ! bash -n "$f" 2> /dev/null && why="bash -n rejects it"
  [ -z "$why" ] && ! sed -e '0,/^{$/s//(/' -e '$s/^}$/)/' "$f" | bash -n 2> /dev/null &&
    why="its first '{' and last '}' do not pair: the group closes early"
  if [ -n "$why" ]; then
    echo "test_script_groups: FAIL: ${f#"$src"/}: $why" >&2
    bad=$((bad + 1))
  fi
done < <(find "$src/scripts" -type f -name '*.sh' -print0)
[ "$n" -ge 10 ] || { echo "test_script_groups: FAIL: only $n bash scripts found under $src/scripts" >&2; exit 1; }
[ "$bad" -eq 0 ] || exit 1
echo "test_script_groups: ok ($n scripts)"
