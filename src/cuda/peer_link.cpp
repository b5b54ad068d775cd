// Peer access between devices and the measured links of the exchange model
// (distributed.hpp), timed on the host clock from enqueue to the end of the
// receivers' synchronisation, as the distributed operator's exchange() sees
// it: every device of the exchange receives at once, each from the next
// (both directions of a link busy, as in a halo exchange). The latency is
// one small message into each device through the exchange's own steps:
// with peer access, the receiver's stream gathers a few entries from the
// sender's x (pull); without, the sender packs them on its stream, records
// an event, the receiver's stream waits for it and copies them over (push).
// Replayed as captured graphs when the operator replays its steps.
#include "cuda/peer_link.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <numeric>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cuda/cuda_check.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/device_scope.hpp"
#include "cuda/non_blocking_stream.hpp"
#include "cuda/ordering_event.hpp"
#include "cuda/permute_vectors.hpp"
#include "cuda/replayed_steps.hpp"
#include "spmv/error.hpp"

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

namespace {

// The buffers and streams of one message of the probe: into `receiver`'s
// memory from `sender`'s.
struct ProbeLeg {
  int receiver = 0, sender = 0;
  DeviceBuffer<double> x, packed;  // on the sender: its x, its send buffer (push)
  DeviceBuffer<index_t> columns;   // on the device that gathers: the receiver (pull) or the sender
  DeviceBuffer<char> source;       // on the sender: the large message
  DeviceBuffer<index_t> in_order;  // on the receiver (pull): the large message's gather list
  DeviceBuffer<double> ghosts;     // on the receiver
  DeviceBuffer<char> target;       // on the receiver
  std::unique_ptr<NonBlockingStream> stream, sender_stream;  // on the receiver, on the sender
  std::unique_ptr<OrderingEvent> packed_event;
};

constexpr std::size_t probe_large_bytes = std::size_t(64) << 20;
const std::vector<index_t> probe_message_entries{0, 2, 4, 6, 8, 10, 12, 14};  // a few x entries, packed

std::unique_ptr<ProbeLeg> make_probe_leg(int receiver, int sender, bool pull) {
  auto leg = std::make_unique<ProbeLeg>();
  leg->receiver = receiver;
  leg->sender = sender;
  const auto message = probe_message_entries.size();
  {
    const DeviceScope on_sender(sender);
    leg->x = DeviceBuffer<double>(std::vector<double>(2 * message, 1.0), "link probe x");
    leg->packed = DeviceBuffer<double>(message, "link probe send buffer");
    if (!pull) leg->columns = DeviceBuffer<index_t>(probe_message_entries, "link probe send list");
    leg->source = DeviceBuffer<char>(probe_large_bytes, "link probe source");
    leg->source.set_zero();  // copied: written first
    leg->sender_stream = std::make_unique<NonBlockingStream>();
    leg->packed_event = std::make_unique<OrderingEvent>();
  }
  const DeviceScope on_receiver(receiver);
  if (pull) {
    leg->columns = DeviceBuffer<index_t>(probe_message_entries, "link probe ghost sources");
    std::vector<index_t> all(probe_large_bytes / sizeof(double));
    std::iota(all.begin(), all.end(), index_t{0});
    leg->in_order = DeviceBuffer<index_t>(all, "link probe large gather list");
  }
  leg->ghosts = DeviceBuffer<double>(message, "link probe ghosts");
  leg->target = DeviceBuffer<char>(probe_large_bytes, "link probe target");
  leg->stream = std::make_unique<NonBlockingStream>();
  return leg;
}

// One small message into the leg's receiver, queued as the operator queues
// its exchange: pull, the receiver's stream gathers from the sender's x;
// push, the sender packs, records an event, the receiver's stream waits for
// it and copies the pack over.
void queue_small_message(ProbeLeg& leg, bool pull) {
  const auto message = static_cast<index_t>(probe_message_entries.size());
  const DeviceScope on_receiver(leg.receiver);
  if (pull) {
    gather_rows(leg.columns.data(), message, 1, Layout::row_major, leg.x.data(), leg.ghosts.data(), leg.stream->get());
    return;
  }
  {
    const DeviceScope on_sender(leg.sender);
    gather_rows(leg.columns.data(), message, 1, Layout::row_major, leg.x.data(), leg.packed.data(),
                leg.sender_stream->get());
    SPMV_CUDA_CHECK(cudaEventRecord(leg.packed_event->get(), leg.sender_stream->get()));
  }
  SPMV_CUDA_CHECK(cudaStreamWaitEvent(leg.stream->get(), leg.packed_event->get(), 0));
  SPMV_CUDA_CHECK(cudaMemcpyAsync(leg.ghosts.data(), leg.packed.data(), message * sizeof(double), cudaMemcpyDefault,
                                  leg.stream->get()));
}

// The large message: what moves the bulk of the entries, the receiver's
// gather kernel reading the sender's memory (pull; entries in order, as a
// send list is sorted) or the copy engine (push).
void queue_large_message(ProbeLeg& leg, bool pull) {
  const DeviceScope on_receiver(leg.receiver);
  if (pull)
    gather_rows(leg.in_order.data(), static_cast<index_t>(leg.in_order.size()), 1, Layout::row_major,
                reinterpret_cast<const double*>(leg.source.data()), reinterpret_cast<double*>(leg.target.data()),
                leg.stream->get());
  else
    SPMV_CUDA_CHECK(cudaMemcpyPeerAsync(leg.target.data(), leg.receiver, leg.source.data(), leg.sender,
                                        probe_large_bytes, leg.stream->get()));
}

}  // namespace

