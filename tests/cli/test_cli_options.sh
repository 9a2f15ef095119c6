#!/usr/bin/env bash
# The command line's own rules (docs/cli.md): every refusal is one line naming the option
# (and what was wrong with its value), exit 2, no file written, the program's name once at
# its start. Each test is written as the defect it stops. No GPU, no shared data. Prints
# "ok"/"not ok" lines and "N passed, N failed".
set -u
exe=${CUTUNE_EXE:?CUTUNE_EXE not set}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
. "$here/lib.sh"
export CUTUNE_DB=none

# expect_fail NAME PATTERN CMD... : exit 2 within 60 s, a one-line error matching PATTERN,
# and nothing left in the folder that was not there before
expect_fail() {
    local name=$1 pat=$2
    shift 2
    local before out rc
    before=$(ls -A)
    out=$(timeout 60 "$@" 2>&1 >/dev/null)
    rc=$?
    if [ $rc -eq 124 ]; then bad "$name: still running after 60 s"; return; fi
    if [ $rc -ne 2 ]; then bad "$name: exit $rc, want 2" "$out"; return; fi
    if [ "$(wc -l <<<"$out")" -ne 1 ]; then bad "$name: error is not one line" "$out"; return; fi
    if ! grep -qE -- "$pat" <<<"$out"; then bad "$name: message lacks /$pat/" "$out"; return; fi
    if [ "$(ls -A)" != "$before" ]; then bad "$name: left a file" "$(ls -A)"; return; fi
    ok "$name"
}

python3 "$here/mkcache.py" bowl.json 4 4 2

# ---- bench --restrictions=FILE with --restrict: the file was loaded and checked, then
# never used (--restrict gives every recording's space)
printf '[bowl]\na <= 2\n' >restr
expect_fail "bench --restrictions with --restrict is refused" \
    "^cutune bench: --restrictions=restr: not with --restrict " \
    "$exe" bench --seeds=1 --budgets=2 --restrict "a < 3" --restrictions=restr bowl.json

# ---- --restrict names the option and what is wrong with the expression (it said
# 'cutune space: bowl.json: syntax error ...', as if the recording were at fault)
expect_fail "--restrict: a syntax error names the option" \
    "^cutune space: --restrict: syntax error at column 4: .* in 'a \+' \(restricting bowl.json\)$" \
    "$exe" space --restrict "a +" bowl.json
expect_fail "--restrict: an unknown name names the option and the recording's parameters" \
    "^cutune: --restrict: unknown parameter 'zz' .* \(bowl.json has the parameters a, b, c\)$" \
    "$exe" --budget=2 --journal=j.jsonl --restrict "a > 1" --restrict "zz > 1" bowl.json
expect_fail "--restrict: restrictions that exclude every point name the option" \
    "^cutune space: --restrict: no valid configuration: the restrictions exclude all 32 points" \
    "$exe" space --restrict "a > 100" bowl.json
expect_fail "--restrict: a division by zero names the option and the expression" \
    "^cutune space: --restrict: restriction 0: division by zero at column 3 in 'a / 0 > 1'" \
    "$exe" space --restrict "a / 0 > 1" bowl.json

# ---- a count is digits: strtoul took a leading blank or '+' (" 5", "+5") where every
# other malformed number is refused
for o in "--budget= 5" "--seed=+3" "--parallel= 1" "--batch=$(printf '\t')2" "--confirm= 1" \
    "--confirm-rounds=+2"; do
    expect_fail "tune $o is refused" "^cutune: ${o%%=*}=.*: not an integer$" \
        "$exe" "$o" --budget=4 --journal=j.jsonl bowl.json
done
for o in "--seeds= 2" "--jobs=+2" "--parallel= 1"; do
    expect_fail "bench $o is refused" "^cutune bench: ${o%%=*}: '.*' is not a non-negative integer$" \
        "$exe" bench --budgets=2 --searchers=random --no-plots --out=bo "$o" bowl.json
done
expect_fail "header --budget=' 5' is refused" "^cutune header: --budget= 5: not an integer$" \
    "$exe" header -o h.h --budget=" 5" bowl.json
expect_fail "db show --top=' 1' is refused" "--top= 1: not an integer$" \
    "$exe" db show --db=none.db --top=" 1" bowl.json
