// Internal: what both MPI operators (spmv/mpi.hpp) need of MPI.
#pragma once

#include <mpi.h>

#include <string>

#include "spmv/distributed.hpp"
#include "spmv/error.hpp"

namespace spmv::detail {

template <class T>
MPI_Datatype mpi_type() {
  return sizeof(T) == 4 ? MPI_FLOAT : MPI_DOUBLE;
}

inline void check_mpi(int status, const char* call) {
  if (status != MPI_SUCCESS) throw Error(std::string("MPI call failed: ") + call);
}

// This process's rank in `comm`, after checking that `partition` has one
// part per rank (`who` names the operator in the error).
inline int rank_of_part(const Partition& partition, MPI_Comm comm, const char* who) {
  int rank = 0, size = 0;
  check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  if (partition.parts() != size)
    throw InvalidArgument(std::string(who) + ": the partition has " + std::to_string(partition.parts()) +
                          " parts for a communicator of " + std::to_string(size) + " ranks (one part per rank)");
  return rank;
}

}  // namespace spmv::detail
