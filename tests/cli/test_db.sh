#!/usr/bin/env bash
# The tuning database as a user meets it: where it lives, reuse across runs (invisible in
# a replay run's journal), `cutune best`, `cutune db ...`, bad databases refused with one
# line and left as they were, two processes writing one database, and kill -9 then resume
# (the database and the journal agree). Never touches the real home: XDG_DATA_HOME and
# HOME point into the test's folder.
set -u
exe=${CUTUNE_EXE:?CUTUNE_EXE not set}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
. "$here/lib.sh"
export HOME=$tmp/home XDG_DATA_HOME=$tmp/xdg
unset CUTUNE_DB

python3 "$here/mkcache.py" bowl.json.gz

# rows of the run whose journal is $2 in database $1, as "n config status time" lines
db_rows() {
    python3 - "$1" "$(realpath "$2")" <<'EOF'
import json, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
for seq, config, status, t in c.execute(
        "SELECT e.seq, e.config, e.status, e.time_ms FROM evaluations e JOIN runs r "
        "ON r.id = e.run_id WHERE r.journal = ? ORDER BY e.seq", (sys.argv[2],)):
    print(seq, json.dumps(json.loads(config), sort_keys=True), status, repr(t))
EOF
}
journal_rows() {
    python3 - "$1" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
    try:
        j = json.loads(line)
    except ValueError:
        continue  # a partial last line
    if j.get("kind") == "eval":
        print(j["n"], json.dumps(j["config"], sort_keys=True), j["status"], repr(j["time_ms"]))
EOF
}
agree() { # NAME DB JOURNAL: every journal line is in the database, and nothing else
    if diff <(db_rows "$2" "$3") <(journal_rows "$3") >agree.diff; then ok "$1"
    else bad "$1" "$(head -5 agree.diff; echo "db $(db_rows "$2" "$3" | wc -l), journal $(journal_rows "$3" | wc -l)")"; fi
}
count() { python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])" "$@"; }

# --- where it lives
"$exe" --budget=5 --no-progress --journal=x1.jsonl bowl.json.gz >/dev/null 2>&1
[ -f "$XDG_DATA_HOME/cutune/tuning.db" ] && ok "default database in \$XDG_DATA_HOME/cutune/tuning.db" \
    || bad "default database in \$XDG_DATA_HOME/cutune/tuning.db" "$(ls -R "$tmp" | head)"
XDG_DATA_HOME= "$exe" --budget=5 --no-progress --journal=x2.jsonl bowl.json.gz >/dev/null 2>&1
[ -f "$HOME/.local/share/cutune/tuning.db" ] && ok "without XDG_DATA_HOME: ~/.local/share/cutune/tuning.db" \
    || bad "without XDG_DATA_HOME: ~/.local/share/cutune/tuning.db"
"$exe" --no-db --budget=5 --no-progress --journal=x3.jsonl --db=n.db bowl.json.gz >/dev/null 2>&1
[ $? -eq 2 ] && ok "--no-db with --db refused" || bad "--no-db with --db refused"
"$exe" --no-db --budget=5 --no-progress --journal=x4.jsonl vector_add >/dev/null 2>&1
[ ! -e n.db ] && [ "$(count "$XDG_DATA_HOME/cutune/tuning.db" 'select count(*) from evaluations')" -eq 5 ] \
    && ok "--no-db stores nothing" || bad "--no-db stores nothing"

# --- reuse: a second run answers what the first measured; its journal is the same as
# without a database (replay: the answers and their virtual-clock places are the same)
"$exe" --db=r.db --budget=20 --no-progress --journal=a.jsonl bowl.json.gz >a.txt 2>&1
"$exe" --db=r.db --budget=40 --no-progress --journal=b.jsonl bowl.json.gz >b.txt 2>&1
"$exe" --no-db --budget=40 --no-progress --journal=c.jsonl bowl.json.gz >c.txt 2>&1
grep -q "evaluations: 40 (.*), 20 from the database" b.txt && ok "second run: 20 answered from the database" \
    || bad "second run: 20 answered from the database" "$(cat b.txt)"
cmp -s b.jsonl c.jsonl && ok "journal with reuse == journal without a database" \
    || bad "journal with reuse == journal without a database" "$(diff b.jsonl c.jsonl | head -4)"
[ "$(count r.db 'select count(*) from evaluations where reused_from is not null')" -eq 20 ] \
    && ok "reused answers stored, marked" || bad "reused answers stored, marked"
