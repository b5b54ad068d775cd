// Internal: steps queued on several streams, of one device or several,
// captured once into a CUDA graph and replayed from then on. A replay is one
// host call where queuing the steps one by one is one per kernel, copy and
// event: for the distributed operator on two GPUs those host calls, made
// one after the other by one thread, took longer than the exchange they
// queue (docs/benchmarks.md, "Distributed SpMV on two GPUs").
//
// The first run of a key queues the steps directly (the operators' first
// products may still allocate or synchronise, which a capture refuses); the
// second captures them: the origin stream records an event that every other
// stream waits for, the steps are queued, every other stream records its
// event and the origin waits for them all, so that the graph starts and ends
// on the origin. A capture that fails (an operator whose product cannot be
// captured) leaves that key queued directly for good.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "cuda/ordering_event.hpp"

namespace spmv::detail {

struct StreamOnDevice {
  cudaStream_t stream;
  int device;
};

class ReplayedSteps {
 public:
  // Which steps: a kind chosen by the caller, a part, and the scalars the
  // steps were queued with (a graph holds its kernels' arguments).
  using Key = std::tuple<int, int, double, double>;

  // Every stream the steps may use; an event is made on each one's device.
  // replay = false: every run queues the steps directly.
  ReplayedSteps(std::vector<StreamOnDevice> streams, bool replay);
  ~ReplayedSteps();
  ReplayedSteps(const ReplayedSteps&) = delete;
  ReplayedSteps& operator=(const ReplayedSteps&) = delete;

  // Starts the steps `queue` puts on the streams, from streams[origin];
  // synchronize() waits for them. Several ReplayedSteps (one per device)
  // launch first and wait after, so that their devices work at once.
  void launch(const Key& key, std::size_t origin, const std::function<void()>& queue);
  void synchronize() const;
  // Whether the last launch() was a captured graph, and if it was to be but
  // its capture was refused, why (empty otherwise).
  bool last_replayed() const { return last_replayed_; }
  const std::string& last_refusal() const { return last_refusal_; }

 private:
  struct Slot {
    int runs = 0;
    bool direct_only = false;
    std::string refusal;
    cudaGraphExec_t graph = nullptr;
  };
  // The graph, or null with `refusal` set.
  cudaGraphExec_t capture(std::size_t origin, const std::function<void()>& queue, std::string& refusal);
  void queue_joined(std::size_t origin, const std::function<void()>& queue);

  std::vector<StreamOnDevice> streams_;
  std::vector<std::unique_ptr<OrderingEvent>> events_;  // events_[i] on streams_[i]'s device
  bool replay_;
  bool last_replayed_ = false;
  std::size_t last_origin_ = 0;
  std::string last_refusal_;
  std::map<Key, Slot> slots_;
};

}  // namespace spmv::detail
