#!/usr/bin/env bash
# The `install` test (tests/install/meson.build): the library as a user gets it.
#   1. `meson install --destdir TMP --no-rebuild` of this build;
#   2. the tree: headers, libcutune.a, libcutune.so with its soname links, cutune.pc;
#   3. libcutune.so exports every function and object the installed headers declare, and
#      nothing without the cutune_ prefix;
#   4. examples/api/tune_api.c built with `pkg-config --cflags --libs cutune` (shared, run
#      with LD_LIBRARY_PATH) and with `--static` against libcutune.a; each tunes the
#      synthetic space and replays the installed data/xgemm.jsonl.gz; the two builds print
#      the same; a journal it writes has a "format":1 header and one line per evaluation.
# usage: test_install.sh BUILD MESON PREFIX LIBDIR INCLUDEDIR DATADIR SANITIZE HAVE_NVRTC
#                        VERSION CC...
set -uo pipefail
export LC_ALL=C
build=$1 meson=$2 prefix=$3 libdir=$4 includedir=$5 datadir=$6 sanitize=$7 nvrtc=$8
version=$9
shift 9
cc=("$@")
src=${CUTUNE_SOURCE_ROOT:?}
for tool in pkg-config nm readelf perl; do
    command -v $tool >/dev/null || { echo "SKIP: $tool not installed"; exit 77; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cutune-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}
