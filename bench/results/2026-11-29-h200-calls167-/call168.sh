#!/usr/bin/env bash
# Device call 168 (one H200): why cuSPARSE's CSR kernel (alg1) beats csr-adaptive on graph-like real matrices
# replicated, f32. (1) Counters (ncu, the metrics of call 33) of cusparse-csr-alg1 and csr-adaptive on wiki_Vote x 271
# and ct2010 x 72; (2) csr-adaptive's shapes (block_size:items_per_thread:vector_width[:column_bits]) on the nine
# replicated f32 units where cuSPARSE won (calls 157/166) and four where we won, cuSPARSE in each run.
source bench/results/2026-11-29-h200-calls167-/device_setup.sh c167.txz
O=$OUT/r; mkdir -p $O
ncu --version 2>&1 | tail -1 >> $OUT/gpu.txt
m=gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sector_op_read_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__block_size,launch__registers_per_thread,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
for mc in wiki_Vote:271 ct2010:72; do
  for set in cusparse:cusparse-csr-alg1 cuda:csr-adaptive; do
    timeout 60 ncu --clock-control none --launch-count 12 --metrics $m --csv $B/spmv bench $M/${mc%%:*}.mtx \
      --copies ${mc##*:} --backend ${set%%:*} --kernels ${set##*:} --precision f32 --runs 2 --warmup 1 \
      > $O/ncu-${mc%%:*}-${set%%:*}.csv 2> $O/ncu-${mc%%:*}-${set%%:*}.err
    echo "ncu ${mc%%:*} ${set%%:*} exit $? at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
  done
done
units="lp_dfl001:658 PGPgiantcompo:487 wiki_Vote:271 lp_pds_20:99 email_Enron:75 vsp_model1_crew1_cr42_south31:71
ct2010:72 mbeacxc:621 Groebner_id2003_aug:175 cage11:51 bcsstk16:106 4elt:274 NSR8K:580"
for u in $units; do
  for s in 128:8:4:16 128:4:4:16 256:4:4:16 128:2:2:16 256:8:4:16 128:8:4:32; do
    IFS=: read -r bs it vw cb <<< "$s"
    time_shape ${u%%:*} ${u##*:} ${bs}x${it}v${vw}c$cb \
      block_size=$bs,items_per_thread=$it,vector_width=$vw,column_bits=$cb
  done
  [ $(( $(date +%s) - t0 )) -gt 400 ] && break
done
echo "shapes done at $(( $(date +%s) - t0 )) s" >> $OUT/times.txt
cat $OUT/gpu.txt $OUT/times.txt
pack_results 168