"$exe" --db=r.db --budget=40 --no-progress --journal=b2.jsonl --output=b2.json bowl.json.gz >b2.txt 2>&1
python3 -c 'import json; assert json.load(open("b2.json"))["reused"] == 40' \
    && ok "summary says how many were reused" || bad "summary says how many were reused" "$(cat b2.json)"
"$exe" --db=r.db --budget=40 --remeasure --no-progress --journal=b3.jsonl --output=b3.json bowl.json.gz >b3.txt 2>&1
python3 -c 'import json; assert json.load(open("b3.json"))["reused"] == 0' && ! grep -q "from the database" b3.txt \
    && ok "--remeasure measures again" || bad "--remeasure measures again" "$(cat b3.txt)"
agree "database == journal (reusing run)" r.db b.jsonl

# --- two recordings that share a kernel name and a device name (Kernel Tuner writes
# "x86_64" for some GPUs) are two sources: replaying one never answers from the other's
python3 - <<'EOF'
import gzip, json
d = json.load(gzip.open("bowl.json.gz"))
for e in d["cache"].values():
    if isinstance(e["time"], float):
        e["time"] = 12.0 - e["time"] if e["a"] % 2 else e["time"] * 3
        e["times"] = [e["time"]] * 3
json.dump(d, open("other.json", "w"))
EOF
"$exe" --db=two.db --searcher=random --budget=60 --no-progress --journal=t1.jsonl bowl.json.gz >t1.txt 2>&1
"$exe" --db=two.db --searcher=random --budget=60 --no-progress --journal=t2.jsonl other.json >t2.txt 2>&1
"$exe" --no-db --searcher=random --budget=60 --no-progress --journal=t3.jsonl other.json >t3.txt 2>&1
[ "$(grep '^best:' t2.txt)" = "$(grep '^best:' t3.txt)" ] && ! grep -q "from the database" t2.txt \
    && cmp -s t2.jsonl t3.jsonl && ok "a recording of the same names is not answered from another's rows" \
    || bad "a recording of the same names is not answered from another's rows" "$(grep -h '^best:\|evaluations:' t2.txt t3.txt)"
"$exe" db import --db=two2.db other.json >ti.txt 2>&1 \
    && "$exe" --db=two2.db --searcher=random --budget=60 --no-progress --journal=t4.jsonl other.json >t4.txt 2>&1 \
    && grep -q "evaluations: 60 (.*), 60 from the database" t4.txt && cmp -s t4.jsonl t3.jsonl \
    && ok "an imported cache answers its own replay" || bad "an imported cache answers its own replay" "$(cat ti.txt t4.txt)"
"$exe" --db=two2.db --searcher=random --budget=60 --no-progress --journal=t5.jsonl bowl.json.gz >t5.txt 2>&1
! grep -q "from the database" t5.txt && cmp -s <(sed 1d t5.jsonl) <(sed 1d t1.jsonl) \
    && ok "an imported cache does not answer another recording's replay" \
    || bad "an imported cache does not answer another recording's replay" "$(cat t5.txt)"

# --- best
best_run=$(grep '^best:' b3.txt)
"$exe" best --db=r.db bowl.json.gz >best.txt 2>&1
[ "$(grep '^best:' best.txt)" = "$best_run" ] && ok "best: the fastest measured" || bad "best: the fastest measured" "$(cat best.txt; echo "$best_run")"
"$exe" best --db=r.db -q bowl.json.gz >bq.txt 2>&1
[ "best: $(cat bq.txt)" = "$best_run" ] && ok "best -q" || bad "best -q" "$(cat bq.txt)"
out=$("$exe" best --db=r.db --size N=1000 vector_add 2>&1)
[ $? -eq 1 ] && grep -q "no correct measurement of vector_add" <<<"$out" && ok "best of sizes never tuned: exit 1" \
    || bad "best of sizes never tuned: exit 1" "$out"

# --- a command that only reads leaves the folder as it found it: a read-only connection
# to a WAL database made its -wal and -shm files and could never remove them
python3 -c "import sqlite3; sqlite3.connect('r.db').execute('pragma wal_checkpoint(truncate)')"
if [ -e r.db-wal ] || [ -e r.db-shm ]; then
    bad "read-only commands leave no -wal, -shm" "left after a checkpoint: $(ls r.db*)"
else
    left=
    for c in "db list --db=r.db" "db show --db=r.db bowl.json.gz" "best --db=r.db bowl.json.gz" \
        "db export --db=r.db --kt-cache=ro_exp.json bowl.json.gz" \
        "header --db=r.db -o ro.h --budget=20 bowl.json.gz"; do
        "$exe" $c >/dev/null 2>&1 || left="$left; $c: exit $?"
        for f in r.db-wal r.db-shm; do [ -e $f ] && left="$left; $c left $f"; done
        rm -f r.db-wal r.db-shm
    done
    [ -z "$left" ] && ok "read-only commands leave no -wal, -shm beside the database" \
        || bad "read-only commands leave no -wal, -shm beside the database" "${left#; }"
