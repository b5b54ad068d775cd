// NCCL, loaded at run time: the library is not linked (a build needs neither
// its headers nor its shared object; the machine that runs the GPUs has it),
// so the few entry points the distributed operator calls are declared here
// as NCCL's C API defines them and looked up in libnccl.so.2 on first use.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

namespace spmv::detail {

// NCCL's C types, as its API defines them (nccl.h).
using NcclComm = struct ncclComm*;
enum NcclDataType : int { nccl_float32 = 7, nccl_float64 = 8 };

template <class T>
constexpr NcclDataType nccl_type() {
  return sizeof(T) == 4 ? nccl_float32 : nccl_float64;
}

// ncclUniqueId: the bytes that name one communicator to every process
// joining it (NCCL_UNIQUE_ID_BYTES).
struct NcclUniqueId {
  char bytes[128];
};

// The communicators of one process, destroyed with the object: one per
// device of `devices` (distinct ordinals: rank i on devices[i]), made
// together by ncclCommInitAll; or this process's one rank of a communicator
// over several processes (ncclCommInitRank), which then holds it at index 0.
// Sets NCCL_NVLS_ENABLE=0 unless the environment sets it (the NVLink
// multicast path is not used on the machines we run on). Throws Unavailable
// when NCCL cannot be loaded, InvalidArgument for a device named twice,
// DeviceError for NCCL's failures.
class NcclCommunicators {
 public:
  explicit NcclCommunicators(const std::vector<int>& devices);
  NcclCommunicators(int device, int rank, int ranks, const NcclUniqueId& id);
  // A new id (ncclGetUniqueId), made by one process and handed to the others.
  static NcclUniqueId new_unique_id();
  ~NcclCommunicators();
  NcclCommunicators(const NcclCommunicators&) = delete;
  NcclCommunicators& operator=(const NcclCommunicators&) = delete;

  // Point-to-point sends and receives between ranks, queued on the streams
  // given, inside group(): every rank's calls of one exchange at once.
  // `rank` is the index of this process's communicator, `to` and `from` the
  // peers' ranks in the communicator.
  template <class Queue>
  void group(Queue queue) {
    group_start();
    try {
      queue();
    } catch (...) {
      group_end();
      throw;
    }
    group_end();
  }
  void send(int rank, const void* data, std::size_t count, NcclDataType type, int to, cudaStream_t stream);
  void receive(int rank, void* data, std::size_t count, NcclDataType type, int from, cudaStream_t stream);

 private:
  void group_start();
  void group_end();
  std::vector<NcclComm> comms_;
};

}  // namespace spmv::detail
