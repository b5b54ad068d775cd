#include "cuda/nccl_communicators.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <string>

#include "cuda/device_scope.hpp"
#include "spmv/error.hpp"

namespace spmv::detail {

namespace {

// NCCL's entry points (nccl.h's signatures; ncclResult_t is an int, 0 for success).
struct NcclApi {
  int (*comm_init_all)(NcclComm* comms, int count, const int* devices) = nullptr;
  int (*get_unique_id)(NcclUniqueId* id) = nullptr;
  // ncclUniqueId is passed by value: a struct of 128 bytes.
  int (*comm_init_rank)(NcclComm* comm, int ranks, NcclUniqueId id, int rank) = nullptr;
  int (*comm_destroy)(NcclComm comm) = nullptr;
  int (*group_start)() = nullptr;
  int (*group_end)() = nullptr;
  int (*send)(const void* data, std::size_t count, int type, int peer, NcclComm comm, cudaStream_t stream) = nullptr;
  int (*receive)(void* data, std::size_t count, int type, int peer, NcclComm comm, cudaStream_t stream) = nullptr;
  const char* (*error_string)(int result) = nullptr;
  std::string load_error;  // empty once every entry point is found
};

template <class Function>
bool look_up(void* library, const char* name, Function& function, std::string& error) {
  function = reinterpret_cast<Function>(dlsym(library, name));
  if (function == nullptr) error = std::string("libnccl.so.2 has no ") + name;
  return function != nullptr;
}

const NcclApi& nccl_api() {
  static NcclApi api;
  static std::once_flag loaded;
  std::call_once(loaded, [] {
    void* library = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
      const char* error = dlerror();
      api.load_error = std::string("NCCL could not be loaded: ") + (error ? error : "libnccl.so.2 not found");
      return;
    }
    std::string& e = api.load_error;
    (void)(look_up(library, "ncclCommInitAll", api.comm_init_all, e) &&
           look_up(library, "ncclGetUniqueId", api.get_unique_id, e) &&
           look_up(library, "ncclCommInitRank", api.comm_init_rank, e) &&
           look_up(library, "ncclCommDestroy", api.comm_destroy, e) &&
           look_up(library, "ncclGroupStart", api.group_start, e) &&
           look_up(library, "ncclGroupEnd", api.group_end, e) && look_up(library, "ncclSend", api.send, e) &&
           look_up(library, "ncclRecv", api.receive, e) && look_up(library, "ncclGetErrorString", api.error_string, e));
  });
  return api;
}

const NcclApi& loaded_nccl() {
  const NcclApi& api = nccl_api();
  if (!api.load_error.empty()) throw Unavailable(api.load_error);
  return api;
}

void check_nccl(int result, const char* what) {
  if (result != 0)
    throw DeviceError(std::string(what) + " failed: " + loaded_nccl().error_string(result) + " (NCCL error " +
                      std::to_string(result) + ")");
}

}  // namespace

NcclCommunicators::NcclCommunicators(const std::vector<int>& devices) : comms_(devices.size(), nullptr) {
  std::vector<int> sorted = devices;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    throw InvalidArgument("the NCCL transport needs one part per device: a device holds two parts");
  const NcclApi& api = loaded_nccl();
  setenv("NCCL_NVLS_ENABLE", "0", /*overwrite=*/0);
  const DeviceScope restored(devices.empty() ? 0 : devices.front());  // ncclCommInitAll sets devices in turn
  check_nccl(api.comm_init_all(comms_.data(), static_cast<int>(devices.size()), devices.data()), "ncclCommInitAll");
}

NcclCommunicators::NcclCommunicators(int device, int rank, int ranks, const NcclUniqueId& id) : comms_(1, nullptr) {
  const NcclApi& api = loaded_nccl();
  setenv("NCCL_NVLS_ENABLE", "0", /*overwrite=*/0);
  const DeviceScope on_device(device);  // the communicator's device is the current one
  check_nccl(api.comm_init_rank(&comms_[0], ranks, id, rank), "ncclCommInitRank");
}

NcclUniqueId NcclCommunicators::new_unique_id() {
  const NcclApi& api = loaded_nccl();
  setenv("NCCL_NVLS_ENABLE", "0", /*overwrite=*/0);
  NcclUniqueId id{};
  check_nccl(api.get_unique_id(&id), "ncclGetUniqueId");
  return id;
}

NcclCommunicators::~NcclCommunicators() {
  const NcclApi& api = nccl_api();
  for (NcclComm comm : comms_)
    if (comm != nullptr) api.comm_destroy(comm);
}

void NcclCommunicators::group_start() { check_nccl(loaded_nccl().group_start(), "ncclGroupStart"); }
void NcclCommunicators::group_end() { check_nccl(loaded_nccl().group_end(), "ncclGroupEnd"); }

void NcclCommunicators::send(int rank, const void* data, std::size_t count, NcclDataType type, int to,
                             cudaStream_t stream) {
  check_nccl(loaded_nccl().send(data, count, type, to, comms_.at(rank), stream), "ncclSend");
}

void NcclCommunicators::receive(int rank, void* data, std::size_t count, NcclDataType type, int from,
                                cudaStream_t stream) {
  check_nccl(loaded_nccl().receive(data, count, type, from, comms_.at(rank), stream), "ncclRecv");
}

}  // namespace spmv::detail
