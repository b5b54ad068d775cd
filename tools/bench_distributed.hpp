// `spmv bench --parts P`: the distributed operator (distributed.hpp) over P
// parts, each with its own plan, beside one part and (GPU runs) cuSPARSE on
// the whole matrix, all measured in the same run and verified first.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bench_report.hpp"
#include "spmv/distributed.hpp"

namespace spmv::cli {

struct DistributedBenchSettings {
  int parts = 1;
  PartitionMethod method = PartitionMethod::nonzeros;
  Exchange exchange = Exchange::halo;
  // The GPUs of the parts (part p on devices[p % size]); empty: every part
  // on one device (or the host).
  std::vector<int> devices;
  bool overlap = true;        // DistributedOptions::overlap
  bool replay_graphs = true;  // DistributedOptions::replay_graphs
  bool pull_from_peers = true;  // DistributedOptions::pull_from_peers
  bool nccl = false;            // DistributedOptions::nccl
  // Each part's link for the model's multi-GPU prediction (GB/s each way);
  // empty: that prediction is not made.
  std::optional<double> link_gbs;
};

// Times, prints the table (and returns the JSON document). `report` holds
// the matrix description, backend, precision and BenchSettings (runs,
// warm-up); its results receive the cuSPARSE rows.
nlohmann::ordered_json run_distributed_bench(BenchReport& report, const Csr<double>& a,
                                             const DistributedBenchSettings& settings, bool& failed);

}  // namespace spmv::cli
