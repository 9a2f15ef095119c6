# Sourced by the CLI test scripts: TAP-like reporting and the bad-input check they share.
# Expects $exe (the cutune executable); counts into $pass and $fail.
pass=0 fail=0
ok()  { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "not ok - $1"; [ -n "${2:-}" ] && sed 's/^/    /' <<<"$2"; }

# expect_fail NAME PATTERN ARGS... : exit 2, one-line error matching PATTERN, no output files
expect_fail() {
    local name=$1 pat=$2
    shift 2
    rm -f out.json j.jsonl
    local out
    out=$("$exe" "$@" --output=out.json --journal=j.jsonl 2>&1 >/dev/null)
    local rc=$?
    if [ $rc -ne 2 ]; then bad "$name: exit $rc, want 2" "$out"; return; fi
    if [ "$(wc -l <<<"$out")" -ne 1 ]; then bad "$name: error is not one line" "$out"; return; fi
    if ! grep -qE -- "$pat" <<<"$out"; then bad "$name: message lacks /$pat/" "$out"; return; fi
    if [ -e out.json ] || [ -e j.jsonl ]; then bad "$name: left a partial output file"; return; fi
    ok "$name"
}
