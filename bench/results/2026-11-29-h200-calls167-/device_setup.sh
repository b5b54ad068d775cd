# Sourced from the repository root by this folder's call scripts on the GPU machine:
#   source bench/results/2026-11-29-h200-calls167-/device_setup.sh ARCHIVE [gzip]
# unpacks .device-build/ARCHIVE (new/ and, for A/B calls, old/) to /tmp/b and the shared data to /tmp/shared (with
# gzip, the real matrices compressed as the GPU tests read them); sets B (the new build), M (the real matrices),
# t0 and the library path; writes the GPU's name and driver to $OUT/gpu.txt; defines time_shape and pack_results.
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

# Everything under $OUT as one archive, $OUT/callCALL-results.tgz (the device brings back at most 8 files).
pack_results() {  # CALL
  cd $OUT && tar czf /tmp/results.tgz ./* && rm -rf ./* && mv /tmp/results.tgz $OUT/call$1-results.tgz
}
