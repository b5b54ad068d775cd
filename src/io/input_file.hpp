// Reading a whole input file into memory, decompressing gzip on the way.
#pragma once

#include <cstdint>
#include <string>

namespace spmv::io {

// The bytes of `path`, gunzipped when the file starts with the gzip magic
// number (so a compressed file is read whatever its name). Throws IoError
// naming the path when it cannot be opened or read, ParseError when the
// compressed stream is corrupt or truncated, SizeError when it inflates to
// more than `max_inflated_bytes` (0: no limit).
std::string read_whole_file(const std::string& path, std::int64_t max_inflated_bytes = 0);

}  // namespace spmv::io