expect_fail "profile --top=' 1' is refused" "^cutune profile: --top= 1: must be 0..1000$" \
    "$exe" profile --top=" 1" nosuch.jsonl
expect_fail "profile --launch=' 1' is refused" "^cutune profile: --launch= 1: not an evaluation number$" \
    "$exe" profile --launch=" 1" nosuch.jsonl
# ---- profile --launch=N returned before --top, --worst, --ncu and --dir were used: they
# were accepted and had no effect
for o in --top=1 --worst=0 --ncu=/bin/true --dir=pd; do
    expect_fail "profile --launch with $o is refused" \
        "^cutune profile: $o: not with --launch \(--launch=N evaluates evaluation N once, as ncu runs it: it chooses no configurations, starts no ncu and writes no profile\)$" \
        "$exe" profile "$o" --launch=0 nosuch.jsonl
done
expect_fail "... and --launch alone goes on to read the journal" "^cutune profile: nosuch.jsonl: cannot open" \
    "$exe" profile --launch=0 nosuch.jsonl
out=$("$exe" --budget=010 --seed=2 --journal=ten.jsonl bowl.json 2>&1) && grep -q "evaluations: 10 " <<<"$out" \
    && ok "... and --budget=010 is still ten" || bad "... and --budget=010 is still ten" "$out"

# ---- --remeasure without a database overrides nothing: it ran as a plain run, unsaid
expect_fail "--remeasure under CUTUNE_DB=none is refused" \
    '^cutune: --remeasure: \$CUTUNE_DB=none: there is no database whose answers it could override' \
    "$exe" --remeasure --budget=2 --journal=j.jsonl bowl.json
out=$("$exe" --remeasure --db=re.db --budget=2 --journal=re.jsonl bowl.json 2>&1) \
    && ok "... and with --db=FILE it runs" || bad "... and with --db=FILE it runs" "$out"
rm -f re.db re.jsonl

# ---- cutune list parses as every command does (it called an unknown option, and a prefix
# of --help, an "unexpected argument", and took only -h or --help as its first word)
expect_fail "list --bogus: an unknown option, as other commands say it" \
    "^cutune list: unknown option '--bogus' \(try --help\)$" "$exe" list --bogus
expect_fail "list --he: a prefix is refused with the option meant" \
    "^cutune list: option '--he' is not spelled out: did you mean '--help'\?$" "$exe" list --he
expect_fail "list --help=3: a value to an option that takes none" \
    "^cutune list: option '--help' takes no value" "$exe" list --help=3
expect_fail "list extra: a word list does not take" "^cutune list: unexpected argument 'extra'" \
    "$exe" list extra
out=$("$exe" list extra --help 2>&1) && grep -q "^usage: cutune list" <<<"$out" \
    && ok "list extra --help: the usage, as 'space extra --help' gives it" \
    || bad "list extra --help: the usage, as 'space extra --help' gives it" "$out"
out=$("$exe" list 2>&1) && grep -q "^searchers:" <<<"$out" && ok "... and list still lists" \
    || bad "... and list still lists" "$out"

# ---- words after 'help COMMAND' and after -V/--version were dropped unsaid ('cutune -V
# gemm' printed the version and tuned nothing)
expect_fail "help tune extra is refused" "^cutune help: unexpected argument 'extra'" \
    "$exe" help tune extra
for v in -V --version; do
    expect_fail "$v gemm is refused" "^cutune: $v: unexpected argument 'gemm' \(it takes none\)$" \
        "$exe" "$v" gemm
done
out=$("$exe" -V) && [ "$out" = "cutune $(sed -n "s/.*version: '\([^']*\)'.*/\1/p" "$here/../../meson.build" | head -1)" ] \
    && ok "... and -V alone prints the version" || bad "... and -V alone prints the version" "$out"
out=$("$exe" help tune 2>&1) && grep -q "^usage: cutune \[tune\]" <<<"$out" \
    && ok "... and help tune alone prints tune's usage" || bad "... and help tune alone prints tune's usage" "$out"

# ---- space --help lists what space takes: it said "Options as for cutune tune", whose
# --budget, --searcher, ... space refuses as unknown
sh=$("$exe" space --help)
grep -q "as for .cutune tune" <<<"$sh" && bad "space --help: sends the reader to tune's options" "$sh" \
    || ok "space --help: does not send the reader to tune's options"
