#!/usr/bin/env bash
# --help is what the parser takes (docs/cli.md): for every command, each long option of its
# getopt_long table (src/cli/*.c) is in `cutune CMD --help` and in docs/cli.md's section of
# that command; each option an option line of --help names is one the parser takes; and a
# range A..B that --help states for a count is the range the parser refuses outside of.
# No GPU, no data. Prints "ok"/"not ok" lines and "N passed, N failed".
set -u
exe=${CUTUNE_EXE:?CUTUNE_EXE not set}
here=$(cd "$(dirname "$0")" && pwd)
root=${CUTUNE_SOURCE_ROOT:-$here/../..}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
. "$here/lib.sh"
export CUTUNE_DB=none

# table FILE: the long option names of FILE's first `struct option longopts[]`
table() {
    awk '/struct option longopts\[\] = \{/ {on = 1}
         on { while (match($0, /\{"[a-z0-9-]+",/)) { print substr($0, RSTART + 2, RLENGTH - 4)
                                                     $0 = substr($0, RSTART + RLENGTH) } }
         on && /\{NULL, 0, NULL, 0\}/ {exit}' "$1"
}

# section TITLE: docs/cli.md from the heading "## TITLE" to the next "## "; without TITLE,
# what comes before the first (the synopsis of every command)
section() {
    awk -v t="## $1" '$0 == t || (t == "## " && NR == 1) {on = 1; next} on && /^## / {exit} on' \
        "$root/docs/cli.md"
}

# check CMD FILE DOCS_TITLE: FILE's options against CMD --help and the docs section
check() {
    local cmd=$1 file=$2 title=$3 names help docs n missing_h="" missing_d=""
    names=$(table "$root/src/cli/$file")
    [ -n "$names" ] && ok "$cmd: its option table is read from $file" \
        || { bad "$cmd: its option table is read from $file"; return; }
    help=$("$exe" "$cmd" --help 2>&1)
    docs=$(section "$title")
    for n in $names; do
        grep -qE -- "--$n([^a-z0-9-]|$)" <<<"$help" || missing_h+=" --$n"
        [ "$n" = help ] && continue # docs/cli.md says once that every command takes it
        grep -qE -- "--$n([^a-z0-9-]|$)" <<<"$docs" || missing_d+=" --$n"
    done
    [ -z "$missing_h" ] && ok "$cmd --help names every option its parser takes" \
        || bad "$cmd --help names every option its parser takes" "missing:$missing_h"
    [ -z "$missing_d" ] && ok "docs/cli.md (${title:-synopsis}) names every option of $cmd" \
        || bad "docs/cli.md (${title:-synopsis}) names every option of $cmd" "missing:$missing_d"
    # each option that starts an option line of --help (or follows "-x, ") is the parser's
    local listed extra=""
    listed=$(grep -oE '^  (-[a-z], )?--[a-z0-9-]+' <<<"$help" | sed 's/.*--//' | sort -u)
    for n in $listed; do
        grep -qx -- "$n" <<<"$names" || extra+=" --$n"
    done
    [ -z "$extra" ] && ok "$cmd --help lists only options its parser takes" \
        || bad "$cmd --help lists only options its parser takes" "not taken:$extra"
}

check tune cmd_tune_options.c '`cutune tune` options'
check bench cmd_bench.c '`cutune bench`'
check best cmd_best.c '`cutune best`, `cutune header`, `cutune db`'
check db cmd_db.c '`cutune best`, `cutune header`, `cutune db`'
check report cmd_report.c '`cutune report`'
check profile cmd_profile.c '`cutune profile`'
check space cmd_space.c '' # space and list have no table: their synopsis lines
check list cmd_list.c ''

# header parses by hand (it passes the rest to tune): its own options, in its --help
hh=$("$exe" header --help)
miss=""
for n in -o --header= --budget= --retune --sizes= --shape-mode= --help; do
    grep -qF -- "$n" <<<"$hh" || miss+=" $n"
done
[ -z "$miss" ] && ok "header --help names -o, --header, --budget, --retune, --sizes, --shape-mode" \
    || bad "header --help names its own options" "missing:$miss"

# a range in an option's entry of --help (its line and those indented under it) is the
# parser's: one above it is refused, saying "must be A..B"
ranges() { # CMD: "NAME A B" per option entry stating a range
    "$exe" "$1" --help | awk '
        /^  (-[a-z], )?--[a-z]/ { flush(); e = $0; next }
        /^      / && e != "" { e = e " " $0; next }
        { flush() }
        END { flush() }
        function flush(   n, r) {
            if (e == "") return
            n = e; sub(/^  (-[a-z], )?--/, "", n); sub(/[^a-z0-9-].*/, "", n)
            if (match(e, /[0-9]+\.\.[0-9]+/)) {
                r = substr(e, RSTART, RLENGTH); sub(/\.\./, " ", r); print n, r
            }
            e = "" }'
}
for cmd in tune bench profile; do
    nr=0
    while read -r name lo hi; do
        nr=$((nr + 1))
        above=$(python3 -c "print($hi + 1)")
        out=$("$exe" "$cmd" "--$name=$above" nosuch 2>&1 >/dev/null)
        rc=$?
        [ $rc -eq 2 ] && grep -qF -- "must be $lo..$hi" <<<"$out" \
            && ok "$cmd --$name: --help's range $lo..$hi is the parser's" \
            || bad "$cmd --$name: --help's range $lo..$hi is the parser's (--$name=$above: exit $rc)" "$out"
    done < <(ranges "$cmd")
    [ "$nr" -gt 0 ] && ok "$cmd --help states ranges ($nr)" || bad "$cmd --help states ranges"
done

# cutune list is the help of searchers' and evaluators' ARGS: every key a parser names
# when it refuses an unknown one is listed there as KEY=
python3 "$here/mkcache.py" bowl.json 4 4 2
lst=$("$exe" list)
for a in "--evaluator=cuda:zz=1|cuda|$root/kernels/vector_add.json" "--searcher=bo:zz=1|bo|bowl.json" \
    "--searcher=genetic:zz=1|genetic|bowl.json"; do
    IFS='|' read -r opt name target <<<"$a"
    out=$("$exe" "$opt" --budget=2 --journal=k.jsonl "$target" 2>&1 >/dev/null)
    keys=$(sed -nE 's/.*\((valid keys|keys|valid): ([a-z0-9_, ]+)\)$/\2/p' <<<"$out" | tr -d ,)
    line=$(grep -E "^  $name " <<<"$lst")
    miss=""
    for k in $keys; do grep -qF -- "$k=" <<<"$line" || miss+=" $k"; done
    [ -n "$keys" ] && [ -z "$miss" ] && ok "cutune list names every key of $name" \
        || bad "cutune list names every key of $name" "keys: $keys; missing:$miss; $out"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
