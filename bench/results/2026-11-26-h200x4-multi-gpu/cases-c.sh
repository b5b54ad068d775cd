S150=stencil27:n=150
for g in 2 4; do
  bench g$g-s150-nnz-halo --gen $S150 --gpus $g
  bench g$g-s150-nnz-halo-push --gen $S150 --gpus $g --push
  bench g$g-s150-nnz-halo-nographs --gen $S150 --gpus $g --no-graphs
  bench g$g-s150-rows-halo --gen $S150 --gpus $g --partition rows
  bench g$g-s150-graph-halo --gen $S150 --gpus $g --partition graph
  bench g$g-s150-nnz-halo-nooverlap --gen $S150 --gpus $g --no-overlap
  bench g$g-s150-nnz-allgather --gen $S150 --gpus $g --exchange allgather
done
bench g1-s150-2parts --gen $S150 --parts 2
bench g1-s150-4parts --gen $S150 --parts 4
bench g2-s150x300-nnz-halo --gen stencil27:nx=150,ny=150,nz=300 --gpus 2
bench g4-s150x600-nnz-halo --gen stencil27:nx=150,ny=150,nz=600 --gpus 4
