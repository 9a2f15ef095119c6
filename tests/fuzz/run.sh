#!/usr/bin/env bash
# Fuzz every parser with libFuzzer and say how much of the code it reached.
#
#   tests/fuzz/run.sh [SECONDS]      (default 60 per target; or FUZZ_SECONDS)
#
# Builds the targets with clang into build-fuzz/ (-Dfuzz=true: the library instrumented
# with -fsanitize=fuzzer-no-link, the harnesses linked with -fsanitize=fuzzer; ASan and
# UBSan on), runs each target for SECONDS from a copy of its seed corpus
# (tests/fuzz/corpus/NAME; the corpus that grows stays in build-fuzz/corpus/NAME for the
# next run, FUZZ_FRESH=1 starts again from the seeds; the checked-in seeds are not
# touched), and prints libFuzzer's final coverage: `cov` (edges
# of the instrumented code reached) and `ft` (features), the runs, the corpus size.
# Then, where llvm-profdata and llvm-cov are installed (FUZZ_LLVM_COV=0 skips it), a
# second build with source-based coverage (build-fuzz-cov/) replays each grown corpus once
# and reports line and function coverage of the files that target parses with.
# A crash, a leak or a timeout stops with exit 1 and leaves the input under
# build-fuzz/crashes/NAME/. clang missing: `apt-get install -y clang` (Debian package
# clang; llvm-cov and llvm-profdata come with llvm).
#
# The standalone corpus run (the `fuzz` suite of scripts/test, built by gcc) is separate
# and stays: it runs every seed and its truncations on each test run.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
secs=${1:-${FUZZ_SECONDS:-60}}
build=${FUZZ_BUILD:-$root/build-fuzz}
covbuild=${FUZZ_COV_BUILD:-$root/build-fuzz-cov}
targets=${FUZZ_TARGETS:-"expr spec recording report objective"}
jobs=${FUZZ_JOBS:-$(nproc)}
command -v clang >/dev/null || { echo "clang not found: apt-get install -y clang" >&2; exit 2; }

# Files each target's parser lives in (for the line coverage report).
declare -A files=(
    [expr]="src/space/expr_lex.c src/space/expr_parse.c src/space/expr_eval.c"
    [spec]="src/spec/spec.c src/spec/spec_parse.c src/spec/spec_space.c src/spec/spec_args.c src/spec/spec_launch.c src/spec/spec_check.c src/spec/t1.c src/spec/t1_space.c src/spec/t1_kernel.c src/spec/json_path.c src/space/space.c src/space/space_enumerate.c src/space/expr_lex.c src/space/expr_parse.c src/space/expr_eval.c src/common/json_check.c"
    [recording]="src/io/recording.c src/io/recording_parse.c src/io/kt_load.c src/io/journal_load.c src/io/util.c src/common/json_check.c src/io/json_arena.c"
    [report]="src/report/report_load.c src/report/ncu_csv.c src/report/importance.c src/report/html_page.c src/report/html_plots.c src/report/report_text.c src/report/svg.c"
    [objective]="src/tune/objective.c src/tune/objective_text.c"
)

if [ ! -f "$build/build.ninja" ]; then
    CC=clang meson setup "$build" "$root" -Dfuzz=true -Dtests=disabled -Dnvrtc=disabled \
        -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debugoptimized >/dev/null
fi
# shellcheck disable=SC2046,SC2086  # one word per target
ninja -C "$build" -j "$jobs" $(for t in $targets; do echo tests/fuzz/fuzz_$t; done) >/dev/null

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
printf '%-10s %8s %10s %8s %8s %8s\n' target seconds runs cov ft corpus
for t in $targets; do
    corpus="$build/corpus/$t" crashes="$build/crashes/$t" log="$build/fuzz_$t.log"
    [ "${FUZZ_FRESH:-0}" = 1 ] && rm -rf "$corpus"
    mkdir -p "$corpus" "$crashes"
    cp -n "$root/tests/fuzz/corpus/$t/"* "$corpus/" 2>/dev/null || true
    rc=0
    "$build/tests/fuzz/fuzz_$t" -max_total_time="$secs" -timeout=25 -rss_limit_mb=2048 \
        -max_len=65536 -print_final_stats=1 -artifact_prefix="$crashes/" "$corpus" \
        >"$log" 2>&1 || rc=$?
    last=$(grep -E '^#[0-9]+' "$log" | tail -1)
    runs=$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$last")
    cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$last")
    ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")
    n=$(ls "$corpus" | wc -l)
    printf '%-10s %8s %10s %8s %8s %8s\n' "$t" "$secs" "${runs:-?}" "${cov:-?}" "${ft:-?}" "$n"
    if [ $rc -ne 0 ]; then
        echo "fuzz_$t: exit $rc; see $log and $crashes/" >&2
        tail -20 "$log" >&2
        status=1
    fi
done

if [ "${FUZZ_LLVM_COV:-1}" != 0 ] && command -v llvm-profdata >/dev/null && command -v llvm-cov >/dev/null; then
    if [ ! -f "$covbuild/build.ninja" ]; then
        # (the compiler checks of meson setup run instrumented programs: no profile here)
        LLVM_PROFILE_FILE=/dev/null CC=clang meson setup "$covbuild" "$root" -Dfuzz=true -Dtests=disabled -Dnvrtc=disabled \
            -Db_sanitize=address -Db_lundef=false -Dbuildtype=debug \
            -Dc_args='-fprofile-instr-generate -fcoverage-mapping' \
            -Dc_link_args='-fprofile-instr-generate' >/dev/null
    fi
    # shellcheck disable=SC2046,SC2086
    ninja -C "$covbuild" -j "$jobs" $(for t in $targets; do echo tests/fuzz/fuzz_$t; done) >/dev/null
    echo
    echo "line coverage after replaying each grown corpus once (llvm-cov):"
    for t in $targets; do
        prof="$covbuild/fuzz_$t"
        rm -f "$prof".profraw "$prof".profdata
        LLVM_PROFILE_FILE="$prof.profraw" ASAN_OPTIONS=detect_leaks=0 \
            "$covbuild/tests/fuzz/fuzz_$t" -runs=0 "$build/corpus/$t" >/dev/null 2>&1 || true
        llvm-profdata merge -sparse "$prof.profraw" -o "$prof.profdata"
        # the rows of the target's own files (llvm-cov lists every file linked in), and
        # their sum
        llvm-cov report "$covbuild/tests/fuzz/fuzz_$t" -instr-profile="$prof.profdata" 2>/dev/null \
            | awk -v t="$t" -v want="${files[$t]}" '
                BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) keep[w[i]] = 1 }
                NF == 13 && ($1 in keep) {
                    printf "  %-10s %-28s lines %5d/%-5d %7s  functions %3d/%-3d  branches %5d/%-5d\n",
                        t, $1, $8 - $9, $8, $10, $5 - $6, $5, $11 - $12, $11
                    L += $8; LM += $9; F += $5; FM += $6; B += $11; BM += $12 }
                END { if (L) printf "  %-10s %-28s lines %5d/%-5d %6.2f%%  functions %3d/%-3d  branches %5d/%-5d\n",
                          t, "(these files)", L - LM, L, 100 * (L - LM) / L, F - FM, F, B - BM, B }'
    done
fi
exit $status