# under DESTDIR: an absolute directory option as it is, a relative one below the prefix
at() {
    case $1 in
    /*) echo "$tmp/dest$1" ;;
    *) echo "$tmp/dest$prefix/$1" ;;
    esac
}

# ---- 1. install ----
if ! "$meson" install -C "$build" --destdir "$tmp/dest" --no-rebuild --quiet >"$tmp/install.log" 2>&1; then
    cat "$tmp/install.log"
    echo "FAIL: meson install"
    exit 1
fi
lib=$(at "$libdir")
inc=$(at "$includedir")
data=$(at "$datadir")/cutune/data

# ---- 2. the tree ----
for f in "$inc/cutune/cutune.h" "$inc/cutune/tuner.h" "$lib/libcutune.a" "$lib/libcutune.so" \
    "$lib/libcutune.so.0" "$lib/pkgconfig/cutune.pc" "$data/xgemm.jsonl.gz"; do
    [ -e "$f" ] || fail "not installed: ${f#"$tmp/dest"}"
done
for h in "$src"/include/cutune/*.h; do
    cmp -s "$h" "$inc/cutune/${h##*/}" || fail "header not installed as it is: ${h##*/}"
done
soname=$(readelf -d "$lib/libcutune.so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$soname" = libcutune.so.0 ] || fail "soname '$soname', expected libcutune.so.0"
[ "$(readlink "$lib/libcutune.so")" = libcutune.so.0 ] || fail "libcutune.so is not a link to libcutune.so.0"

# The .pc names its prefix (and any absolute directory) as installed; under DESTDIR they
# move with the tree. Only cutune.pc is rewritten: the system's .pc files stay as they are.
mkdir -p "$tmp/pc"
sed -E "s|^(prefix\|exec_prefix\|libdir\|includedir)=/|\1=$tmp/dest/|" \
    "$lib/pkgconfig/cutune.pc" >"$tmp/pc/cutune.pc"
export PKG_CONFIG_PATH="$tmp/pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
if ! pkg-config --exists --print-errors cutune; then
    echo "FAIL: pkg-config cannot resolve cutune (a missing Requires?)"
    exit 1
fi
[ "$(pkg-config --modversion cutune)" = "$version" ] || fail "pkg-config --modversion: $(pkg-config --modversion cutune)"
cflags=$(pkg-config --cflags cutune)
libs=$(pkg-config --libs cutune)
slibs=$(pkg-config --static --libs cutune)
echo "pkg-config --cflags --libs cutune: $cflags $libs"
echo "pkg-config --static --libs cutune: $slibs"
[[ " $cflags " == *" -I$inc "* ]] || fail "--cflags lacks -I$inc"
[[ " $libs " == *" -L$lib -lcutune "* ]] || fail "--libs lacks -L$lib -lcutune"
[[ " $libs " == *" -lgsl "* ]] || fail "--libs lacks -lgsl (the headers expose gsl_rng)"
for l in -lgslcblas -lcjson -lz -lm -ldl; do
    [[ " $slibs " == *" $l "* ]] || fail "--static --libs lacks $l"
done
if [ "$nvrtc" = 1 ]; then
    [[ " $slibs " == *" -lnvrtc "* ]] || fail "built with NVRTC, but --static --libs lacks -lnvrtc"
fi

# ---- 3. what libcutune.so exports ----
nm -D --defined-only "$lib/libcutune.so" | awk 'NF == 3 {print $3}' | sort -u >"$tmp/exported"
leaked=$(grep -v '^cutune_' "$tmp/exported" | tr '\n' ' ')
[ -z "$leaked" ] || fail "libcutune.so exports names without the cutune_ prefix: $leaked"
# what the installed headers declare: comments dropped, static inline functions left out
perl -0777 -ne 's{/\*.*?\*/}{ }gs; s{//[^\n]*}{}g;
    my %inl = map { $_ => 1 } /static\s+inline\b[^;{(]*?\b(cutune_\w+)\s*\(/g;
    my %d;
    $d{$_} = 1 for /\b(cutune_\w+)\s*\(/g;
    $d{$_} = 1 for /\bextern\b[^;(]*?\b(cutune_\w+)\s*;/g;
    print "$_\n" for grep { !$inl{$_} } keys %d;' "$inc"/cutune/*.h | sort -u >"$tmp/declared"
missing=$(comm -23 "$tmp/declared" "$tmp/exported" | tr '\n' ' ')
[ -z "$missing" ] || fail "declared in include/cutune/ but not exported by libcutune.so: $missing"
echo "libcutune.so: $(wc -l <"$tmp/exported") symbols exported, $(wc -l <"$tmp/declared") declared by the headers"

# ---- 4. the example, shared and static ----
san=()
[ "$sanitize" = none ] || san=(-fsanitize="$sanitize")
flags=(-std=c11 -O1 -g -Wall -Wextra -Werror "${san[@]}")
example=$src/examples/api/tune_api.c
# shellcheck disable=SC2086 # pkg-config's words are the arguments
"${cc[@]}" "${flags[@]}" "$example" $cflags $libs -o "$tmp/tune_shared" ||
    fail "building the example against libcutune.so"
# static: libcutune.a by name (-l:), the private dependencies from --static
# shellcheck disable=SC2086
"${cc[@]}" "${flags[@]}" "$example" $cflags ${slibs//-lcutune/-l:libcutune.a} -o "$tmp/tune_static" ||
    fail "building the example against libcutune.a"
[ $fails -eq 0 ] || {
    echo "$fails failures"
    exit 1
}
readelf -d "$tmp/tune_shared" | grep -q 'NEEDED.*\[libcutune\.so\.0\]' ||
    fail "the shared build does not load libcutune.so.0"
readelf -d "$tmp/tune_static" | grep -q 'NEEDED.*libcutune' &&
    fail "the static build loads libcutune.so"

# tune_api ARGS... for both builds: each must succeed and print the same
run_both() {
    local name=$1
    shift
    env LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$tmp/tune_shared" "$@" \
        >"$tmp/$name.shared" 2>"$tmp/$name.shared.err" || {
        cat "$tmp/$name.shared" "$tmp/$name.shared.err"
        fail "$name: the shared build failed"
    }
    "$tmp/tune_static" "$@" >"$tmp/$name.static" 2>"$tmp/$name.static.err" || {
        cat "$tmp/$name.static" "$tmp/$name.static.err"
        fail "$name: the static build failed"
    }
    cmp -s "$tmp/$name.shared" "$tmp/$name.static" || {
        diff "$tmp/$name.shared" "$tmp/$name.static"
        fail "$name: the shared and static builds printed different results"
    }
    echo "--- tune_api $* ---"
    cat "$tmp/$name.shared"
    for want in '^space: ' '^best: [A-Za-z_]+=' '^time: [0-9.e+-]+ ms' '^stopped: budget$' \
        '^optimum: '; do
        grep -Eq "$want" "$tmp/$name.shared" || fail "$name: no line matching /$want/"
    done
}
run_both synthetic
grep -q '^evaluations: 40 (ok ' "$tmp/synthetic.shared" || fail "synthetic: not 40 evaluations"
grep -q '^searcher: bo, evaluator: synthetic ' "$tmp/synthetic.shared" ||
    fail "synthetic: not bo over the example's evaluator"
run_both replay -s random -b 25 -r 7 "$data/xgemm.jsonl.gz"
grep -q '^evaluations: 25 (' "$tmp/replay.shared" || fail "replay: not 25 evaluations"
grep -q '^searcher: random, evaluator: replay ' "$tmp/replay.shared" ||
    fail "replay: not random over the replay evaluator"

# the journal a library run writes: a "format":1 header, then one line per evaluation
env LD_LIBRARY_PATH="$lib" "$tmp/tune_shared" -b 12 -j "$tmp/run.jsonl" >/dev/null 2>&1 ||
    fail "journal: the run failed"
if [ -f "$tmp/run.jsonl" ]; then
    head -1 "$tmp/run.jsonl" | grep -q '"kind":"header".*"format":1' ||
        fail "journal: the first line is not a format-1 header"
    [ "$(grep -c '"kind":"eval"' "$tmp/run.jsonl")" -eq 12 ] || fail "journal: not 12 eval lines"
else
    fail "journal: not written"
fi

echo "$fails failures"
[ $fails -eq 0 ]
