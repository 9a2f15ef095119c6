#!/usr/bin/env bash
# The split-K (gemm_h_splitk) and ping-pong (gemm_h) restrictions, through `cutune space` on
# copies of the specs with one parameter narrowed (no GPU): split-K only where the tiles
# fill fewer than two waves and every split gets at least two k tiles; ping-pong only with
# K > BK. Prints TAP-like lines and the closing "N passed, N failed" line.
set -u
exe=${CUTUNE_EXE:?CUTUNE_EXE not set}
kdir=${CUTUNE_KERNELS:?CUTUNE_KERNELS not set}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
. "$here/lib.sh"
cp "$kdir/gemm_h.cu" .

# narrow SPEC NAME VALUES: the shipped spec with parameter NAME's values replaced
narrow() {
    sed -E "s/\"$2\": \[[^]]*\]/\"$2\": [$3]/; s|\"recording\": \"[^\"]*\"|\"recording\": \"none.jsonl\"|" \
        "$kdir/$1.json" >"$1-$2.json"
}
# space_has SPEC [--size ...]: 0 when the space has a valid configuration, 1 when it has none
space_has() {
    local out rc
    out=$("$exe" space "$@" 2>&1)
    rc=$?
    if [ $rc -eq 0 ] && grep -qE "^valid configurations: [1-9]" <<<"$out"; then return 0; fi
    if [ $rc -eq 2 ] && grep -q "no valid configuration" <<<"$out"; then return 1; fi
    echo "$out" >&2
    return 2
}
odd=(--size M=1000 --size N=5000 --size K=296)
for k in gemm_h_splitk; do
    narrow $k SPLITK "2, 3, 4"
    space_has $k-SPLITK.json
    [ $? -eq 1 ] && ok "$k: no split-K at 4096^3 (every tile shape fills two waves)" \
        || bad "$k: split-K at 4096^3"
    space_has "${odd[@]}" $k-SPLITK.json && ok "$k: split-K at 1000x5000x296" \
        || bad "$k: no split-K at 1000x5000x296"
    space_has --size M=1024 --size N=1024 --size K=1024 $k-SPLITK.json \
        && ok "$k: split-K at 1024^3" || bad "$k: no split-K at 1024^3"
done
# K = 296 is 5 k tiles of 64 (BK 128: 3): never two per split for 3 or 4 splits
narrow gemm_h_splitk SPLITK "3, 4"
space_has "${odd[@]}" gemm_h_splitk-SPLITK.json
[ $? -eq 1 ] && ok "gemm_h_splitk: no 3- or 4-way split of 5 k tiles" || bad "gemm_h_splitk: 3- or 4-way split of K = 296"
narrow gemm_h PINGPONG "1"
space_has --size K=64 gemm_h-PINGPONG.json
[ $? -eq 1 ] && ok "gemm_h: no ping-pong at K = 64 (one k tile)" || bad "gemm_h: ping-pong at K = 64"
space_has --size K=128 gemm_h-PINGPONG.json && ok "gemm_h: ping-pong at K = 128 (BK 64: two k tiles)" \
    || bad "gemm_h: no ping-pong at K = 128"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