opts=$(grep -oE '^  (-h, )?--[a-z-]+' <<<"$sh" | sed 's/.*--//' | sort | tr '\n' ' ')
[ "$opts" = "cartesian help restrict size " ] && ok "space --help: lists --size, --restrict, --cartesian, --help" \
    || bad "space --help: lists --size, --restrict, --cartesian, --help" "$opts"
for o in $opts; do # each one listed is one space takes
    out=$("$exe" space "--$o" 2>&1)
    grep -q "unknown option" <<<"$out" && bad "space --$o is an option space takes" "$out" \
        || ok "space --$o is an option space takes"
done

# ---- bench: a --seeds the tables cannot hold is refused before anything is read or made
# (--seeds=2147483648 allocated until ASan reported out of memory, leaving --out behind)
for s in 2147483648 4294967295; do
    expect_fail "bench --seeds=$s is refused up front" \
        "^cutune bench: --seeds=$s: the result tables of [0-9]+ runs \($s seeds x 1 searchers x 1 recordings x 2 conventions, up to 100 evaluations each\) would take .* GiB, more than the .* GiB of memory here" \
        "$exe" bench --seeds=$s --budgets=100 --searchers=random --no-plots --out=bo bowl.json
done
out=$("$exe" bench --seeds=3 --budgets=2 --searchers=random --no-plots --quiet --out=bo3 bowl.json 2>&1) \
    && [ -e bo3/results.md ] && ok "... and --seeds=3 still runs" || bad "... and --seeds=3 still runs" "$out"
# ... --objectives makes its runs one after another and draws no plots: --jobs and
# --no-plots were accepted and had no effect
expect_fail "bench --objectives --jobs is refused" \
    "^cutune bench: --jobs does not apply with --objectives \(its runs are made one after another, in one thread\)$" \
    "$exe" bench --objectives=time,energy --jobs=2 --budgets=2 --searchers=random --out=bo bowl.json
expect_fail "bench --objectives --no-plots is refused" \
    "^cutune bench: --no-plots does not apply with --objectives \(it draws no plots: its table and objectives.csv are its output\)$" \
    "$exe" bench --objectives=time,energy --no-plots --budgets=2 --searchers=random --out=bo bowl.json
# ... its messages start with the program's name once: "cutune: --parallel=0" and
# "cutune bench: bench: A and B are both named ..." were not
expect_fail "bench --parallel=0: prefixed 'cutune bench:'" "^cutune bench: --parallel=0: must be 1..1024$" \
    "$exe" bench --parallel=0 --out=bo bowl.json
mkdir -p twin && cp bowl.json twin/
expect_fail "bench: two recordings of one name, prefixed once" \
    "^cutune bench: bowl.json and twin/bowl.json are both named bowl in the results" \
    "$exe" bench --seeds=1 --budgets=2 --searchers=random --no-plots --out=bo bowl.json twin/bowl.json
# ... and so do cutune db's: "cutune: db import: ..." where its option errors say "cutune db:"
expect_fail "db import: prefixed 'cutune db import:'" "^cutune db import: nosuch.json: cannot open" \
    "$exe" db import --db=x.db nosuch.json
expect_fail "db: an unknown command, prefixed 'cutune db:'" "^cutune db: no command 'frob'" \
    "$exe" db --db=x.db frob
expect_fail "db: not a database, prefixed 'cutune db:'" "^cutune db: bowl.json: not a cutune database" \
    "$exe" db list --db=bowl.json

# ---- searcher and evaluator options are plain decimal numbers: strtod took xi=0x10 as 16
# and strtol/strtod skipped a leading blank ("pop= 8" was a population of 8)
for a in "bo:xi=0x10|bo: xi=0x10 is not a non-negative number" "bo:init= 5|bo: init= 5 is not a count" \
    "bo:pool=0x20|bo: pool=0x20 is not a count" "bo:local=0x0|bo: local=0x0 is not a fraction" \
    "bo:add=0x1|bo: add=0x1 is neither 'fit' nor a weight" "bo:wdesign= 3|bo: wdesign= 3 is not a count" \
    "genetic:pop= 8|genetic: 'pop= 8' is not an integer" "genetic:cx=0x0|genetic: 'cx=0x0' is not a number"; do
    expect_fail "--searcher=${a%%|*} is refused, naming the searcher and key" "^cutune: ${a#*|}" \
        "$exe" --searcher="${a%%|*}" --budget=3 --journal=j.jsonl bowl.json
