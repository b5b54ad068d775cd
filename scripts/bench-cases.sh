# Sourced by the scripts that measure a list of `spmv bench` cases
# (spmm-report.sh, bro-report.sh): one JSON document per case in $cases,
# the printed tables appended to $log, a case whose JSON exists skipped so
# that a rerun continues where a stopped one left off.
#
# The sourcing script sets: cases (folder), log (file), runs (timed runs per
# kernel), tag (the prefix of messages); the CLI is $BUILD_DIR/spmv.
spmv="${BUILD_DIR:-build}/spmv"
[ -x "$spmv" ] || { echo "$tag: $spmv not found (build first, or set BUILD_DIR)" >&2; exit 2; }
status=0
start=$(date +%s)
mkdir -p "$cases"
stamp() { echo "$tag: [$(( $(date +%s) - start ))s] $*" | tee -a "$log" >&2; }

# measure NAME BENCH-ARGUMENTS...
measure() {
  local name=$1
  shift
  if [ -s "$cases/$name.json" ]; then
    stamp "$name: already measured"
    return
  fi
  stamp "$name: spmv bench $*"
  "$spmv" bench "$@" --backend cuda --runs "$runs" --warmup 2 --json "$cases/$name.json" >>"$log" 2>&1
  local code=$?
  [ "$code" -eq 0 ] || { status=1; stamp "$name: exit $code (see $log)"; }
}
