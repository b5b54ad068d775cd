#include "cuda/replayed_steps.hpp"

#include "cuda/cuda_check.hpp"
#include "cuda/device_scope.hpp"
#include "spmv/error.hpp"

namespace spmv::detail {

ReplayedSteps::ReplayedSteps(std::vector<StreamOnDevice> streams, bool replay)
    : streams_(std::move(streams)), replay_(replay) {
  for (const StreamOnDevice& s : streams_) {
    const DeviceScope on_device(s.device);
    events_.push_back(std::make_unique<OrderingEvent>());
  }
}

ReplayedSteps::~ReplayedSteps() {
  for (auto& [key, slot] : slots_)
    if (slot.graph) cudaGraphExecDestroy(slot.graph);
}

void ReplayedSteps::launch(const Key& key, std::size_t origin, const std::function<void()>& queue) {
  // Scalars that change from call to call (a solver's step lengths) would
  // add a slot each and never repeat: beyond a few keys, queue directly.
  constexpr std::size_t most_keys = 16;
  if (!slots_.count(key) && slots_.size() >= most_keys) {
    last_replayed_ = false;
    last_refusal_.clear();
    last_origin_ = origin;
    queue();
    return;
  }
  Slot& slot = slots_[key];
  if (replay_ && !slot.direct_only && !slot.graph && slot.runs > 0) {
    slot.graph = capture(origin, queue, slot.refusal);
    slot.direct_only = slot.graph == nullptr;
  }
  ++slot.runs;
  last_replayed_ = slot.graph != nullptr;
  last_refusal_ = slot.refusal;
  last_origin_ = origin;
  if (!slot.graph) {
    queue();
    return;
  }
  const StreamOnDevice& start = streams_.at(origin);
  const DeviceScope on_device(start.device);
  SPMV_CUDA_CHECK(cudaGraphLaunch(slot.graph, start.stream));
}

// A graph ends on its origin; steps queued one by one may end on any stream.
void ReplayedSteps::synchronize() const {
  for (std::size_t i = 0; i < streams_.size(); ++i) {
    if (last_replayed_ && i != last_origin_) continue;
    const DeviceScope on_device(streams_[i].device);
    SPMV_CUDA_CHECK(cudaStreamSynchronize(streams_[i].stream));
  }
}

// The origin forks to every other stream, the steps are queued, every other
// stream joins the origin again.
void ReplayedSteps::queue_joined(std::size_t origin, const std::function<void()>& queue) {
  const StreamOnDevice& start = streams_[origin];
  {
    const DeviceScope on_device(start.device);
    SPMV_CUDA_CHECK(cudaEventRecord(events_[origin]->get(), start.stream));
  }
  for (std::size_t i = 0; i < streams_.size(); ++i) {
    if (i == origin) continue;
    const DeviceScope on_device(streams_[i].device);
    SPMV_CUDA_CHECK(cudaStreamWaitEvent(streams_[i].stream, events_[origin]->get(), 0));
  }
  queue();
  for (std::size_t i = 0; i < streams_.size(); ++i) {
    if (i == origin) continue;
    {
      const DeviceScope on_device(streams_[i].device);
      SPMV_CUDA_CHECK(cudaEventRecord(events_[i]->get(), streams_[i].stream));
    }
    const DeviceScope on_device(start.device);
    SPMV_CUDA_CHECK(cudaStreamWaitEvent(start.stream, events_[i]->get(), 0));
  }
}

cudaGraphExec_t ReplayedSteps::capture(std::size_t origin, const std::function<void()>& queue,
                                       std::string& refusal) {
  const StreamOnDevice& start = streams_.at(origin);
  const DeviceScope on_device(start.device);
  SPMV_CUDA_CHECK(cudaStreamBeginCapture(start.stream, cudaStreamCaptureModeThreadLocal));
  try {
    queue_joined(origin, queue);
  } catch (const DeviceError& error) {  // a step that cannot be captured: queued directly from now on
    refusal = error.what();
  }
  cudaGraph_t graph = nullptr;
  const cudaError_t ended = cudaStreamEndCapture(start.stream, &graph);
  if (refusal.empty() && ended != cudaSuccess)
    refusal = std::string("cudaStreamEndCapture: ") + cudaGetErrorString(ended);
  cudaGraphExec_t exec = nullptr;
  if (refusal.empty() && graph) {
    // Each kernel keeps the priority of the stream it was captured from.
    const cudaError_t instantiated = cudaGraphInstantiate(&exec, graph, cudaGraphInstantiateFlagUseNodePriority);
    if (instantiated != cudaSuccess) {
      refusal = std::string("cudaGraphInstantiate: ") + cudaGetErrorString(instantiated);
      exec = nullptr;
    }
  }
  if (graph) cudaGraphDestroy(graph);
  if (!exec) cudaGetLastError();  // the refused capture's error is not the caller's
  return exec;
}

}  // namespace spmv::detail
