# Sourced from the repository root by this folder's call scripts on the GPU machine:
#   source bench/results/2026-11-29-h200-calls167-/device_setup.sh ARCHIVE [gzip]
# unpacks .device-build/ARCHIVE (new/ and, for A/B calls, old/) to /tmp/b and the shared data to /tmp/shared (with
# gzip, the real matrices compressed as the GPU tests read them); sets B (the new build), M (the real matrices),
# t0 and the library path; writes the GPU's name and driver to $OUT/gpu.txt; defines time_shape, gpu_suite,
# issue12_families, default_builds, all_kernels_suite, auto_suite, kernel_suite and pack_results.
set -u
rm -rf /tmp/b /tmp/shared && mkdir -p /tmp/b /tmp/shared && xz -dc .device-build/$1 | tar xf - -C /tmp/b
xz -dc .device-build/data.txz | tar xf - -C /tmp/shared
if [ "${2:-}" = gzip ]; then ls /tmp/shared/matrices/*.mtx | xargs -P 16 -n 4 gzip -1; fi
B=/tmp/b/new; M=/tmp/shared/matrices
export LD_LIBRARY_PATH=$B/metis
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt

# csr-adaptive with PARAMS (name=value,...) on real matrix MATRIX x COPIES, f32, beside cuSPARSE's algorithms:
# $O/ab-MATRIX-TAG.json and .txt.
time_shape() {  # MATRIX COPIES TAG PARAMS
  timeout 40 $B/spmv bench $M/$1.mtx --copies $2 --backend cuda --kernels csr-adaptive --params $4 --precision f32 \
    --runs 20 --json $O/ab-$1-$3.json > $O/ab-$1-$3.txt 2>&1
}

# The whole GPU suite on the new build (every 8th real matrix; source this file with gzip): $OUT/gpu-tests.log;
# its exit status in $OUT/times.txt.
gpu_suite() {  # TIMEOUT_SECONDS
  SPMV_SHARED_DATA=/tmp/shared SPMV_TEST_MATRIX_STRIDE=8 SPMV_REQUIRE_GPU=1 SPMV_CLI=$B/spmv \
    timeout $1 $B/spmv_gpu_tests > $OUT/gpu-tests.log 2>&1
  echo "gpu tests exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
}

# The five families of issue 12 (two stencils, uniform rows, R-MAT, block-FEM) as bench_format_builds takes them.
issue12_families="stencil27:n=150 stencil5:nx=3000,ny=3000 uniform:rows=4000000,cols=4000000,per_row=16
rmat:scale=22,edge_factor=16 blockfem:n=80,block=4"

# bench_format_builds' default plan (--default-only) on issue12_families with the build in /tmp/b/BUILD (VERSION
# unless given): $O/builds-VERSION-PRECISION-ROUND.txt and .jsonl; its exit status in $OUT/times.txt.
default_builds() {  # VERSION PRECISION ROUND [BUILD]
  timeout 60 /tmp/b/${4:-$1}/bench_format_builds $2 --default-only $issue12_families > $O/builds-$1-$2-$3.txt \
    2> $O/builds-$1-$2-$3.jsonl
  echo "builds $1 $2 round $3 exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
}

# Everything under $OUT as one archive, $OUT/callCALL-results.tgz (the device brings back at most 8 files).
pack_results() {  # CALL
  cd $OUT && tar czf /tmp/results.tgz ./* && rm -rf ./* && mv /tmp/results.tgz $OUT/call$1-results.tgz
}

# Every kernel and auto at 10^6 expected products on the families of FAMILIES_FILE, f64 and f32, cuSPARSE in the
# same run, measuring for SECONDS at most (killed after TIMEOUT): $O/NAME-all/results.jsonl.gz, its log, and
# auto against cuSPARSE in $O/NAME-all-auto.md; its exit status in $OUT/times.txt.
all_kernels_suite() {  # FAMILIES_FILE NAME SECONDS TIMEOUT
  timeout $4 $B/spmv suite --families $1 --backend cuda --kernels all --precision f64,f32 \
    --runs 20 --host-runs 0 --expected-products 1e6 --time-limit $3 --out $O/$2-all > $O/$2-all.log 2>&1
  echo "$2, every kernel, exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
  python3 bench/auto_vs_cusparse.py $O/$2-all/results.jsonl --worst 8 > $O/$2-all-auto.md 2>&1
  gzip -9 $O/$2-all/results.jsonl
}

# auto beside csr-adaptive and cuSPARSE's algorithms at 10^6 expected products, f64 and f32, on the matrices that
# SOURCE... (spmv suite's arguments) name, measuring for SECONDS at most (killed after TIMEOUT): $O/NAME/results.jsonl
# and $O/NAME.log; its exit status in $OUT/times.txt.
auto_suite() {  # NAME SECONDS TIMEOUT SOURCE...
  local name=$1 seconds=$2 limit=$3
  shift 3
  timeout $limit $B/spmv suite "$@" --backend cuda --kernels csr-adaptive --precision f64,f32 --runs 20 --host-runs 0 \
    --expected-products 1e6 --time-limit $seconds --out $O/$name > $O/$name.log 2>&1
  echo "$name exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
}

# csr-adaptive beside cuSPARSE's algorithms (and auto) at 10^6 expected products, f64 and f32, with the build in
# /tmp/b/BUILD on the matrices that SOURCE... (spmv suite's arguments) name, measuring for SECONDS at most:
# $O/NAME-BUILD/results.jsonl and its log; its exit status in $OUT/times.txt.
kernel_suite() {  # BUILD NAME SECONDS SOURCE...
  local build=$1 name=$2 seconds=$3
  shift 3
  timeout $((seconds + 15)) /tmp/b/$build/spmv suite "$@" --backend cuda --kernels csr-adaptive --precision f64,f32 \
    --runs 20 --host-runs 0 --expected-products 1e6 --time-limit $seconds --out $O/$name-$build > $O/$name-$build.log 2>&1
  echo "$name $build exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
}

# auto beside cuSPARSE's algorithms at 10^6 expected products, f64 and f32, with the build in /tmp/b/new and auto's
# plans ranked by the selector model file MODEL (SPMV_SELECTOR_MODEL; "built-in": the library's own), on the matrices
# that SOURCE... (spmv suite's arguments) name, measuring for SECONDS at most: $O/NAME-TAG/results.jsonl and its log;
# its exit status in $OUT/times.txt.
model_suite() {  # MODEL TAG NAME SECONDS SOURCE...
  local model=$1 tag=$2 name=$3 seconds=$4
  shift 4
  [ "$model" = built-in ] && model=
  SPMV_SELECTOR_MODEL=$model timeout $((seconds + 15)) $B/spmv suite "$@" --backend cuda --kernels auto \
    --precision f64,f32 --runs 20 --host-runs 0 --expected-products 1e6 --time-limit $seconds --out $O/$name-$tag \
    > $O/$name-$tag.log 2>&1
  echo "$name $tag exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
}
