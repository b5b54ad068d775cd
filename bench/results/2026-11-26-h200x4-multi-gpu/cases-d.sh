S150=stencil27:n=150
bench g2-s150-nnz-halo --gen $S150 --gpus 2
bench g4-s150-nnz-halo --gen $S150 --gpus 4
bench g2-s150-rows-halo --gen $S150 --gpus 2 --partition rows
bench g2-s150-graph-halo --gen $S150 --gpus 2 --partition graph
bench g2-s150-nnz-halo-push --gen $S150 --gpus 2 --push
bench g2-s150-nnz-halo-nographs --gen $S150 --gpus 2 --no-graphs
bench g2-s150-nnz-allgather --gen $S150 --gpus 2 --exchange allgather
bench g4-s150-nnz-halo-push --gen $S150 --gpus 4 --push
bench g1-s150-2parts --gen $S150 --parts 2
bench g2-s150x300-nnz-halo --gen stencil27:nx=150,ny=150,nz=300 --gpus 2
bench g4-s150x600-nnz-halo --gen stencil27:nx=150,ny=150,nz=600 --gpus 4
for g in 2 4; do bench g$g-s300-nnz-halo --gen stencil27:n=300 --gpus $g; done
for g in 2 4; do bench g$g-rmat24-nnz-halo --gen rmat:scale=24,edge_factor=16 --gpus $g; done
for g in 2 4; do bench g$g-lposa60x150-nnz-halo .device-data/osa/lp_osa_60.mtx.gz --copies 150 --gpus $g; done
for g in 2 4; do bench g$g-uniform16M-nnz-halo --gen uniform:rows=16000000,cols=16000000,per_row=16 --gpus $g; done
