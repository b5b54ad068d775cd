#include "core/plan_cache.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "spmv/error.hpp"

namespace spmv::detail {

namespace {

// FNV-1a over the bytes of `count` values.
template <class V>
void hash_values(std::uint64_t& hash, const V* values, std::size_t count, std::size_t stride = 1) {
  for (std::size_t i = 0; i < count; i += stride) {
    unsigned char bytes[sizeof(V)];
    std::memcpy(bytes, values + i, sizeof(V));
    for (unsigned char b : bytes) hash = (hash ^ b) * 0x100000001b3ull;
  }
}

// An open file descriptor holding a flock, released on scope exit.
class LockedFile {
 public:
  LockedFile(const std::string& path, int flags, int lock) : fd_(::open(path.c_str(), flags | O_CLOEXEC, 0644)) {
    if (fd_ >= 0 && ::flock(fd_, lock) != 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  ~LockedFile() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the lock
  }
  LockedFile(const LockedFile&) = delete;
  LockedFile& operator=(const LockedFile&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

std::string plan_cache_path(const PlanOptions& options) {
  if (!options.plan_cache.empty()) return options.plan_cache;
  if (const char* path = std::getenv("SPMV_PLAN_CACHE"); path && *path) return path;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::string(xdg) + "/spmv/plans.jsonl";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/spmv/plans.jsonl";
  return {};
}

namespace {

std::string key_of(const char* fingerprint_kind, std::uint64_t hash, index_t rows, index_t cols, std::int64_t nnz,
                   std::size_t value_bytes, const DeviceProperties& device, double expected_products) {
  char fingerprint[17];
  std::snprintf(fingerprint, sizeof fingerprint, "%016llx", static_cast<unsigned long long>(hash));
  return std::string("spmv ") + SPMV_VERSION + "|" + device.name + "|" + std::to_string(device.multiprocessors) +
         "|" + (value_bytes == 4 ? "f32" : "f64") + "|" + std::to_string(rows) + "x" + std::to_string(cols) + "|" +
         std::to_string(nnz) + "|" + fingerprint_kind + fingerprint + "|" + std::to_string(expected_products);
}

}  // namespace

template <class T>
std::string plan_cache_key(const Csr<T>& a, const DeviceProperties& device, double expected_products) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  hash_values(hash, a.row_ptr.data(), a.row_ptr.size());
  // About 64k column indices: hashing all of a large matrix would cost as
  // much as analysing it.
  hash_values(hash, a.col_idx.data(), a.col_idx.size(), a.col_idx.size() / 65536 + 1);
  return key_of("", hash, a.rows, a.cols, a.nnz(), sizeof(T), device, expected_products);
}

std::string plan_cache_key(std::uint64_t device_fingerprint, const MatrixStats& stats, std::size_t value_bytes,
                           const DeviceProperties& device, double expected_products) {
  return key_of("device ", device_fingerprint, stats.rows, stats.cols, stats.nnz, value_bytes, device,
                expected_products);
}

std::optional<CachedChoice> PlanCache::find(const std::string& key) {
  corrupt_lines_ = 0;
  LockedFile file(path_, O_RDONLY, LOCK_SH);  // a writer's line is whole before we read it
  if (file.fd() < 0) return std::nullopt;
  std::ifstream in(path_);
  std::optional<CachedChoice> found;
  std::string line;
  while (std::getline(in, line)) {
    try {
      const nlohmann::json j = nlohmann::json::parse(line);
      CachedChoice choice;  // every line is read whole, so that a bad one is counted whatever its key
      choice.backend = backend_from_string(j.at("backend").get<std::string>().c_str());
      choice.kernel = j.at("kernel").get<std::string>();
      choice.product_seconds = j.at("product_seconds").get<double>();
      choice.setup_seconds = j.at("setup_seconds").get<double>();
      if (j.at("key").get<std::string>() == key) found = choice;  // the last line for a key wins
    } catch (const std::exception&) {
      ++corrupt_lines_;
    }
  }
  return found;
}

void PlanCache::store(const std::string& key, const CachedChoice& choice) {
  const std::filesystem::path folder = std::filesystem::path(path_).parent_path();
  std::error_code ignored;
  if (!folder.empty()) std::filesystem::create_directories(folder, ignored);
  const std::string line = nlohmann::json{{"key", key},
                                          {"backend", to_string(choice.backend)},
                                          {"kernel", choice.kernel},
                                          {"product_seconds", choice.product_seconds},
                                          {"setup_seconds", choice.setup_seconds}}
                               .dump() +
                           "\n";
  LockedFile file(path_, O_RDWR | O_CREAT | O_APPEND, LOCK_EX);  // read: the last byte
  if (file.fd() < 0)
    throw IoError(path_ + ": cannot open the plan cache for writing: " + std::strerror(errno));
  // A line after a writer that died mid-line would join it: start afresh.
  std::string text = line;
  const off_t size = ::lseek(file.fd(), 0, SEEK_END);
  if (size > 0) {
    char last = '\n';
    if (::pread(file.fd(), &last, 1, size - 1) == 1 && last != '\n') text = "\n" + line;
  }
  for (std::size_t written = 0; written < text.size();) {
    const ssize_t n = ::write(file.fd(), text.data() + written, text.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw IoError(path_ + ": cannot write the plan cache: " + std::strerror(errno));
    }
    written += static_cast<std::size_t>(n);
  }
}

template std::string plan_cache_key(const Csr<float>&, const DeviceProperties&, double);
template std::string plan_cache_key(const Csr<double>&, const DeviceProperties&, double);

}  // namespace spmv::detail
