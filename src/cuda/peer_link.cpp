// Peer access between devices and the measured link of the exchange model
// (distributed.hpp), timed on the host clock from enqueue to the end of the
// receiver's synchronisation, as the distributed operator's exchange() sees
// it. The latency is one small message through the exchange's own steps:
// with peer access, the receiver's stream gathers a few entries from the
// sender's x (pull); without, the sender packs them on its stream, records
// an event, the receiver's stream waits for it and copies them over (push).
// Replayed as a captured graph when the operator replays its steps.
#include "cuda/peer_link.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

#include "cuda/cuda_check.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/device_scope.hpp"
#include "cuda/non_blocking_stream.hpp"
#include "cuda/ordering_event.hpp"
#include "cuda/permute_vectors.hpp"
#include "cuda/replayed_steps.hpp"

namespace spmv::detail {

void enable_peer_access(int device, int peer) {
  if (device == peer) return;
  // Enabled once per process and pair: enabling again is an API error that
  // compute-sanitizer reports, harmless as it is.
  static std::mutex lock;
  static std::set<std::pair<int, int>> enabled;
  const std::lock_guard<std::mutex> hold(lock);
  if (enabled.count({device, peer})) return;
  int possible = 0;
  SPMV_CUDA_CHECK(cudaDeviceCanAccessPeer(&possible, device, peer));
  if (possible) {  // elsewhere cudaMemcpyPeerAsync goes through the host
    const DeviceScope on_device(device);
    const cudaError_t status = cudaDeviceEnablePeerAccess(peer, 0);
    if (status == cudaErrorPeerAccessAlreadyEnabled)
      cudaGetLastError();  // enabled by the caller: takes the error off the thread's last error
    else
      SPMV_CUDA_CHECK(status);
  }
  enabled.insert({device, peer});
}

namespace {

double median_seconds(int warmup, int runs, const std::function<void()>& step) {
  for (int i = 0; i < warmup; ++i) step();
  std::vector<double> seconds;
  for (int i = 0; i < runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    step();
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::nth_element(seconds.begin(), seconds.begin() + runs / 2, seconds.end());
  return seconds[runs / 2];
}

}  // namespace

bool reads_peer_memory(int device, int peer) {
  if (device == peer) return true;
  int possible = 0;
  SPMV_CUDA_CHECK(cudaDeviceCanAccessPeer(&possible, device, peer));
  return possible != 0;
}

ExchangeLink measure_device_link(int from_device, int to_device, bool replay_graphs, bool pull_from_peers) {
  check_device_ordinal(from_device);
  check_device_ordinal(to_device);
  enable_peer_access(to_device, from_device);
  enable_peer_access(from_device, to_device);
  const bool pull =
      pull_from_peers && reads_peer_memory(to_device, from_device) && reads_peer_memory(from_device, to_device);
  constexpr std::size_t large_bytes = std::size_t(64) << 20;
  const std::vector<index_t> message_entries{0, 2, 4, 6, 8, 10, 12, 14};  // a few x entries, packed
  const index_t message = static_cast<index_t>(message_entries.size());
  DeviceBuffer<double> x, packed;
  DeviceBuffer<index_t> columns;  // on the device that gathers: the receiver (pull) or the sender
  DeviceBuffer<char> source;
  std::unique_ptr<NonBlockingStream> sender_stream;
  std::unique_ptr<OrderingEvent> packed_event;
  {
    const DeviceScope on_device(from_device);
    x = DeviceBuffer<double>(std::vector<double>(2 * message, 1.0), "link probe x");
    packed = DeviceBuffer<double>(message, "link probe send buffer");
    if (!pull) columns = DeviceBuffer<index_t>(message_entries, "link probe send list");
    source = DeviceBuffer<char>(large_bytes, "link probe source");
    SPMV_CUDA_CHECK(cudaMemset(source.data(), 0, large_bytes));  // copied: written first
    sender_stream = std::make_unique<NonBlockingStream>();
    packed_event = std::make_unique<OrderingEvent>();
  }
  const DeviceScope on_device(to_device);  // the receiver's stream gathers or copies, as in the operator
  if (pull) columns = DeviceBuffer<index_t>(message_entries, "link probe ghost sources");
  DeviceBuffer<double> ghosts(message, "link probe ghosts");
  DeviceBuffer<char> target(large_bytes, "link probe target");
  const NonBlockingStream stream;
  // Pull: the receiver reads the entries from the sender's x. Push: the
  // sender packs them and the receiver copies the pack over.
  ReplayedSteps message_steps(pull ? std::vector<StreamOnDevice>{{stream.get(), to_device}}
                                   : std::vector<StreamOnDevice>{{stream.get(), to_device},
                                                                 {sender_stream->get(), from_device}},
                              replay_graphs);
  const auto send_message = [&] {
    message_steps.launch({0, 0, 0.0, 0.0}, 0, [&] {
      if (pull) {
        gather_rows(columns.data(), message, 1, Layout::row_major, x.data(), ghosts.data(), stream.get());
        return;
      }
      {
        const DeviceScope on_sender(from_device);
        gather_rows(columns.data(), message, 1, Layout::row_major, x.data(), packed.data(), sender_stream->get());
        SPMV_CUDA_CHECK(cudaEventRecord(packed_event->get(), sender_stream->get()));
      }
      SPMV_CUDA_CHECK(cudaStreamWaitEvent(stream.get(), packed_event->get(), 0));
      SPMV_CUDA_CHECK(
          cudaMemcpyAsync(ghosts.data(), packed.data(), message * sizeof(double), cudaMemcpyDefault, stream.get()));
    });
    message_steps.synchronize();
  };
  // The bandwidth of what moves the bulk of the entries: the receiver's
  // gather kernel reading the sender's memory (pull; entries in order, as a
  // send list is sorted) or the copy engine (push).
  const index_t large_entries = static_cast<index_t>(large_bytes / sizeof(double));
  DeviceBuffer<index_t> in_order;
  if (pull) {
    std::vector<index_t> all(static_cast<std::size_t>(large_entries));
    for (index_t i = 0; i < large_entries; ++i) all[i] = i;
    in_order = DeviceBuffer<index_t>(all, "link probe large gather list");
  }
  const auto copy_large = [&] {
    if (pull)
      gather_rows(in_order.data(), large_entries, 1, Layout::row_major, reinterpret_cast<const double*>(source.data()),
                  reinterpret_cast<double*>(target.data()), stream.get());
    else
      SPMV_CUDA_CHECK(
          cudaMemcpyPeerAsync(target.data(), to_device, source.data(), from_device, large_bytes, stream.get()));
    stream.synchronize();
  };
  ExchangeLink link;
  link.latency_seconds = median_seconds(20, 101, send_message);
  link.bandwidth_gbs = large_bytes / median_seconds(2, 11, copy_large) * 1e-9;
  return link;
}

}  // namespace spmv::detail
