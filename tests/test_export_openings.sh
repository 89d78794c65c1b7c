#!/usr/bin/env bash
# test_export_openings.sh RENJU SOURCE_DIR - scripts/export-openings.sh end to
# end, in a scratch copy of the scripts (it writes into results/ of the tree it
# lives in): the first export writes openings-db.jsonl.xz and
# search-states.jsonl.xz; a later one only the lines no committed part has, as
# openings-db-001.jsonl.xz and search-states-001.jsonl.xz; all the parts
# imported into a new database give the merged database's results and trees
# byte for byte; a later part is exactly the export's lines no committed part
# has, in the export's order; an export with nothing new adds no part;
# new-lines.py's set difference on its own; bad arguments stop it with one line
# and no part written.
set -euo pipefail
bin=$(realpath "$1")
src=$(realpath "$2")
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
fail() { echo "test_export_openings: FAIL: $*" >&2; exit 1; }
mkdir -p "$tmp/repo/scripts" "$tmp/repo/results"
cp "$src"/scripts/{export-openings.sh,make-openings.sh,openings-md.py,new-lines.py} "$tmp/repo/scripts/"
cd "$tmp"
export RENJU="$bin" RENJU_PLOTS=0
res=repo/results
search() { "$bin" opening search "$1" --goal win --job-nodes 20000 --max-jobs "$2" --db "$3" --progress none > /dev/null; }
export_db() { bash repo/scripts/export-openings.sh "$@" 2> export.err || { cat export.err >&2; return 1; }; }
lines() { xz -dc "$@" | wc -l; }

# 1. The first export: one file of each kind, the merged database's lines.
search "h8 i9 i7 i8 g9" 20 a.lmdb
export_db out1.lmdb a.lmdb
[ -s $res/openings-db.jsonl.xz ] && [ -s $res/search-states.jsonl.xz ] || fail "first export: files missing"
[ ! -e $res/openings-db-001.jsonl.xz ] || fail "first export: a part 001"
"$bin" db export --db out1.lmdb --quiet > r1
"$bin" db export --states --db out1.lmdb --quiet > s1
[ -s r1 ] && [ -s s1 ] || fail "the search stored no results or no states"
cmp -s r1 <(xz -dc $res/openings-db.jsonl.xz) || fail "openings-db.jsonl.xz is not the merged results"
cmp -s s1 <(xz -dc $res/search-states.jsonl.xz) || fail "search-states.jsonl.xz is not the merged states"
[ "$(grep -c '"code"' $res/openings.json)" = 26 ] || fail "make-openings did not write the 26 openings"
[ -s $res/openings.md ] || fail "make-openings did not write openings.md"

# 2. More jobs on the same tree and a second search: only what changed, as part 001.
search "h8 i9 i7 i8 g9" 60 a.lmdb
search "h8 h9 i9 i11 j8" 20 b.lmdb
export_db out2.lmdb a.lmdb b.lmdb
for k in openings-db search-states; do
  [ -s $res/$k-001.jsonl.xz ] || fail "second export: no $k-001.jsonl.xz"
  # no line of the new part is in the first file
  if [ -n "$(LC_ALL=C comm -12 <(xz -dc $res/$k.jsonl.xz | LC_ALL=C sort) <(xz -dc $res/$k-001.jsonl.xz | LC_ALL=C sort))" ]
  then fail "$k-001.jsonl.xz repeats lines of $k.jsonl.xz"; fi
done
"$bin" db export --db out2.lmdb --quiet > r2
"$bin" db export --states --db out2.lmdb --quiet > s2
[ "$(lines $res/openings-db-001.jsonl.xz)" -lt "$(wc -l < r2)" ] || fail "part 001 is not smaller than the export"
# its count, and exactly the export's lines that the first file lacks, in the export's order
grep -qx "export-openings: results/openings-db-001.jsonl.xz: $(lines $res/openings-db-001.jsonl.xz) new or changed lines (of $(wc -l < r2) in the export)" export.err \
  || fail "wrong counts for openings-db-001: $(cat export.err)"
cmp -s <(xz -dc $res/openings-db-001.jsonl.xz) <(grep -vxFf <(xz -dc $res/openings-db.jsonl.xz) r2) \
  || fail "openings-db-001.jsonl.xz is not the export's new lines in order"
cmp -s <(xz -dc $res/search-states-001.jsonl.xz) <(grep -vxFf <(xz -dc $res/search-states.jsonl.xz) s2) \
  || fail "search-states-001.jsonl.xz is not the export's new lines in order"
grep -q '"work"' <(xz -dc $res/search-states-001.jsonl.xz) || fail "search-states-001 has no state"
# a state that changed is in both parts: the new one is further along
changed=$(LC_ALL=C join -t '"' -j 4 <(xz -dc $res/search-states.jsonl.xz | LC_ALL=C sort -t '"' -k4,4) \
  <(xz -dc $res/search-states-001.jsonl.xz | LC_ALL=C sort -t '"' -k4,4) | wc -l)
[ "$changed" -gt 0 ] || fail "no tree node of the first export changed in the second"