fi

# --- db list / show / export / import / prune
"$exe" db list --db=r.db >list.txt 2>&1 && grep -q "^bowl	Synthetic|recording [0-9a-f]*	{}	\[\]	80	" list.txt \
    && ok "db list" || bad "db list" "$(cat list.txt)"
# options before the command word too, a value as the next word included
for pre in "--db=r.db list" "--db r.db list" "--kernel=bowl --db=r.db list --gpu=Synthetic"; do
    "$exe" db $pre >pre.txt 2>&1 && cmp -s pre.txt list.txt && ok "db $pre" || bad "db $pre" "$(cat pre.txt)"
done
out=$("$exe" db --db=r.db --top=2 show bowl.json.gz 2>&1) && [ "$(grep -c ' ms  {' <<<"$out")" -eq 2 ] \
    && ok "db --db=r.db --top=2 show" || bad "db --db=r.db --top=2 show" "$out"
out=$("$exe" db --top=2 list --db=r.db 2>&1)
[ $? -eq 2 ] && grep -q "db list: --top does not apply to it" <<<"$out" && ok "db --top=2 list: refused as db list --top" \
    || bad "db --top=2 list: refused as db list --top" "$out"
out=$("$exe" db --db=r.db 2>&1)
[ $? -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && grep -q "db: no command given" <<<"$out" \
    && ok "db with options and no command: exit 2, one line" || bad "db with options and no command" "$out"
"$exe" db --db=r.db --help | grep -q "^usage: cutune db" && ok "db --db=FILE --help" || bad "db --db=FILE --help"
"$exe" db show --db=r.db --top=2 bowl.json.gz >show.txt 2>&1 && [ "$(grep -c ' ms  {' show.txt)" -eq 2 ] \
    && ok "db show" || bad "db show" "$(cat show.txt)"
"$exe" db export --db=r.db --kt-cache=exp.json bowl.json.gz 2>exp.txt && python3 "$here/kt_cache_check.py" exp.json bowl Synthetic - \
    a=$(seq -s, 1 20) b=$(python3 -c "print(','.join(str(2**i) for i in range(20)))") c=$(seq -s, 0 9) >kc.txt 2>&1 \
    && ok "db export --kt-cache" || bad "db export --kt-cache" "$(cat exp.txt kc.txt)"
"$exe" db export --db=r.db --journal=exp.jsonl bowl.json.gz 2>expj.txt \
    && [ "$(grep -c '"kind":"eval"' exp.jsonl)" -eq "$(python3 -c 'import json; print(len(json.load(open("exp.json"))["cache"]))')" ] \
    && ok "db export --journal" || bad "db export --journal" "$(cat expj.txt)"
# an export path no file can be created at: bad input, as for tune's outputs (exit 2)
for opt in --kt-cache --journal; do
    out=$("$exe" db export --db=r.db $opt=nodir/x.json bowl.json.gz 2>&1)
    rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && grep -q -- "$opt=nodir/x.json: cannot write in nodir" <<<"$out" \
        && [ ! -e nodir ] && ok "db export $opt into a missing folder: exit 2" \
        || bad "db export $opt into a missing folder: exit 2" "exit $rc: $out"
done
"$exe" db import --db=i.db exp.json >imp.txt 2>&1 && "$exe" db import --db=i.db exp.json >>imp.txt 2>&1 \
    && [ "$(count i.db 'select count(*) from evaluations')" -eq "$(grep -c '"kind":"eval"' exp.jsonl)" ] \
    && ok "db import twice stores once" || bad "db import twice stores once" "$(cat imp.txt)"
# no database to import into: one line, exit 2, nothing stored anywhere
out=$(CUTUNE_DB=none "$exe" db import exp.json 2>&1)
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && grep -q 'CUTUNE_DB=none: no database' <<<"$out" \
    && ok "db import with \$CUTUNE_DB=none: exit 2, one line" \
    || bad "db import with \$CUTUNE_DB=none: exit 2, one line" "exit $rc: $out"
# an export imported into the database it came from: every evaluation is there already
n_evals=$(count r.db 'select count(*) from evaluations') n_runs=$(count r.db 'select count(*) from runs')
"$exe" db import --db=r.db exp.json exp.jsonl >back.txt 2>&1 \
    && [ "$(count r.db 'select count(*) from evaluations')" -eq "$n_evals" ] \
    && [ "$(count r.db 'select count(*) from runs')" -eq "$n_runs" ] \
    && [ "$(grep -c ": 0 new, $(grep -c '"kind":"eval"' exp.jsonl) already present\$" back.txt)" -eq 2 ] \
    && ok "db export, then import into the same database: 0 new" \
    || bad "db export, then import into the same database: 0 new" "$(cat back.txt)"
"$exe" db import --db=i2.db exp.jsonl >imp2.txt 2>&1 && "$exe" best --db=i2.db bowl.json.gz >ib.txt 2>&1 \
    && [ "$(grep '^best:' ib.txt)" = "$best_run" ] && ok "exported journal imports and answers best" \
    || bad "exported journal imports and answers best" "$(cat imp2.txt ib.txt)"
"$exe" --no-db --searcher=grid --budget=40 --no-progress --journal=rx.jsonl exp.jsonl >rx.txt 2>&1 \
    && [ "$(grep '^best:' rx.txt)" = "$best_run" ] && ok "the exported journal replays" || bad "the exported journal replays" "$(cat rx.txt)"
"$exe" db import --db=i3.db a.jsonl >imp3.txt 2>&1 && "$exe" best --db=i3.db bowl.json.gz >i3.txt 2>&1 \
    && ok "a replay run's journal imports under its recording's GPU" || bad "a replay run's journal imports under its recording's GPU" "$(cat imp3.txt i3.txt)"
# A journal is filed under no GPU it does not name. A replay run's journal whose recording
# cannot be read is refused (its measurements are that recording's, keyed as it is): exit
# 2, one line, no database made.
sed "1s|\"evaluator_arg\":\"[^\"]*\"|\"evaluator_arg\":\"$tmp/gone.json.gz\"|" a.jsonl > gone.jsonl
out=$("$exe" db import --db=gone.db gone.jsonl 2>&1)
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && [ ! -e gone.db ] \
    && grep -q "^cutune db: gone.jsonl: the journal of a replay run whose recording cannot be read ($tmp/gone.json.gz: cannot open: No such file or directory): its measurements are that recording's, filed under its key; import the recording itself\$" <<<"$out" \
    && ok "db import of a replay run's journal whose recording is gone: refused" \
    || bad "db import of a replay run's journal whose recording is gone: refused" "exit $rc: $out"
# A live run's journal whose header names no device (an older cutune's, one written by
# hand) is keyed by its own records, as a replay of it is, not pooled under one 'unknown'
# GPU with every other such journal.
sed '1s|"evaluator":"replay"|"evaluator":"cuda"|; 1s|"device":"[^"]*",||' a.jsonl > nodev1.jsonl
"$exe" --no-db --seed=2 --budget=20 --no-progress --journal=a2.jsonl bowl.json.gz >/dev/null 2>&1
sed '1s|"evaluator":"replay"|"evaluator":"cuda"|; 1s|"device":"[^"]*",||' a2.jsonl > nodev2.jsonl
"$exe" db import --db=nd.db nodev1.jsonl nodev2.jsonl >nd.txt 2>&1 && "$exe" db list --db=nd.db >ndl.txt 2>&1 \
    && [ "$(grep -c '^bowl	unknown|recording [0-9a-f]\{16\}	' ndl.txt)" -eq 2 ] \
    && grep -q "^nodev1.jsonl: 20 of 20 records as bowl on unknown|recording [0-9a-f]*.*: 20 new, 0 already present\$" nd.txt \
    && ok "db import: journals that name no device are keyed by their own records" \
    || bad "db import: journals that name no device are keyed by their own records" "$(cat nd.txt ndl.txt)"
# A live cuda run's journal records the GPU fingerprint its rows are stored under
# (header "gpu"): import files it under that key, not under its device's description, so
# the run's own journal imported again adds nothing and no second GPU appears; the gpus
# row gets the fingerprint's parts. A journal without "gpu" is filed under its "device",
# and a "gpu" that is not a string is refused (exit 2, one line naming file, line and
# field; no database made).
fp='NVIDIA H200|132 SMs|143771 MiB|driver 580.95.05|CUDA 13.0'
"$exe" --no-db --budget=6 --no-progress --journal=vl.jsonl vector_add >/dev/null 2>&1
live_journal() { # OUT GPU-JSON (absent: no "gpu")
    python3 - vl.jsonl "$1" "${2-}" <<'PYEOF'
import json, sys
lines = open(sys.argv[1]).read().splitlines(True)
h = json.loads(lines[0])
out = {}
for k, v in h.items():
    if k == "evaluator":
        v = "cuda"
    elif k == "evaluator_arg":
        v = None
    elif k == "device":
        v = "NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0)"
    out[k] = v
    if k == "device" and sys.argv[3]:
        out["gpu"] = json.loads(sys.argv[3])
out["started"] = "2025-01-01T00:00:00Z"
with open(sys.argv[2], "w") as f:
    f.write(json.dumps(out, separators=(",", ":")) + "\n")
    f.writelines(lines[1:])
PYEOF
}
live_journal lg.jsonl "\"$fp\""
live_journal ln.jsonl
live_journal lb.jsonl 5
"$exe" db import --db=lg.db lg.jsonl >lg.txt 2>&1 && "$exe" db import --db=lg.db lg.jsonl >>lg.txt 2>&1 \
    && "$exe" db list --db=lg.db >lgl.txt 2>&1 \
    && grep -q "^lg.jsonl: 6 of 6 records as vector_add on $fp (sizes .*): 6 new, 0 already present\$" lg.txt \
    && grep -q "^lg.jsonl: 6 of 6 records as vector_add on $fp (sizes .*): 0 new, 6 already present\$" lg.txt \
    && [ "$(tail -n +2 lgl.txt | cut -f2)" = "$fp" ] \
    && [ "$(count lg.db "select name || ',' || sm_count || ',' || memory_mib || ',' || driver || ',' || cuda from gpus")" \
        = "NVIDIA H200,132,143771,580.95.05,13.0" ] \
    && ok "db import: a live journal's header gpu is its key (imported again: 0 new, one GPU)" \
    || bad "db import: a live journal's header gpu is its key (imported again: 0 new, one GPU)" "$(cat lg.txt lgl.txt)"
"$exe" db import --db=lg.db ln.jsonl >ln.txt 2>&1 && "$exe" db list --db=lg.db >lnl.txt 2>&1 \
    && grep -q "^ln.jsonl: 6 of 6 records as vector_add on NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0) (sizes .*): 6 new, 0 already present\$" ln.txt \
    && [ "$(tail -n +2 lnl.txt | cut -f2 | LC_ALL=C sort | tr '\n' ';')" = "NVIDIA H200 (sm_90, 132 SMs, CUDA driver 13.0);$fp;" ] \
    && ok "db import: a live journal without gpu goes under its device" \
    || bad "db import: a live journal without gpu goes under its device" "$(cat ln.txt lnl.txt)"
out=$("$exe" db import --db=lb.db lb.jsonl 2>&1)
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && [ ! -e lb.db ] \
    && grep -q "lb.jsonl:1: header.gpu: expected a string\$" <<<"$out" \
    && ok "db import: a header gpu that is not a string is refused" \
    || bad "db import: a header gpu that is not a string is refused" "exit $rc: $out"
# a journal imported onto --kernel without --size: at the sizes its header records
"$exe" --no-db --no-progress -q --budget=5 --size M=1024 --size N=1024 --size K=1024 --journal=gh.jsonl gemm_h >/dev/null 2>&1
"$exe" db import --db=gh.db --kernel=gemm_h gh.jsonl >gh.txt 2>&1 && grep -q '(sizes {"M":1024,"N":1024,"K":1024' gh.txt \
    && ok "db import --kernel: a journal's own sizes" || bad "db import --kernel: a journal's own sizes" "$(cat gh.txt)"
out=$("$exe" db prune --db=r.db 2>&1)
[ $? -eq 2 ] && grep -q "no filter" <<<"$out" && ok "db prune without a filter refused" || bad "db prune without a filter refused" "$out"
n_failed=$(count r.db "select count(*) from evaluations where status != 'ok'")
"$exe" db prune --db=r.db --failed >pr.txt 2>&1 && grep -q "removed $n_failed evaluations" pr.txt \
    && [ "$(count r.db "select count(*) from evaluations where status != 'ok'")" -eq 0 ] \
    && ok "db prune --failed" || bad "db prune --failed" "$(cat pr.txt)"
"$exe" db prune --db=r.db --kernel=bowl >pr2.txt 2>&1 && [ "$(count r.db 'select count(*) from runs')" -eq 0 ] \
    && [ "$(count r.db 'select count(*) from kernels')" -eq 0 ] && ok "db prune --kernel removes its runs too" \
    || bad "db prune --kernel removes its runs too" "$(cat pr2.txt)"

# --- bad databases: one line, exit 2, no journal, the file as it was
db_fail() { # NAME PATTERN DBFILE [ARGS...]
    local name=$1 pat=$2 db=$3
    shift 3
    local before after out rc
    before=$(cat "$db" "$db-wal" 2>/dev/null | sha256sum)
    rm -f bad.jsonl
    out=$("$@" --db="$db" --budget=3 --no-progress --journal=bad.jsonl bowl.json.gz 2>&1 >/dev/null)
    rc=$?
    after=$(cat "$db" "$db-wal" 2>/dev/null | sha256sum)
    if [ $rc -ne 2 ]; then bad "$name: exit $rc, want 2" "$out"
    elif [ "$(wc -l <<<"$out")" -ne 1 ]; then bad "$name: error is not one line" "$out"
    elif ! grep -qE -- "$pat" <<<"$out"; then bad "$name: message lacks /$pat/" "$out"
    elif [ -e bad.jsonl ]; then bad "$name: left a journal"
    elif [ "$before" != "$after" ]; then bad "$name: the database changed"
    else ok "$name"; fi
}
printf 'not a database at all\n' >text.db
db_fail "a text file" "text.db: not a cutune database" text.db "$exe"
# SQLite takes a file of one byte for an empty database and would write over it
printf '\n' >byte.db
db_fail "a file of one byte" "byte.db: not a cutune database" byte.db "$exe"
out=$("$exe" best --db=byte.db bowl.json.gz 2>&1)
[ $? -eq 2 ] && grep -q "byte.db: not a cutune database" <<<"$out" && [ "$(wc -c <byte.db)" -eq 1 ] \
    && ok "best on a file of one byte: exit 2" || bad "best on a file of one byte: exit 2" "$out"
python3 -c "import sqlite3; c = sqlite3.connect('other.db'); c.execute('create table t (x)'); c.commit()"
db_fail "another program's SQLite database" "other.db: not a cutune database .*another program" other.db "$exe"
"$exe" --db=newer.db --budget=3 --no-progress --journal=nw.jsonl bowl.json.gz >/dev/null 2>&1
python3 -c "import sqlite3; c = sqlite3.connect('newer.db'); c.execute('pragma user_version = 3'); c.commit(); c.execute('pragma wal_checkpoint(truncate)')"
db_fail "a newer schema" "newer.db: schema version 3 is newer than this cutune's \(2\)" newer.db "$exe"
out=$("$exe" best --db=text.db bowl.json.gz 2>&1)
[ $? -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && grep -q "text.db: not a cutune database" <<<"$out" \
    && ok "best on a text file: one line, exit 2" || bad "best on a text file: one line, exit 2" "$out"
out=$("$exe" db import --db=newer.db exp.json 2>&1)
[ $? -eq 2 ] && grep -q "newer than this cutune" <<<"$out" && ok "db import into a newer schema refused" \
    || bad "db import into a newer schema refused" "$out"
mkdir dir.db
db_fail "a directory" "dir.db: is a directory" dir.db "$exe"
"$exe" --db=locked.db --budget=3 --no-progress --journal=lk.jsonl bowl.json.gz >/dev/null 2>&1
python3 -c "
import sqlite3, time
c = sqlite3.connect('locked.db', isolation_level=None)
c.execute('begin immediate')
open('held', 'w').close()
time.sleep(6)" &
holder=$!
for _ in $(seq 1 100); do [ -e held ] && break; sleep 0.05; done
CUTUNE_DB_TIMEOUT=0.5 db_fail "locked beyond the timeout" "locked.db: locked by another process for more than 0.5 s" locked.db env CUTUNE_DB_TIMEOUT=0.5 "$exe"
kill $holder 2>/dev/null; wait $holder 2>/dev/null
"$exe" --db=ro.db --budget=3 --no-progress --journal=ro.jsonl bowl.json.gz >/dev/null 2>&1
python3 -c "import sqlite3; sqlite3.connect('ro.db').execute('pragma wal_checkpoint(truncate)')"
chmod 444 ro.db
# the db commands refuse it as tune does: one line, exit 2 (not 1, a failure while working)
db_cmd_fail() { # NAME PATTERN DBFILE COMMAND... (--db=DBFILE is added)
    local name=$1 pat=$2 db=$3
    shift 3
    local before out rc
    before=$(cat "$db" "$db-wal" 2>/dev/null | sha256sum)
    out=$("$@" --db="$db" 2>&1 >/dev/null)
    rc=$?
    if [ $rc -ne 2 ] || [ "$(wc -l <<<"$out")" -ne 1 ] || ! grep -qE -- "$pat" <<<"$out"; then
        bad "$name: want exit 2 and one line /$pat/" "exit $rc: $out"
    elif [ "$before" != "$(cat "$db" "$db-wal" 2>/dev/null | sha256sum)" ]; then bad "$name: the database changed"
    else ok "$name"; fi
}
if [ "$(id -u)" -ne 0 ]; then
    db_fail "a read-only database" "ro.db: read-only" ro.db "$exe"
    db_cmd_fail "db import into a read-only database" "ro.db: read-only" ro.db "$exe" db import exp.json
    db_cmd_fail "db prune of a read-only database" "ro.db: read-only" ro.db "$exe" db prune --failed
elif command -v setpriv >/dev/null; then # root writes anything: ask as nobody
    chmod 777 "$tmp"
    nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
    db_fail "a read-only database" "ro.db: read-only" ro.db $nobody "$exe"
    db_cmd_fail "db import into a read-only database" "ro.db: read-only" ro.db $nobody "$exe" db import exp.json
    db_cmd_fail "db prune of a read-only database" "ro.db: read-only" ro.db $nobody "$exe" db prune --failed
    mkdir rodir && "$exe" --db=rodir/t.db --budget=3 --no-progress --journal=rd.jsonl bowl.json.gz >/dev/null 2>&1
    chmod 666 rodir/t.db && chmod 555 rodir
    db_fail "a database in a read-only folder" "rodir/t.db: its folder rodir is read-only" rodir/t.db \
        $nobody "$exe"
    db_cmd_fail "db list of a database in a read-only folder" "rodir/t.db: cannot write" rodir/t.db \
        $nobody "$exe" db list
    [ ! -e rodir/t.db-wal ] && [ ! -e rodir/t.db-shm ] && ok "db list in a read-only folder leaves nothing" \
        || bad "db list in a read-only folder leaves nothing" "$(ls rodir)"
    chmod 700 "$tmp"
else
    echo "ok - a read-only database # SKIP root without setpriv"
fi

# --- two processes writing one database at once
"$exe" --db=two.db --searcher=random --seed=11 --budget=1500 --no-progress --journal=p1.jsonl bowl.json.gz >p1.txt 2>&1 &
p1=$!
"$exe" --db=two.db --searcher=random --seed=12 --budget=1500 --no-progress --journal=p2.jsonl bowl.json.gz >p2.txt 2>&1 &
p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
[ $r1 -eq 0 ] && [ $r2 -eq 0 ] && ok "two processes on one database: both done" || bad "two processes on one database: both done" "$(cat p1.txt p2.txt)"
agree "two processes: the first's rows == its journal" two.db p1.jsonl
agree "two processes: the second's rows == its journal" two.db p2.jsonl

# --- kill -9 mid-run, then resume: the database and the journal agree
"$exe" --db=kill.db --searcher=random --seed=3 --budget=3000 --no-progress --journal=k.jsonl bowl.json.gz >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 400); do
    [ -f k.jsonl ] && [ "$(wc -l <k.jsonl)" -gt 200 ] && break
    sleep 0.01
done
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
killed=$(wc -l <k.jsonl)
in_db=$(db_rows kill.db k.jsonl | wc -l)
[ $((killed - 1 - in_db)) -le 1 ] && [ "$in_db" -gt 0 ] && ok "kill -9 after $killed lines: the database lost at most the evaluation in flight ($in_db stored)" \
    || bad "kill -9: the database lost at most the evaluation in flight" "journal $killed lines, db $in_db"
"$exe" --db=kill.db --resume=k.jsonl --no-progress >kr.txt 2>&1 && ok "resumed after kill -9" || bad "resumed after kill -9" "$(cat kr.txt)"
agree "after kill -9 and resume: database == journal" kill.db k.jsonl
[ "$(count kill.db 'select count(*) from runs')" -eq 1 ] && ok "the resumed run continues its own row" \
    || bad "the resumed run continues its own row" "$(count kill.db 'select count(*) from runs') runs"


# A reused answer whose row a kill -9 took (between its journal line and its row, which
# the journal does not mark as reused) was stored on resume as a measurement: the
# database then counted it twice. Crafted: the second run's journal cut after evaluation
# 20 and its rows from 20 on removed, as a kill there leaves them.
"$exe" --db=ru.db --searcher=random --seed=5 --budget=40 --no-progress -q --journal=ru1.jsonl bowl.json.gz >/dev/null 2>&1
"$exe" --db=ru.db --searcher=random --seed=5 --budget=40 --no-progress -q --journal=ru2.jsonl bowl.json.gz >/dev/null 2>&1
head -n 22 ru2.jsonl >ru2.cut && mv ru2.cut ru2.jsonl
python3 -c "
import os, sqlite3
c = sqlite3.connect('ru.db')
c.execute('delete from evaluations where seq >= 20 and run_id = (select id from runs where journal = ?)',
          (os.path.realpath('ru2.jsonl'),))
c.commit()"
"$exe" --db=ru.db --resume=ru2.jsonl --no-progress >rur.txt 2>&1
measured=$("$exe" db list --db=ru.db 2>&1 | awk -F'\t' 'NR == 2 {print $5}')
[ "$(count ru.db 'select count(*) from evaluations where reused_from is null')" -eq 40 ] && [ "$measured" = 40 ] \
    && [ "$(count ru.db 'select count(*) from evaluations where reused_from is not null')" -eq 40 ] \
    && ok "a reused answer lost to kill -9 is stored on resume as reused, not as a second measurement" \
    || bad "a reused answer lost to kill -9 is stored on resume as reused, not as a second measurement" \
        "db list measured $measured; $(cat rur.txt)"
agree "after the reused answer's resume: database == journal" ru.db ru2.jsonl


# `missing` answers (a configuration a replayed recording lacks) are no measurements: the
# counts of `db list` and `best` leave them out, so `header` does not take them for tuning
"$exe" --db=miss.db --cartesian --searcher=random --budget=10 --journal=miss.jsonl --no-progress \
    "$here/../../data/gemm.jsonl.gz" >/dev/null 2>&1
nmiss=$(grep -c '"status":"missing"' miss.jsonl)
out=$("$exe" db list --db=miss.db 2>&1)
measured=$(awk -F'\t' 'NR == 2 {print $5}' <<<"$out")
[ "$nmiss" -gt 0 ] && [ "$measured" = $((10 - nmiss)) ] &&
    ok "db list: $nmiss missing answers are not counted as measurements" ||
    bad "db list counts missing answers" "missing $nmiss, $out"
# an export of a group that holds no measurement (only missing answers): refused, and a
# file already at the path is left as it was
python3 -c "import sqlite3; c = sqlite3.connect('miss.db'); c.execute(\"delete from evaluations where status != 'missing'\"); c.commit()"
echo keep >mexp.json
out=$("$exe" db export --db=miss.db --kt-cache=mexp.json "$here/../../data/gemm.jsonl.gz" 2>&1)
rc=$?
out2=$("$exe" db export --db=miss.db --journal=mexp.jsonl "$here/../../data/gemm.jsonl.gz" 2>&1)
rc2=$?
[ $rc -eq 2 ] && [ $rc2 -eq 2 ] && grep -q "miss.db: nothing to export: gemm .* holds no measurement" <<<"$out" \
    && [ "$(cat mexp.json)" = keep ] && [ ! -e mexp.jsonl ] && grep -q "nothing to export" <<<"$out2" \
    && ok "db export of no measurement: refused, nothing written" \
    || bad "db export of no measurement: refused, nothing written" "exit $rc: $out; exit $rc2: $out2"

# A prune of a kernel whose run is under way removed the run's row with its evaluations,
# and the run died on its next store (FOREIGN KEY constraint failed). The replay plays
# each evaluation in 3 ms of wall time (CUTUNE_REPLAY_SLEEP), so the run lasts about 6 s
# and the prune meets it in progress.
CUTUNE_REPLAY_SLEEP=0.005 "$exe" --db=live.db --searcher=random --budget=2000 --no-progress -q \
    --journal=live.jsonl bowl.json.gz >/dev/null 2>live.err &
pid=$!
for _ in $(seq 400); do
    [ -s live.jsonl ] && [ "$(wc -l <live.jsonl)" -gt 20 ] && break
    sleep 0.05
done
kill -0 $pid 2>/dev/null && live=1 || live=0
out=$("$exe" db prune --db=live.db --kernel=bowl 2>&1)
wait $pid
rc=$?
removed=$(sed -n 's/.*removed \([0-9]*\) evaluations.*/\1/p' <<<"$out")
left=$(count live.db 'select count(*) from evaluations')
if [ $live -eq 0 ]; then
    ok "db prune of a run in progress: skipped (the run ended before the prune)"
elif [ $rc -eq 0 ] && [ -n "$removed" ] && [ "$removed" -gt 0 ] && [ $((removed + left)) -eq 2000 ] \
    && [ "$(count live.db 'select count(*) from runs')" -eq 1 ]; then
    ok "db prune of a run in progress: the run goes on and stores the rest ($removed removed, $left after)"
else
    bad "db prune of a run in progress" "tune exit $rc: $(cat live.err); prune: $out; left $left"
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
