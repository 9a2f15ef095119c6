# Sourced by scripts/cutune and scripts/test: install what is missing (Debian),
# then configure and build. Build output goes to a log so that a command's
# first line of output is cutune's own.

CUTUNE_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# gnuplot draws `cutune bench`'s plots; Open MPI (optional at build time) runs the MPI
# tests and multi-host runs (chromium, for the report tests, comes with scripts/test);
# SQLite keeps the tuning database; cmake builds the examples/ build-integration project
# (its test); the rest is needed to build.
CUTUNE_DEBS="meson ninja-build pkg-config gcc libgsl-dev libcjson-dev libcmocka-dev zlib1g-dev libsqlite3-dev gnuplot-nox libopenmpi-dev openmpi-bin cmake"
# Seconds to wait for an apt/dpkg lock held by another process (unattended-upgrades,
# another install) before giving up.
CUTUNE_APT_WAIT=${CUTUNE_APT_WAIT:-300}

cutune_have_build_deps() {
    command -v meson >/dev/null && command -v ninja >/dev/null && command -v cc >/dev/null &&
        pkg-config --exists gsl libcjson zlib sqlite3 cmocka ompi-c 2>/dev/null && command -v mpirun >/dev/null
}

# apt-get ARGS... with the lock waited for: DPkg::Lock::Timeout covers the dpkg lock;
# `apt-get update`'s lists lock is not covered by it, so a lock error is retried until
# CUTUNE_APT_WAIT seconds have passed.
cutune_apt() {
    local start=$SECONDS said=0
    while :; do
        if apt-get -o DPkg::Lock::Timeout="$CUTUNE_APT_WAIT" "$@" >>/tmp/cutune-apt.log 2>&1; then
            return 0
        fi
        tail -5 /tmp/cutune-apt.log | grep -qiE 'could not get lock|unable to lock|unable to acquire' ||
            return 1
        [ $((SECONDS - start)) -lt "$CUTUNE_APT_WAIT" ] || return 1
        if [ $said -eq 0 ]; then
            echo "cutune: waiting for the apt lock held by another process (up to $CUTUNE_APT_WAIT s) ..." >&2
            said=1
        fi
        sleep 5
    done
}

cutune_ensure_deps() {
    local gnuplot=1
    command -v gnuplot >/dev/null || gnuplot=0
    if cutune_have_build_deps && [ $gnuplot -eq 1 ]; then
        return 0
    fi
    if [ "$(id -u)" -ne 0 ]; then
        if cutune_have_build_deps; then
            echo "cutune: gnuplot is not installed, so 'cutune bench' draws no plots" \
                "(sudo apt-get install -y gnuplot-nox)" >&2
            return 0
        fi
        echo "cutune: missing build dependencies; install them with:" >&2
        echo "  sudo apt-get install -y $CUTUNE_DEBS" >&2
        exit 1
    fi
    echo "cutune: installing build dependencies (apt-get) ..." >&2
    export DEBIAN_FRONTEND=noninteractive
    : >/tmp/cutune-apt.log
    { cutune_apt update && cutune_apt install -y --no-install-recommends $CUTUNE_DEBS; } || {
        echo "cutune: apt-get failed; see /tmp/cutune-apt.log" >&2
        tail -20 /tmp/cutune-apt.log >&2
        exit 1
    }
}

# scripts/test: chromium too (the report tests open the page in it; they are skipped
# without it), installed where the build dependencies already are.
cutune_ensure_test_deps() {
    command -v chromium >/dev/null && return 0
    if [ "$(id -u)" -ne 0 ]; then
        echo "cutune: chromium is not installed, so the report's browser tests are skipped" \
            "(sudo apt-get install -y chromium)" >&2
        return 0
    fi
    echo "cutune: installing chromium for the report tests (apt-get) ..." >&2
    export DEBIAN_FRONTEND=noninteractive
    { cutune_apt update && cutune_apt install -y --no-install-recommends chromium; } ||
        echo "cutune: apt-get could not install chromium (see /tmp/cutune-apt.log); the" \
            "report's browser tests are skipped" >&2
}

# cutune_build BUILDDIR SECONDS [meson setup options...]: SECONDS is about how long a
# first build takes (said before it starts).
cutune_build() {
    local dir=$1 secs=$2
    shift 2
    local log="$dir.log"
    if [ ! -f "$dir/build.ninja" ]; then
        echo "cutune: first build, about $secs s on 2 cores (log: $log) ..." >&2
        meson setup "$dir" "$CUTUNE_ROOT" "$@" >"$log" 2>&1 || {
            echo "cutune: meson setup failed; see $log" >&2
            tail -30 "$log" >&2
            exit 1
        }
    fi
    ninja -C "$dir" >>"$log" 2>&1 || {
        echo "cutune: build failed; see $log" >&2
        grep -E 'error|Error' "$log" | head -30 >&2
        exit 1
    }
}