done
expect_fail "--evaluator=cuda:timeout=0x10 is refused, naming the key" \
    "^cutune: --evaluator=cuda: timeout=0x10 is not a number in" \
    "$exe" --evaluator=cuda:timeout=0x10 --budget=2 --journal=j.jsonl "$here/../../kernels/vector_add.json"
out=$("$exe" --searcher=genetic:pop=8,cx=0.5,mut=1e-1 --budget=3 --journal=gd.jsonl bowl.json 2>&1) \
    && out=$("$exe" --searcher=bo:xi=0.01,init=2 --budget=3 --journal=bd.jsonl bowl.json 2>&1) \
    && ok "... and plain decimals (0.5, 1e-1, 2) are still read" || bad "... and plain decimals are still read" "$out"

# ---- best --devices: checked as tune's, and refused under replay, where no GPU is asked
# (it was dropped unsaid: 'best --devices=0,,2 RECORDING' answered as without it)
expect_fail "best --devices under replay is refused" \
    "^cutune best: --devices=0: only the cuda evaluator runs on GPUs \(this lookup: replay\)$" \
    "$exe" best --db=b.db --devices=0 bowl.json
expect_fail "best --evaluator=replay --devices is refused" \
    "^cutune best: --devices=1: only the cuda evaluator runs on GPUs \(this lookup: replay\)$" \
    "$exe" best --db=b.db --evaluator=replay:bowl.json --devices=1 bowl.json
for d in "0,,2" "0," "99999"; do
    expect_fail "best --evaluator=cuda --devices=$d is refused" \
        "^cutune best: --devices=$d: not a list of GPU ordinals" \
        "$exe" best --db=b.db --evaluator=cuda --devices="$d" bowl.json
done

# ---- every message of a command starts with its own name: best, header and 'tune' said
# "cutune: ..." where their option errors say "cutune best: ..." (as db and report do)
expect_fail "best under CUTUNE_DB=none: prefixed 'cutune best:'" \
    '^cutune best: \$CUTUNE_DB=none: no database to read$' "$exe" best nosuch
expect_fail "best: an unknown kernel, prefixed 'cutune best:'" "^cutune best: unknown kernel 'nosuch'" \
    "$exe" best --db=b.db nosuch
expect_fail "best --size x: prefixed 'cutune best:'" "^cutune best: --size x: expected NAME=VALUE$" \
    "$exe" best --db=b.db --size=x bowl.json
expect_fail "best --sizes: a bad list, prefixed 'cutune best:'" "^cutune best: --sizes" \
    "$exe" best --db=b.db --sizes='M=' bowl.json
expect_fail "header: an unknown kernel, prefixed 'cutune header:'" "^cutune header: unknown kernel 'nosuch'" \
    "$exe" header -o h.h --db=b.db nosuch
expect_fail "header, tuning without a database: tune's refusal prefixed 'cutune header:'" \
    "^cutune header: --parallel=0: must be" "$exe" header -o h.h --parallel=0 bowl.json
expect_fail "header --sizes: the prefix once ('cutune header: header --sizes:' said it twice)" \
    "^cutune header: --sizes: the table is read from the tuning database \(not with --no-db\)$" \
    "$exe" header --no-db --sizes='M=N=K=1024;M=N=K=2048' -o h.h gemm_h
expect_fail "tune given by name: prefixed 'cutune tune:'" "^cutune tune: --budget=x: not an integer$" \
    "$exe" tune --budget=x bowl.json
expect_fail "... and without the command word, 'cutune:'" "^cutune: --budget=x: not an integer$" \
    "$exe" --budget=x bowl.json
python3 -c "
s=open('bowl.json').read(); open('torn.json','w').write(s[:s.index('\"1,1,1\"')].rstrip().rstrip(','))"
out=$("$exe" space torn.json 2>&1 >/dev/null) && grep -q "^cutune space: warning: torn.json: the cache is unterminated" <<<"$out" \
    && ok "space: a warning is prefixed 'cutune space:'" || bad "space: a warning is prefixed 'cutune space:'" "$out"
