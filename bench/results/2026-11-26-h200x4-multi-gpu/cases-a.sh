S150=stencil27:n=150
bench g2-s150-nnz-halo --gen $S150 --gpus 2
bench g2-s150-nnz-halo-nographs --gen $S150 --gpus 2 --no-graphs
bench g4-s150-nnz-halo --gen $S150 --gpus 4
bench g4-s150-nnz-halo-nographs --gen $S150 --gpus 4 --no-graphs
bench g2-s150-rows-halo --gen $S150 --gpus 2 --partition rows
bench g2-s150-nnz-halo-nooverlap --gen $S150 --gpus 2 --no-overlap
bench g2-s150-nnz-allgather --gen $S150 --gpus 2 --exchange allgather
bench g2-s150-graph-halo --gen $S150 --gpus 2 --partition graph
bench g1-s150-2parts --gen $S150 --parts 2
bench g2-s150x300-nnz-halo --gen stencil27:nx=150,ny=150,nz=300 --gpus 2
bench g4-s150x600-nnz-halo --gen stencil27:nx=150,ny=150,nz=600 --gpus 4
bench g4-s150-nnz-allgather --gen $S150 --gpus 4 --exchange allgather
bench g4-s150-rows-halo --gen $S150 --gpus 4 --partition rows
bench g4-s150-graph-halo --gen $S150 --gpus 4 --partition graph
