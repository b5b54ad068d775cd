#!/usr/bin/env bash
# Device call 215 (one H200), the build of call 214: why csr-adaptive (and cuSPARSE) reach a third of the copy
# bandwidth on uni_50k_1024 (50,000 rows of 1,024 entries over 50,000 columns) where ELLR-T reaches 80-85%
# (call 166). Suspect: the shared memory of csr-adaptive's blocks (5-6 KB each, 16 blocks per SM) shrinks the
# L1 that would hold x (200 KB in f32). Test: csr-adaptive at 2, 4 and 8 items per thread (the shared memory
# scales with them) beside ELLR-T and csr-vector-tuned, on that matrix and on a control whose x (2,000,000
# columns) fits no L1; cuSPARSE in the same runs; then ncu's L1 hit rate and carveout for the two kernels.
# Then every kernel and auto on ../2026-12-02-h200-calls212-/unseen10.txt (measured once by call 213, whose
# results were lost; in no training).
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c214.txz
O=$OUT/r; mkdir -p $O
for shape in uni_l1:cols=50000 uni_nol1:cols=2000000; do
  name=${shape%%:*}; gen="uniform:rows=50000,${shape#*:},per_row=1024"
  for p in f32 f64; do
    timeout 60 $B/spmv bench --gen $gen --backend cuda --kernels csr-adaptive,ellr-t,csr-vector-tuned --precision $p \
      --runs 20 --json $O/$name-$p-default.json > $O/$name-$p-default.txt 2>&1
    for items in 2 4 8; do
      timeout 40 $B/spmv bench --gen $gen --backend cuda --kernels csr-adaptive --precision $p --runs 20 \
        --params items_per_thread=$items,vector_width=$(( items < 4 ? items : 4 )) \
        --json $O/$name-$p-items$items.json > $O/$name-$p-items$items.txt 2>&1
    done
  done
done
echo "shapes done at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
timeout 90 ncu --clock-control none -k 'regex:spmv_csr_adaptive_kernel|ellr' --launch-count 4 \
  --metrics gpu__time_duration.sum,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,launch__shared_mem_config_size,launch__occupancy_limit_shared_mem,sm__warps_active.avg.pct_of_peak_sustained_active \
  $B/spmv bench --gen uniform:rows=50000,cols=50000,per_row=1024 --backend cuda --kernels csr-adaptive,ellr-t \
  --precision f32 --runs 1 --warmup 1 > $O/ncu-uni_l1-f32.txt 2>&1
echo "ncu exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
all_kernels_suite bench/results/2026-12-02-h200-calls212-/unseen10.txt unseen10 75 100
cat $OUT/gpu.txt $OUT/times.txt
for f in $O/uni_*.txt; do echo "== $(basename $f)"; grep -E "^(cuda|cusparse) " $f; done
grep -E "spmv_csr_adaptive|ellr|duration|hit_rate|dram__bytes|shared_mem|warps_active" $O/ncu-uni_l1-f32.txt | cut -c1-150
echo "== unseen10-all"; grep "^| [a-z]" $O/unseen10-all-auto.md | grep -v "^| set"
pack_results 215
