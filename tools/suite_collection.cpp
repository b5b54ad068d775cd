#include "suite_collection.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "spmv/error.hpp"
#include "spmv/gen.hpp"
#include "spmv/io.hpp"

namespace spmv::cli {

namespace fs = std::filesystem;

const char* to_string(SuiteSet set) {
  switch (set) {
    case SuiteSet::real: return "real";
    case SuiteSet::replicated: return "replicated";
    case SuiteSet::family: return "family";
  }
  return "?";
}

namespace {

bool names_a_matrix_format(const fs::path& path) {
  try {
    file_format_from_path(path.string());
    return true;
  } catch (const InvalidArgument&) {
    return false;
  }
}

// "cage10.mtx.gz" -> "cage10": the name before the first dot.
std::string matrix_name(const fs::path& path) {
  const std::string file = path.filename().string();
  return file.substr(0, file.find('.'));
}

// The lines of a text file that are neither blank nor '#' comments, with
// their 1-based line numbers.
std::vector<std::pair<std::int64_t, std::string>> content_lines(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw IoError("cannot read '" + path + "'");
  std::vector<std::pair<std::int64_t, std::string>> lines;
  std::int64_t number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    const std::size_t last = line.find_last_not_of(" \t\r");
    lines.emplace_back(number, line.substr(first, last - first + 1));
  }
  return lines;
}

void refuse_repeated_names(const std::vector<SuiteMatrix>& matrices, const std::string& where) {
  std::set<std::string> seen;
  for (const SuiteMatrix& m : matrices)
    if (!seen.insert(m.name).second)
      throw InvalidArgument("suite: two matrices named '" + m.name + "' in " + where +
                            " (results are keyed by name)");
}

// The kind and parameter names of a spec (their values are checked when the
// matrix is generated), so that a typo fails before hours of measuring.
void check_generator_names(const GeneratorSpec& spec) {
  const auto& kinds = generator_kinds();
  const auto kind = std::find_if(kinds.begin(), kinds.end(),
                                 [&](const GeneratorKind& k) { return k.name == spec.kind; });
  if (kind == kinds.end())
    throw InvalidArgument("unknown generator '" + spec.kind + "' (see 'spmv gen --list')");
  for (const auto& [name, value] : spec.params) {
    (void)value;
    if (std::none_of(kind->params.begin(), kind->params.end(),
                     [&](const GeneratorParam& p) { return p.name == name; }))
      throw InvalidArgument("generator '" + spec.kind + "' has no parameter '" + name + "'");
  }
}

}  // namespace

std::vector<SuiteMatrix> collection_matrices(const std::string& dir_or_list) {
  std::vector<SuiteMatrix> matrices;
  if (fs::is_directory(dir_or_list)) {
    for (const fs::directory_entry& entry : fs::directory_iterator(dir_or_list))
      if (entry.is_regular_file() && entry.path().filename().string()[0] != '.' &&
          names_a_matrix_format(entry.path()))
        matrices.push_back({matrix_name(entry.path()), entry.path().string(), false});
    std::sort(matrices.begin(), matrices.end(),
              [](const SuiteMatrix& a, const SuiteMatrix& b) { return a.name < b.name; });
  } else {
    const fs::path folder = fs::path(dir_or_list).parent_path();
    for (const auto& [number, text] : content_lines(dir_or_list)) {
      const fs::path path = fs::path(text).is_absolute() ? fs::path(text) : folder / text;
      if (!fs::is_regular_file(path))
        throw ParseError(dir_or_list, number, "no matrix file '" + path.string() + "'");
      matrices.push_back({matrix_name(path), path.string(), false});
    }
  }
  if (matrices.empty()) throw InvalidArgument("suite: no matrix files in '" + dir_or_list + "'");
  refuse_repeated_names(matrices, "'" + dir_or_list + "'");
  return matrices;
}

std::vector<SuiteMatrix> family_matrices(const std::string& path) {
  std::vector<SuiteMatrix> families;
  std::set<std::string> seen;
  for (const auto& [number, text] : content_lines(path)) {
    std::istringstream words(text);
    std::string name, spec, extra;
    words >> name >> spec;
    if (spec.empty() || (words >> extra))
      throw ParseError(path, number, "expected 'NAME SPEC', got '" + text + "'");
    if (!seen.insert(name).second)
      throw ParseError(path, number, "family '" + name + "' is named twice");
    try {
      const GeneratorSpec parsed = parse_generator_spec(spec);
      check_generator_names(parsed);
      families.push_back({name, to_string(parsed), true});
    } catch (const InvalidArgument& e) {
      throw ParseError(path, number, e.what());
    }
  }
  return families;
}

index_t copies_to_reach(std::int64_t rows, std::int64_t cols, std::int64_t nnz,
                        std::size_t value_bytes, std::size_t target_bytes) {
  // One copy's share: everything but the single extra row pointer.
  const std::size_t per_copy = csr_product_bytes(rows, cols, nnz, value_bytes) - sizeof(index_t);
  if (per_copy == 0 || csr_product_bytes(rows, cols, nnz, value_bytes) >= target_bytes) return 1;
  const std::size_t copies = (target_bytes - sizeof(index_t) + per_copy - 1) / per_copy;
  return static_cast<index_t>(std::min<std::size_t>(copies, static_cast<std::size_t>(max_index)));
}

}  // namespace spmv::cli
