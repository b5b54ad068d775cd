// Internal: the memory micro-benchmarks of El Zein's thesis on today's GPU
// (chapter 4.1: coalesced and sequential reads, 4/8/16-byte loads, threads
// per block, the read-only cache against plain loads; figure 4.2's reads of
// rows of a given length; chapter 3.2's host-device copies). Device code in
// micro_reads.cu and micro_transfers.cu; no CUDA types here, so the tool's
// host code calls them directly. Every time is the median of the timed runs
// after one warm-up.
#pragma once

#include <cstddef>
#include <memory>

namespace spmv::detail::micro {

// Coalesced: block b reads "row" b, its threads reading consecutive vectors
// side by side. Sequential: every thread reads its own run of consecutive
// vectors, one after the other.
enum class ReadPattern { coalesced, sequential };
// Plain: ld.global.ca (the default caching). Read-only: ld.global.nc
// through the read-only (texture) cache, as __ldg.
enum class LoadPath { plain, read_only };

const char* to_string(ReadPattern pattern);
const char* to_string(LoadPath path);

struct ReadConfig {
  ReadPattern pattern = ReadPattern::coalesced;
  int load_bytes = 4;  // 4, 8 or 16: float, float2, float4
  int threads_per_block = 128;
  int floats_per_thread = 20;  // the thesis's workload: multiple of 4
  LoadPath path = LoadPath::plain;
};

struct Timing {
  double median_ms = 0;
  std::size_t bytes = 0;  // bytes read or copied
  long long blocks = 0;   // thread blocks launched (0 for copies)
  double gbs() const { return median_ms > 0 ? bytes / (median_ms * 1e-3) * 1e-9 : 0.0; }
};

// A device buffer of floats (all 1) that the read benchmarks stream through.
class ReadBench {
 public:
  explicit ReadBench(std::size_t bytes);
  ~ReadBench();
  ReadBench(const ReadBench&) = delete;
  ReadBench& operator=(const ReadBench&) = delete;

  // Reads as much of the buffer as whole blocks of `config` cover.
  Timing read(const ReadConfig& config, int runs);
  // Reads the buffer as rows of `row_floats` floats: one warp per row
  // (coalesced, 4-byte loads) or one thread per row (sequential, the widest
  // load that divides the row).
  Timing read_rows(ReadPattern pattern, int row_floats, int runs);

 private:
  struct Buffers;
  std::unique_ptr<Buffers> buffers_;
};

enum class CopyDirection { host_to_device, device_to_host };
const char* to_string(CopyDirection direction);

// cudaMemcpy of `bytes` between pageable (malloc'd) or page-locked host
// memory and the device, timed by the host clock around the whole call.
Timing host_copy(CopyDirection direction, bool page_locked, std::size_t bytes, int runs);

}  // namespace spmv::detail::micro
