# Sourced by scripts/cutune and scripts/test: install what is missing (Debian),
# then configure and build. Build output goes to a log so that a command's
# first line of output is cutune's own.

CUTUNE_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CUTUNE_DEBS="meson ninja-build pkg-config gcc libgsl-dev liblapacke-dev libopenblas-dev libcjson-dev libcmocka-dev zlib1g-dev gnuplot-nox"

cutune_have_deps() {
    command -v meson >/dev/null && command -v ninja >/dev/null && command -v cc >/dev/null &&
        pkg-config --exists gsl libcjson lapacke openblas zlib cmocka 2>/dev/null
}

cutune_ensure_deps() {
    cutune_have_deps && return 0
    if [ "$(id -u)" -ne 0 ]; then
        echo "cutune: missing build dependencies; install them with:" >&2
        echo "  sudo apt-get install -y $CUTUNE_DEBS" >&2
        exit 1
    fi
    echo "cutune: installing build dependencies (apt-get) ..." >&2
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update && apt-get install -y --no-install-recommends $CUTUNE_DEBS; } \
        >/tmp/cutune-apt.log 2>&1 || {
        echo "cutune: apt-get failed; see /tmp/cutune-apt.log" >&2
        tail -20 /tmp/cutune-apt.log >&2
        exit 1
    }
}

# cutune_build BUILDDIR [meson setup options...]
cutune_build() {
    local dir=$1
    shift
    local log="$dir.log"
    if [ ! -f "$dir/build.ninja" ]; then
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