rm -f torn.json

# ---- --rank-timeout outside an MPI launch: no rank evaluates for the run, so the option
# would go unused (it was accepted and the run tuned as without it)
expect_fail "--rank-timeout in a run of one process is refused" \
    "^cutune: --rank-timeout=5: applies only to a run launched as several processes by mpirun or srun \(this run is one process: no rank evaluates for it\)$" \
    "$exe" --budget=2 --rank-timeout=5 --journal=j.jsonl bowl.json
expect_fail "... in a multi-shape run too" "^cutune: --rank-timeout=1.5: applies only to a run launched" \
    "$exe" --sizes='M=N=K=1024;M=N=K=2048' --budget=2 --rank-timeout=1.5 --journal=sj gemm_h
expect_fail "... and in the tuning header runs" "^cutune header: --rank-timeout=5: applies only to a run launched" \
    "$exe" header -o h.h --rank-timeout=5 bowl.json
expect_fail "... a bad value still says what is wrong with it" "^cutune: --rank-timeout=0: must be > 0$" \
    "$exe" --budget=2 --rank-timeout=0 --journal=j.jsonl bowl.json

# ---- --sizes under an MPI launcher: a multi-shape run has no rank 0, so each process ran
# every shape itself, racing the others for the journals ("a journal exists there") and the
# database; refused from the launcher's environment, before MPI starts (no mpirun needed)
expect_fail "--sizes under an MPI launcher is refused" \
    "^cutune: --sizes: a multi-shape run is not spread over MPI ranks: each of the 3 processes the launcher started would tune every shape itself \(run it as one process\)$" \
    env OMPI_COMM_WORLD_SIZE=3 "$exe" --sizes='M=N=K=1024;M=N=K=2048' --budget=2 --journal=sj gemm_h
expect_fail "... and header --sizes" \
    "^cutune header: --sizes: a dispatch table is not spread over MPI ranks: each of the 2 processes" \
    env PMI_SIZE=2 "$exe" header --db=h.db --sizes='M=N=K=1024;M=N=K=2048' --budget=2 -o h.h gemm_h

# ---- the confirmation's options where no confirmation runs: --confirm-rounds with
# --confirm=0, --confirm in a multi-shape run, and both under header (which tunes with
# --confirm=0) were accepted and had no effect
expect_fail "--confirm-rounds with --confirm=0 is refused" \
    "^cutune: --confirm-rounds=3: --confirm=0 skips the confirmation these rounds would measure$" \
    "$exe" --confirm=0 --confirm-rounds=3 --budget=2 --journal=j.jsonl bowl.json
expect_fail "--sizes with --confirm is refused" \
    "^cutune: --sizes: not with --confirm \(no confirmation step runs: a shape's choice is its fastest measurement\)$" \
    "$exe" --sizes='M=N=K=1024;M=N=K=2048' --confirm=3 --budget=2 --journal=sj gemm_h
expect_fail "--sizes with --confirm-rounds is refused" "^cutune: --sizes: not with --confirm-rounds " \
    "$exe" --sizes='M=N=K=1024;M=N=K=2048' --confirm-rounds=2 --budget=2 --journal=sj gemm_h
for a in "--confirm=3" "--confirm 2" "--confirm-rounds=2"; do
    expect_fail "header $a is refused" \
        "^cutune header: ${a%%[= ]*}: cutune header runs no confirmation step \(the header holds the fastest correct measurement\); for a confirmed winner, tune with --confirm and --header=FILE.h$" \
        "$exe" header -o h.h $a --budget=2 bowl.json
done
expect_fail "header --sizes --confirm is refused" "^cutune header: --confirm: cutune header runs no confirmation step" \
    "$exe" header --db=h.db --sizes='M=N=K=1024;M=N=K=2048' --confirm=2 -o h.h gemm_h
out=$("$exe" header -o h0.h --confirm=0 --budget=2 bowl.json 2>&1) && [ -e h0.h ] \
    && out=$("$exe" --confirm=2 --confirm-rounds=3 --budget=3 --journal=cr.jsonl bowl.json 2>&1) \
    && grep -q "mean of 3 rounds" <<<"$out" && ok "... header --confirm=0 and tune --confirm=2 --confirm-rounds=3 still run" \
    || bad "... header --confirm=0 and tune --confirm=2 --confirm-rounds=3 still run" "$out"