ExchangeLink measure_device_links(const std::vector<int>& devices, bool replay_graphs, bool pull_from_peers) {
  if (devices.empty()) throw InvalidArgument("measure_exchange_link: no devices to measure");
  for (std::size_t i = 0; i < devices.size(); ++i) {
    check_device_ordinal(devices[i]);
    if (std::find(devices.begin(), devices.begin() + i, devices[i]) != devices.begin() + i)
      throw InvalidArgument("measure_exchange_link: device " + std::to_string(devices[i]) + " is listed twice");
  }
  const std::size_t count = devices.size();
  const auto sender_of = [&](std::size_t i) { return devices[(i + 1) % count]; };
  bool pull = pull_from_peers;
  for (std::size_t i = 0; i < count; ++i) {
    enable_peer_access(devices[i], sender_of(i));
    enable_peer_access(sender_of(i), devices[i]);
    pull = pull && reads_peer_memory(devices[i], sender_of(i)) && reads_peer_memory(sender_of(i), devices[i]);
  }
  std::vector<std::unique_ptr<ProbeLeg>> legs;
  for (std::size_t i = 0; i < count; ++i) legs.push_back(make_probe_leg(devices[i], sender_of(i), pull));
  // As in the operator: pulled, one graph per receiving device, launched
  // together and waited for after; pushed, one graph over every stream.
  std::vector<std::unique_ptr<ReplayedSteps>> steps;
  if (pull) {
    for (const auto& leg : legs)
      steps.push_back(std::make_unique<ReplayedSteps>(std::vector<StreamOnDevice>{{leg->stream->get(), leg->receiver}},
                                                      replay_graphs));
  } else {
    std::vector<StreamOnDevice> streams;
    for (const auto& leg : legs) streams.push_back({leg->stream->get(), leg->receiver});
    for (const auto& leg : legs) streams.push_back({leg->sender_stream->get(), leg->sender});
    steps.push_back(std::make_unique<ReplayedSteps>(std::move(streams), replay_graphs));
  }
  // `messages` small messages into each device (a graph per count).
  const auto send_small_messages = [&](int messages) {
    const auto queue = [&](ProbeLeg& leg) {
      for (int m = 0; m < messages; ++m) queue_small_message(leg, pull);
    };
    if (pull)
      for (std::size_t i = 0; i < count; ++i) steps[i]->launch({messages, 0, 0.0, 0.0}, 0, [&] { queue(*legs[i]); });
    else
      steps[0]->launch({messages, 0, 0.0, 0.0}, 0, [&] {
        for (auto& leg : legs) queue(*leg);
      });
    for (const auto& s : steps) s->synchronize();
  };
  const auto send_large_messages = [&] {
    for (auto& leg : legs) queue_large_message(*leg, pull);
    for (const auto& leg : legs) leg->stream->synchronize();
  };
  ExchangeLink link;
  link.latency_seconds = median_seconds(20, 101, [&] { send_small_messages(1); });
  link.message_seconds = std::max(0.0, median_seconds(20, 101, [&] { send_small_messages(2); }) - link.latency_seconds);
  link.bandwidth_gbs = probe_large_bytes / median_seconds(2, 11, send_large_messages) * 1e-9;
  return link;
}

}  // namespace spmv::detail
