// Output files that appear whole or not at all.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

struct gzFile_s;

namespace spmv::io {

// Writes under a temporary name next to the target; commit() renames it into
// place. Destroyed without commit() (an exception on the way), it removes the
// temporary, so a failed write never leaves a partial file. Paths ending in
// ".gz" are gzip-compressed. Every failure throws IoError naming the target.
class OutputFile {
 public:
  explicit OutputFile(std::string path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(const void* data, std::size_t bytes);
  void write(std::string_view text) { write(text.data(), text.size()); }
  void commit();

 private:
  void close_or_throw();

  std::string path_;
  std::string temp_path_;
  int fd_ = -1;
  gzFile_s* gz_ = nullptr;
};

// True when `path` ends with `suffix`, ignoring ASCII case.
bool ends_with_ignoring_case(std::string_view path, std::string_view suffix);

}  // namespace spmv::io
