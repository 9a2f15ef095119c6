# Sourced (POSIX sh) by the test scripts that watch a journal being written.
# nevals FILE: how many evaluations FILE holds (0 where it does not exist yet; grep -c
# prints 0 itself where nothing matches).
nevals() {
    _n=$(grep -c '"kind" *: *"eval"' "$1" 2>/dev/null)
    echo "${_n:-0}"
}
