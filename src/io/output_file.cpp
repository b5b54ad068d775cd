#include "io/output_file.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdio>

#include "io/io_error.hpp"

namespace spmv::io {

namespace {

// O_EXCL with a name unique to this process and call: no clobbering of a
// temporary that another writer of the same target is using.
int create_temporary(const std::string& path, std::string& temp_path) {
  static std::atomic<int> counter{0};
  for (int attempt = 0; attempt < 100; ++attempt) {
    temp_path = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
    const int fd = ::open(temp_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  return -1;
}

}  // namespace

bool ends_with_ignoring_case(std::string_view path, std::string_view suffix) {
  if (path.size() < suffix.size()) return false;
  const std::string_view tail = path.substr(path.size() - suffix.size());
  for (std::size_t i = 0; i < suffix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(tail[i])) !=
        std::tolower(static_cast<unsigned char>(suffix[i])))
      return false;
  return true;
}

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  fd_ = create_temporary(path_, temp_path_);
  if (fd_ < 0) throw_io_error("create a temporary file for", path_);
  if (ends_with_ignoring_case(path_, ".gz")) {
    gz_ = gzdopen(fd_, "wb");
    if (gz_ == nullptr) {
      const int error_number = errno;
      ::close(fd_);
      ::unlink(temp_path_.c_str());
      throw_io_error("start compressing", path_, error_number);
    }
    fd_ = -1;  // owned by gz_ now
    gzbuffer(gz_, 1u << 20);
  }
}

OutputFile::~OutputFile() {
  if (temp_path_.empty()) return;  // committed
  if (gz_ != nullptr) gzclose(gz_);
  if (fd_ >= 0) ::close(fd_);
  ::unlink(temp_path_.c_str());
}

void OutputFile::write(const void* data, std::size_t bytes) {
  const char* next = static_cast<const char*>(data);
  while (bytes > 0) {
    // Both calls take at most a few GiB at once; gzwrite counts in unsigned.
    const std::size_t piece = std::min<std::size_t>(bytes, std::size_t{1} << 30);
    if (gz_ != nullptr) {
      if (gzwrite(gz_, next, static_cast<unsigned>(piece)) != static_cast<int>(piece))
        throw_io_error("write compressed data to", path_);
      next += piece;
      bytes -= piece;
    } else {
      const ssize_t written = ::write(fd_, next, piece);
      if (written < 0) {
        if (errno == EINTR) continue;
        throw_io_error("write", path_);
      }
      next += written;
      bytes -= static_cast<std::size_t>(written);
    }
  }
}

void OutputFile::close_or_throw() {
  if (gz_ != nullptr) {
    const int status = gzclose(gz_);
    gz_ = nullptr;
    if (status != Z_OK) throw_io_error("finish compressing", path_);
  } else {
    const int status = ::close(fd_);
    fd_ = -1;
    if (status != 0) throw_io_error("close", path_);
  }
}

void OutputFile::commit() {
  close_or_throw();
  if (std::rename(temp_path_.c_str(), path_.c_str()) != 0) throw_io_error("rename into", path_);
  temp_path_.clear();
}

}  // namespace spmv::io