rm -f h0.h cr.jsonl

# ---- --cartesian on a spec the cuda evaluator tunes: the space is the spec's whole space
# with it or without it, and the option was only recorded in the journal header
expect_fail "--cartesian with the cuda evaluator on a spec is refused" \
    "^cutune: --cartesian applies to recordings and to a kernel replayed from one \(its recorded set or the spec's whole space\); .*/kernels/vector_add.json is a spec tuned by the cuda evaluator, which measures its whole space$" \
    "$exe" --evaluator=cuda --cartesian --budget=2 --journal=j.jsonl vector_add
expect_fail "... in a multi-shape run too" \
    "^cutune: --cartesian applies to recordings and to a kernel replayed from one .*; gemm_h is a spec tuned by the cuda evaluator" \
    "$exe" --evaluator=cuda --cartesian --sizes='M=N=K=1024;M=N=K=2048' --budget=2 --journal=sj gemm_h
out=$("$exe" --evaluator=replay --cartesian --budget=2 --journal=gc.jsonl gemm 2>&1) && head -1 gc.jsonl | grep -q '"evaluator":"replay".*"cartesian":true,"valid":8496,' \
    && ok "... and a replayed kernel with --cartesian keeps its spec's whole space" \
    || bad "... and a replayed kernel with --cartesian keeps its spec's whole space" "$out"
# a journal of a cuda run whose header records "cartesian": resumed without the option
sed '1s/"evaluator":"replay","evaluator_arg":"[^"]*"/"evaluator":"cuda","evaluator_arg":null/' gc.jsonl >cc.jsonl
out=$("$exe" --resume=cc.jsonl 2>&1)
grep -q -- "--cartesian applies" <<<"$out" && bad "... a cuda journal recording cartesian resumes past the check" "$out" \
    || ok "... a cuda journal recording cartesian resumes past the check"
expect_fail "... and given again there, --cartesian is refused" "^cutune: --cartesian applies to recordings" \
    "$exe" --resume=cc.jsonl --cartesian
rm -f gc.jsonl cc.jsonl

# ---- header --restrict with a database: the header is the database's best, whose key
# holds no restriction, so the header held a configuration --restrict excludes (a=4 here)
"$exe" header --db=hr.db -o hr0.h --budget=32 bowl.json >/dev/null 2>&1
hr_msg="^cutune header: --restrict=a < 2: the header holds the fastest correct configuration the database knows, which --restrict does not bound; for the best of the restricted space, give --no-db or tune with --restrict and --header=FILE.h$"
expect_fail "header --restrict=EXPR with a database is refused" "$hr_msg" \
    "$exe" header --db=hr.db -o hr.h --budget=32 "--restrict=a < 2" bowl.json
expect_fail "header --restrict EXPR with a database is refused" "$hr_msg" \
    "$exe" header --db=hr.db -o hr.h --retune --budget=4 --restrict "a < 2" bowl.json
out=$("$exe" header --no-db -o hr1.h --budget=4 --restrict "a < 2" bowl.json 2>&1) && grep -q "^#define a 1$" hr1.h \
    && ok "... and header --no-db --restrict writes the restricted run's best" \
    || bad "... and header --no-db --restrict writes the restricted run's best" "$out $(cat hr1.h 2>&1)"
rm -f hr.db hr0.h hr1.h

# ---- a kernel spec where a recording or journal is read is called what it is (bench and
# --resume said 'tune_params_keys: missing', the Kernel Tuner reader's complaint)
spec="$here/../../kernels/vector_add.json"
expect_fail "bench on a kernel spec says it is one" \
    "^cutune bench: .*/kernels/vector_add.json: a kernel spec, not a recording \(a Kernel Tuner cache or a cutune journal\): bench replays recordings$" \
    "$exe" bench --seeds=1 --budgets=2 "$spec"
expect_fail "--resume of a kernel spec says it is one" \
    "^cutune: --resume=.*/kernels/vector_add.json: a kernel spec, not a journal: tune it with 'cutune .*vector_add.json' first, then resume the journal that run writes$" \
    "$exe" --resume="$spec"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
