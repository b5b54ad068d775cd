// Internal: the measure mode's cache of measured choices (FFTW's "wisdom"): one
// JSON line per (matrix fingerprint, device, library version, value type,
// expected products), appended under an exclusive file lock so that
// concurrent writers never interleave; unreadable lines are skipped and
// counted, never trusted.
#pragma once

#include <optional>
#include <string>

#include "spmv/matrix.hpp"
#include "spmv/operator.hpp"
#include "spmv/stats.hpp"

namespace spmv::detail {

struct CachedChoice {
  Backend backend = Backend::cuda;
  std::string kernel;
  double product_seconds = 0;
  double setup_seconds = 0;
};

// PlanOptions::plan_cache, else $SPMV_PLAN_CACHE, else
// $XDG_CACHE_HOME/spmv/plans.jsonl, else $HOME/.cache/spmv/plans.jsonl;
// empty when none of them is set.
std::string plan_cache_path(const PlanOptions& options);

// What a cached choice is valid for. The fingerprint hashes the sizes, every
// row pointer and a strided sample of the column indices: two matrices that
// collide get each other's kernel, which is correct but maybe slower.
template <class T>
std::string plan_cache_key(const Csr<T>& a, const DeviceProperties& device, double expected_products);
// The same from a fingerprint of a matrix on the device: a hash of what its
// analysis copied back (analyse_on_device), so that planning it copies
// nothing more; its keys differ from those of the same matrix on the host.
std::string plan_cache_key(std::uint64_t device_fingerprint, const MatrixStats& stats, std::size_t value_bytes,
                           const DeviceProperties& device, double expected_products);

class PlanCache {
 public:
  explicit PlanCache(std::string path) : path_(std::move(path)) {}

  // The last choice stored under `key`; nullopt when none or the file is
  // missing. Lines that do not parse are counted in corrupt_lines().
  std::optional<CachedChoice> find(const std::string& key);
  // Appends one line (creating the file and its folder). Throws Error when
  // the file cannot be written.
  void store(const std::string& key, const CachedChoice& choice);

  const std::string& path() const { return path_; }
  int corrupt_lines() const { return corrupt_lines_; }

 private:
  std::string path_;
  int corrupt_lines_ = 0;
};

}  // namespace spmv::detail
