// Peer access between devices and the measured link of the exchange model
// (distributed.hpp), timed on the host clock from enqueue to the end of the
// receiver's synchronisation, as the distributed operator's exchange() sees
// it. The latency is one small message through the exchange's own steps: the
// sender packs a few entries on its stream (gather_rows), records an event,
// the receiver's stream waits for it and copies them over.
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

ExchangeLink measure_device_link(int from_device, int to_device) {
  check_device_ordinal(from_device);
  check_device_ordinal(to_device);
  enable_peer_access(to_device, from_device);
  enable_peer_access(from_device, to_device);
  constexpr std::size_t large_bytes = std::size_t(64) << 20;
  const std::vector<index_t> message_entries{0, 2, 4, 6, 8, 10, 12, 14};  // a few x entries, packed
  const index_t message = static_cast<index_t>(message_entries.size());
  DeviceBuffer<double> x, packed;
  DeviceBuffer<index_t> columns;
  DeviceBuffer<char> source;
  std::unique_ptr<NonBlockingStream> sender_stream;
  std::unique_ptr<OrderingEvent> packed_event;
  {
    const DeviceScope on_device(from_device);
    x = DeviceBuffer<double>(std::vector<double>(2 * message, 1.0), "link probe x");
    packed = DeviceBuffer<double>(message, "link probe send buffer");
    columns = DeviceBuffer<index_t>(message_entries, "link probe send list");
    source = DeviceBuffer<char>(large_bytes, "link probe source");
    SPMV_CUDA_CHECK(cudaMemset(source.data(), 0, large_bytes));  // copied: written first
    sender_stream = std::make_unique<NonBlockingStream>();
    packed_event = std::make_unique<OrderingEvent>();
  }
  const DeviceScope on_device(to_device);  // the receiver's stream copies, as in the operator
  DeviceBuffer<double> ghosts(message, "link probe ghosts");
  DeviceBuffer<char> target(large_bytes, "link probe target");
  const NonBlockingStream stream;
  const auto send_message = [&] {
    {
      const DeviceScope on_sender(from_device);
      gather_rows(columns.data(), message, 1, Layout::row_major, x.data(), packed.data(), sender_stream->get());
      SPMV_CUDA_CHECK(cudaEventRecord(packed_event->get(), sender_stream->get()));
    }
    SPMV_CUDA_CHECK(cudaStreamWaitEvent(stream.get(), packed_event->get(), 0));
    SPMV_CUDA_CHECK(cudaMemcpyPeerAsync(ghosts.data(), to_device, packed.data(), from_device,
                                        message * sizeof(double), stream.get()));
    stream.synchronize();
  };
  const auto copy_large = [&] {
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
