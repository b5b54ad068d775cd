#include "io/input_file.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>

#include "io/io_error.hpp"
#include "spmv/error.hpp"

namespace spmv::io {

namespace {

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

struct GzCloser {
  void operator()(gzFile_s* file) const { gzclose(file); }
};

bool starts_with_gzip_magic(std::FILE* file, const std::string& path) {
  unsigned char magic[2] = {0, 0};
  const std::size_t got = std::fread(magic, 1, 2, file);
  if (std::ferror(file)) throw_io_error("read", path);  // e.g. a directory
  std::rewind(file);
  return got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

std::string read_plain(std::FILE* file, const std::string& path) {
  if (std::fseek(file, 0, SEEK_END) != 0) throw_io_error("seek in", path);
  const long size = std::ftell(file);
  if (size < 0) throw_io_error("read", path);
  std::rewind(file);
  std::string text(static_cast<std::size_t>(size), '\0');
  if (std::fread(text.data(), 1, text.size(), file) != text.size() || std::ferror(file))
    throw_io_error("read", path);
  return text;
}

// Grows the text as the stream inflates (a small file cannot make us
// allocate much before its data arrive), doubling the read size up to 1 GiB.
std::string read_gzip(const std::string& path, std::int64_t max_inflated_bytes) {
  // Big reads through a big zlib buffer: inflate dominates, not call overhead.
  constexpr unsigned zlib_buffer_bytes = 1u << 20;
  constexpr std::size_t first_chunk_bytes = std::size_t{1} << 16;
  std::unique_ptr<gzFile_s, GzCloser> gz(gzopen(path.c_str(), "rb"));
  if (!gz) throw_io_error("open", path);
  gzbuffer(gz.get(), zlib_buffer_bytes);
  std::string text;
  std::size_t used = 0;
  std::size_t chunk = first_chunk_bytes;
  while (true) {
    text.resize(used + chunk);
    const int got = gzread(gz.get(), text.data() + used, static_cast<unsigned>(chunk));
    if (got < 0) break;  // reported below through gzerror
    used += static_cast<std::size_t>(got);
    if (max_inflated_bytes > 0 && used > static_cast<std::size_t>(max_inflated_bytes))
      throw SizeError(path + ": inflates to more than " + std::to_string(max_inflated_bytes) +
                      " bytes (ReadOptions::max_inflated_bytes)");
    if (static_cast<std::size_t>(got) < chunk) break;
    chunk = std::min<std::size_t>(used, std::size_t{1} << 30);
  }
  text.resize(used);
  int status = Z_OK;
  const char* message = gzerror(gz.get(), &status);
  if (status == Z_ERRNO) throw_io_error("read", path);
  if (status != Z_OK)
    throw ParseError(path, 0, std::string("compressed data is corrupt or truncated (zlib: ") +
                                  message + ")");
  return text;
}

}  // namespace

std::string read_whole_file(const std::string& path, std::int64_t max_inflated_bytes) {
  FilePtr file(std::fopen(path.c_str(), "rb"));
  if (!file) throw_io_error("open", path);
  if (starts_with_gzip_magic(file.get(), path)) {
    file.reset();
    return read_gzip(path, max_inflated_bytes);
  }
  return read_plain(file.get(), path);
}

}  // namespace spmv::io