# 3. Every part imported, in either order, is the merged database.
for order in fwd rev; do
  rm -rf fresh.lmdb*
  if [ $order = fwd ]; then parts=("$res"/openings-db.jsonl.xz "$res"/openings-db-001.jsonl.xz
                                  "$res"/search-states.jsonl.xz "$res"/search-states-001.jsonl.xz)
  else parts=("$res"/search-states-001.jsonl.xz "$res"/openings-db-001.jsonl.xz "$res"/search-states.jsonl.xz
              "$res"/openings-db.jsonl.xz); fi
  xz -dc "${parts[@]}" | "$bin" db import - --db fresh.lmdb --quiet > /dev/null
  "$bin" db export --db fresh.lmdb --quiet | cmp -s - r2 || fail "$order: the parts' results differ from the merge"
  "$bin" db export --states --db fresh.lmdb --quiet | cmp -s - s2 || fail "$order: the parts' states differ from the merge"
done

# 4. Nothing new: no part; also from a new search of the same root (its results tie the committed
#    ones, its tree has less work).
export_db out3.lmdb out2.lmdb
[ ! -e $res/openings-db-002.jsonl.xz ] && [ ! -e $res/search-states-002.jsonl.xz ] || fail "a part with nothing new"
grep -q "nothing new" export.err || fail "no 'nothing new' note"
search "h8 i9 i7 i8 g9" 20 c.lmdb
export_db out3b.lmdb c.lmdb
[ "$(grep -c "nothing new" export.err)" = 2 ] || fail "a new search of the same root made a part"

# 5. A third export after more jobs: part 002, numbered after 001; all three parts import to it.
search "h8 i9 i7 i8 g9" 100 a.lmdb
export_db out5.lmdb a.lmdb
[ -s $res/search-states-002.jsonl.xz ] || fail "third export: no search-states-002.jsonl.xz"
rm -rf fresh.lmdb*
xz -dc "$res"/search-states-002.jsonl.xz "$res"/openings-db*.jsonl.xz "$res"/search-states-00[1].jsonl.xz \
  "$res"/search-states.jsonl.xz | "$bin" db import - --db fresh.lmdb --quiet > /dev/null
cmp -s <("$bin" db export --db fresh.lmdb --quiet) <("$bin" db export --db out5.lmdb --quiet) || fail "002: results"
cmp -s <("$bin" db export --states --db fresh.lmdb --quiet) <("$bin" db export --states --db out5.lmdb --quiet) \
  || fail "002: states"

# 6. --rebase: one file of each kind again, the numbered parts gone.
export_db --rebase out6.lmdb a.lmdb
! compgen -G "$res/*-00[0-9].jsonl.xz" > /dev/null || fail "--rebase left numbered parts"
cmp -s <(xz -dc $res/search-states.jsonl.xz) <("$bin" db export --states --db a.lmdb --quiet) \
  || fail "--rebase: search-states.jsonl.xz is not the search's tree"

# 7. new-lines.py on its own: repeated input lines once, a last line without newline, old lines
#    from several files left out; usage error.
printf 'a\nb\n' | xz > old1.xz
printf 'c\n' | xz > old2.xz
[ "$(printf 'b\nd\na\nd\ne\nc\nf' | python3 repo/scripts/new-lines.py nl.out old1.xz old2.xz)" = "7 3" ] \
  || fail "new-lines.py: wrong counts"
cmp -s nl.out <(printf 'd\ne\nf\n') || fail "new-lines.py: wrong lines: $(cat nl.out)"
[ "$(printf 'x\ny\nx\n' | python3 repo/scripts/new-lines.py nl.out)" = "3 2" ] || fail "new-lines.py without old files"
cmp -s nl.out <(printf 'x\ny\n') || fail "new-lines.py without old files: wrong lines: $(cat nl.out)"
rc=0; python3 repo/scripts/new-lines.py 2> /dev/null < /dev/null || rc=$?
[ "$rc" = 2 ] || fail "new-lines.py without OUT: exit $rc, not 2"
# --by-result: lines compared up to the end of their "result" field (a result stored again with a new time is not new).
printf '{"position":"P","result":"proven","time":1}\n{"position":"Q","result":"unknown","time":1}\n' | xz > old3.xz
printf '{"position":"P","result":"proven","time":2}\n{"position":"Q","result":"proven","time":2}\nplain\n' > br.in
[ "$(python3 repo/scripts/new-lines.py --by-result nl.out old3.xz < br.in)" = "3 2" ] || fail "new-lines.py --by-result: wrong counts"
cmp -s nl.out <(tail -n 2 br.in) || fail "new-lines.py --by-result: wrong lines: $(cat nl.out)"
[ "$(python3 repo/scripts/new-lines.py nl.out old3.xz < br.in)" = "3 3" ] || fail "new-lines.py without --by-result compares whole lines"
rc=0; python3 repo/scripts/new-lines.py nl.out missing.xz 2> /dev/null < /dev/null || rc=$?
[ "$rc" = 1 ] || fail "new-lines.py with a missing old file: exit $rc, not 1"

# 8. Bad arguments: one line, exit 1, no part written.
for args in "out1.lmdb a.lmdb" "out4.lmdb missing.lmdb"; do
  rc=0
  bash repo/scripts/export-openings.sh $args 2> bad.err || rc=$?
  [ "$rc" = 1 ] || fail "export-openings.sh $args: exit $rc, not 1"
  [ "$(wc -l < bad.err)" = 1 ] || fail "export-openings.sh $args: not one line: $(cat bad.err)"
done
[ ! -e out4.lmdb ] || fail "a database made for a missing input"
! compgen -G "$res/*-00[0-9].jsonl.xz" > /dev/null || fail "a part written for bad arguments"
! compgen -G "$res/.part-*" > /dev/null || fail "a temporary part left behind"
echo "test_export_openings: ok" >&2
