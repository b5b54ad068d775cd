S150=stencil27:n=150
bench g2-s150-nccl --gen $S150 --gpus 2 --nccl
bench g2-s150-pull --gen $S150 --gpus 2
bench g2-rmat22-nccl --gen rmat:scale=22,edge_factor=16 --gpus 2 --nccl
bench g2-rmat22-pull --gen rmat:scale=22,edge_factor=16 --gpus 2
bench g2-s150-nccl-allgather --gen $S150 --gpus 2 --nccl --exchange allgather
bench g2-s150-pull-allgather --gen $S150 --gpus 2 --exchange allgather
