"""spmv: sparse matrix-vector and matrix-matrix products on NVIDIA GPUs (and the host).

    import spmv, scipy.sparse, numpy
    op = spmv.plan(scipy.sparse.random(1000, 1000, 0.01, format="csr"))
    y = op @ numpy.ones(1000)

See python/README.md.
"""

from ._spmv import Plan, __version__, cuda_available, kernels, version_text
from ._matrices import generate, generator_kinds, read_libsvm, read_matrix
from ._operator import Operator, make_operator, make_plan, plan

__all__ = ["Operator", "Plan", "__version__", "cuda_available", "generate", "generator_kinds", "kernels",
           "make_operator", "make_plan", "plan", "read_libsvm", "read_matrix", "version_text"]
