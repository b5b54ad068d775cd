// Internal: direct copies between devices (peer access) and the link the
// exchange model reads (measure_exchange_link in distributed.hpp).
#pragma once

#include <vector>

#include "spmv/distributed.hpp"

namespace spmv::detail {

// Lets `device` reach `peer`'s memory directly where the pair allows it
// (NVLink or PCIe peer-to-peer); elsewhere peer copies go through the host.
// Enabling twice is harmless.
void enable_peer_access(int device, int peer);
// Whether kernels on `device` can read `peer`'s memory (the same device, or
// peer access): the distributed operator's parts then pull their ghosts.
bool reads_peer_memory(int device, int peer);

ExchangeLink measure_device_links(const std::vector<int>& devices, bool replay_graphs, bool pull_from_peers);

}  // namespace spmv::detail
