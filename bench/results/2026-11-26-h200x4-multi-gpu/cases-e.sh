S150=stencil27:n=150
bench g2-s150-nnz-halo --gen $S150 --gpus 2
bench g2-s150-rows-halo --gen $S150 --gpus 2 --partition rows
bench g2-s150-graph-halo --gen $S150 --gpus 2 --partition graph
bench g4-s150-nnz-halo --gen $S150 --gpus 4
bench g2-s150x300-nnz-halo --gen stencil27:nx=150,ny=150,nz=300 --gpus 2
bench g4-lposa60x150-nnz-halo .device-data/osa/lp_osa_60.mtx.gz --copies 150 --gpus 4
bench g2-rmat24-nnz-halo --gen rmat:scale=24,edge_factor=16 --gpus 2
