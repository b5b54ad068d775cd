// Generator spec strings ("KIND:key=value,...") and the registry of kinds:
// their help, parameters and defaults, and how each is built.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <string>
#include <system_error>

#include "spmv/error.hpp"
#include "spmv/gen.hpp"

namespace spmv {
namespace {

bool is_name(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char ch) {
    return std::isalnum(ch) || ch == '_';
  });
}

// Reads the parameters of one spec, falling back to the kind's defaults.
class ParamReader {
 public:
  ParamReader(const GeneratorKind& kind, const GeneratorSpec& spec) : kind_(kind), spec_(spec) {
    for (const auto& [key, value] : spec.params)
      if (find(key) == nullptr) {
        std::string known;
        for (const auto& param : kind.params) known += (known.empty() ? "" : ", ") + param.name;
        throw InvalidArgument("generator '" + kind.name + "' has no parameter '" + key +
                              "' (parameters: " + known + ")");
      }
  }

  // A size or count: an integer in [0, 2^31 - 1].
  index_t size(const std::string& name) const {
    const std::string& text = value(name);
    std::int64_t parsed = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), parsed);
    if (error == std::errc::result_out_of_range || (error == std::errc() && parsed > max_index))
      throw SizeError(where(name) + " = " + text + " exceeds the 32-bit index limit " +
                      std::to_string(max_index));
    if (error != std::errc() || end != text.data() + text.size()) fail(name, text, "an integer");
    if (parsed < 0) fail(name, text, "an integer >= 0");
    return static_cast<index_t>(parsed);
  }
  // `name` when the spec gives it, else `fallback` (for nx, ny, nz that default to n).
  index_t size_or(const std::string& name, const std::string& fallback) const {
    return spec_.params.count(name) ? size(name) : size(fallback);
  }
  double real(const std::string& name) const {
    const std::string& text = value(name);
    double parsed = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), parsed);
    if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(parsed))
      fail(name, text, "a finite number");
    return parsed;
  }
  std::uint64_t seed() const { return unsigned_integer("seed"); }
  std::uint64_t unsigned_integer(const std::string& name) const {
    const std::string& text = value(name);
    std::uint64_t parsed = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), parsed);
    if (error != std::errc() || end != text.data() + text.size())
      fail(name, text, "an integer in [0, 2^64)");
    return parsed;
  }

 private:
  const GeneratorParam* find(const std::string& name) const {
    for (const auto& param : kind_.params)
      if (param.name == name) return &param;
    return nullptr;
  }
  const std::string& value(const std::string& name) const {
    const auto given = spec_.params.find(name);
    return given != spec_.params.end() ? given->second : find(name)->default_value;
  }
  std::string where(const std::string& name) const {
    return "generator '" + kind_.name + "': parameter " + name;
  }
  [[noreturn]] void fail(const std::string& name, const std::string& text,
                         const char* expected) const {
    throw InvalidArgument(where(name) + " = '" + text + "' is not " + expected);
  }

  const GeneratorKind& kind_;
  const GeneratorSpec& spec_;
};

constexpr const char* classification_kind = "classification";

struct RegistryEntry {
  GeneratorKind kind;
  Csr<double> (*build)(const ParamReader&);
};

const GeneratorParam seed_param{"seed", "1", "random seed (same seed, same matrix)"};

// n, and nx, ny (and nz when 3-D) defaulting to n.
std::vector<GeneratorParam> grid_params(const char* n_default, int dimensions) {
  std::vector<GeneratorParam> params{{"n", n_default, "points per side"},
                                     {"nx", "", "points along x (default: n)"},
                                     {"ny", "", "points along y (default: n)"},
                                     {"nz", "", "points along z (default: n)"}};
  params.resize(1 + dimensions);
  return params;
}

const GeneratorParam shuffle_param{
    "shuffle", "0", "0: rows in grid order; s > 0: rows in a random order drawn with seed s"};

// A stencil kind's matrix, its rows shuffled when the spec asks.
Csr<double> shuffled_if_asked(Csr<double> a, const ParamReader& p) {
  const std::uint64_t seed = p.unsigned_integer("shuffle");
  return seed == 0 ? a : shuffle_rows(a, seed);
}

std::vector<GeneratorParam> per_row_params(const char* rows, const char* cols,
                                           const char* per_row) {
  return {{"rows", rows, "number of rows"},
          {"cols", cols, "number of columns"},
          {"per_row", per_row, "distinct columns in each row"},
          seed_param};
}

template <class... Extra>
std::vector<GeneratorParam> with(std::vector<GeneratorParam> params, Extra... extra) {
  (params.push_back(extra), ...);
  return params;
}

Csr<double> build_few_huge(const ParamReader& p) {
  return gen_few_huge_rows(p.size("rows"), p.size("cols"), p.size("per_row"), p.size("huge_rows"),
                           p.size("huge_length"), p.seed());
}

const std::vector<RegistryEntry>& registry() {
  static const std::vector<GeneratorParam> few_huge_params =
      with(per_row_params("10000", "10000", "4"),
           GeneratorParam{"huge_rows", "4", "number of huge rows, evenly spread"},
           GeneratorParam{"huge_length", "5000", "distinct columns in each huge row"});
  static const std::vector<RegistryEntry> entries = {
      {{"stencil5", "2-D 5-point Laplacian on an nx x ny grid (diagonal 4, neighbours -1)",
        with(grid_params("128", 2), shuffle_param)},
       [](const ParamReader& p) {
         return shuffled_if_asked(gen_stencil_2d_5pt(p.size_or("nx", "n"), p.size_or("ny", "n")), p);
       }},
      {{"stencil7", "3-D 7-point Laplacian on an nx x ny x nz grid (diagonal 6, neighbours -1)",
        with(grid_params("32", 3), shuffle_param)},
       [](const ParamReader& p) {
         return shuffled_if_asked(
             gen_stencil_3d(p.size_or("nx", "n"), p.size_or("ny", "n"), p.size_or("nz", "n"), 7), p);
       }},
      {{"stencil27", "3-D 27-point Laplacian on an nx x ny x nz grid (diagonal 26, neighbours -1)",
        with(grid_params("32", 3), shuffle_param)},
       [](const ParamReader& p) {
         return shuffled_if_asked(
             gen_stencil_3d(p.size_or("nx", "n"), p.size_or("ny", "n"), p.size_or("nz", "n"), 27),
             p);
       }},
      {{"random",
        "El Zein's thesis Random: each position is a non-zero with probability density, at least "
        "one per row; visits every position (O(rows x cols) time)",
        {{"rows", "3000", "number of rows"},
         {"cols", "3000", "number of columns"},
         {"density", "0.01", "probability of a non-zero (1 - the thesis's sparsity)"},
         seed_param}},
       [](const ParamReader& p) {
         return gen_thesis_random(p.size("rows"), p.size("cols"), p.real("density"), p.seed());
       }},
      {{"constant_row",
        "El Zein's thesis Constant Row: per_row distinct random columns in every row",
        per_row_params("3000", "3000", "30")},
       [](const ParamReader& p) {
         return gen_constant_row(p.size("rows"), p.size("cols"), p.size("per_row"), p.seed());
       }},
      {{"structured", "El Zein's thesis Structured: the same per_row random columns in every row",
        per_row_params("3000", "3000", "30")},
       [](const ParamReader& p) {
         return gen_structured(p.size("rows"), p.size("cols"), p.size("per_row"), p.seed());
       }},
      {{"uniform", "per_row distinct uniformly random columns in every row",
        per_row_params("10000", "10000", "16")},
       [](const ParamReader& p) {
         return gen_uniform_random(p.size("rows"), p.size("cols"), p.size("per_row"), p.seed());
       }},
      {{"rmat",
        "R-MAT power law: 2^scale x 2^scale, edge_factor x 2^scale edges placed by recursive "
        "quadrant choice (a, b, c, d = 1 - a - b - c); duplicates summed, self loops kept",
        {{"scale", "14", "log2 of the number of rows"},
         {"edge_factor", "16", "edges per row on average, before duplicates are merged"},
         {"a", "0.57", "probability of the top-left quadrant"},
         {"b", "0.19", "probability of the top-right quadrant"},
         {"c", "0.19", "probability of the bottom-left quadrant"},
         seed_param}},
       [](const ParamReader& p) {
         return gen_rmat(p.size("scale"), p.size("edge_factor"), p.real("a"), p.real("b"),
                         p.real("c"), p.seed());
       }},
      {{"blockfem",
        "block x block dense blocks on the 7-point stencil of an nx x ny x nz grid of nodes",
        with(grid_params("10", 3), GeneratorParam{"block", "3", "unknowns per node (block size)"},
             seed_param)},
       [](const ParamReader& p) {
         return gen_block_fem(p.size_or("nx", "n"), p.size_or("ny", "n"), p.size_or("nz", "n"),
                              p.size("block"), p.seed());
       }},
      {{"banded",
        "square band matrix: entries (i, j) with i - lower <= j <= i + upper",
        {{"rows", "10000", "number of rows (and columns)"},
         {"lower", "2", "diagonals below the main one"},
         {"upper", "2", "diagonals above the main one"},
         seed_param}},
       [](const ParamReader& p) {
         return gen_banded(p.size("rows"), p.size("lower"), p.size("upper"), p.seed());
       }},
      {{"tridiagonal",
        "banded with lower = upper = 1",
        {{"rows", "10000", "number of rows (and columns)"}, seed_param}},
       [](const ParamReader& p) { return gen_banded(p.size("rows"), 1, 1, p.seed()); }},
      {{"dense",
        "every entry present",
        {{"rows", "500", "number of rows"}, {"cols", "500", "number of columns"}, seed_param}},
       [](const ParamReader& p) { return gen_dense(p.size("rows"), p.size("cols"), p.seed()); }},
      {{"widelp",
        "LP-like: few rows, very many columns; row lengths uniform in [per_row/2, 3 per_row/2]",
        {{"rows", "100", "number of rows"},
         {"cols", "100000", "number of columns"},
         {"per_row", "2000", "mean number of distinct columns in a row"},
         seed_param}},
       [](const ParamReader& p) {
         return gen_wide_lp(p.size("rows"), p.size("cols"), p.size("per_row"), p.seed());
       }},
      {{"fewhuge",
        "circuit-like: per_row random columns in most rows, a few evenly spread huge rows",
        few_huge_params},
       build_few_huge},
      {{"circuit", "the same as fewhuge", few_huge_params}, build_few_huge},
      {{classification_kind,
        "LIBSVM-like classification data: uniform features and the labels of a planted linear "
        "model, written with LIBSVM or .spmv output; defaults sized like a9a; kdd99: "
        "rows=4898431,cols=127,per_row=16; news20: rows=15960,cols=1355181,per_row=455",
        with(per_row_params("32561", "123", "14"),
             GeneratorParam{"noise", "0.5", "label noise relative to the size of w*.x (0: separable)"})},
       [](const ParamReader& p) {
         return gen_uniform_random(p.size("rows"), p.size("cols"), p.size("per_row"), p.seed());
       }},
  };
  return entries;
}

[[noreturn]] void throw_unknown_kind(const GeneratorSpec& spec) {
  std::string known;
  for (const auto& entry : registry()) known += (known.empty() ? "" : ", ") + entry.kind.name;
  throw InvalidArgument("unknown generator kind '" + spec.kind + "' (kinds: " + known + ")");
}

}  // namespace

GeneratorSpec parse_generator_spec(const std::string& text) {
  auto fail = [&](const std::string& problem) {
    throw InvalidArgument("generator spec '" + text + "': " + problem);
  };
  GeneratorSpec spec;
  const std::size_t colon = text.find(':');
  spec.kind = text.substr(0, colon);
  if (!is_name(spec.kind)) fail("the kind must be a non-empty name of letters, digits and '_'");
  if (colon == std::string::npos) return spec;
  const std::string list = text.substr(colon + 1);
  std::size_t begin = 0;
  while (true) {
    const std::size_t comma = std::min(list.find(',', begin), list.size());
    const std::string pair = list.substr(begin, comma - begin);
    const std::size_t equals = pair.find('=');
    if (equals == std::string::npos) fail("'" + pair + "' is not key=value");
    const std::string key = pair.substr(0, equals), value = pair.substr(equals + 1);
    if (!is_name(key)) fail("'" + pair + "' has no valid key before '='");
    if (value.empty()) fail("parameter '" + key + "' has an empty value");
    if (!spec.params.emplace(key, value).second) fail("parameter '" + key + "' is given twice");
    if (comma == list.size()) break;
    begin = comma + 1;
  }
  return spec;
}

std::string to_string(const GeneratorSpec& spec) {
  std::string text = spec.kind;
  char separator = ':';
  for (const auto& [key, value] : spec.params) {
    text += separator + key + "=" + value;
    separator = ',';
  }
  return text;
}

const std::vector<GeneratorKind>& generator_kinds() {
  static const std::vector<GeneratorKind> kinds = [] {
    std::vector<GeneratorKind> list;
    for (const auto& entry : registry()) list.push_back(entry.kind);
    return list;
  }();
  return kinds;
}

Csr<double> generate(const GeneratorSpec& spec) {
  for (const auto& entry : registry())
    if (entry.kind.name == spec.kind) return entry.build(ParamReader(entry.kind, spec));
  throw_unknown_kind(spec);
}

LabeledMatrix<double> generate_labeled(const GeneratorSpec& spec) {
  LabeledMatrix<double> data{generate(spec), {}};
  for (const auto& entry : registry())
    if (entry.kind.name == spec.kind && spec.kind == classification_kind) {
      const ParamReader p(entry.kind, spec);
      data.labels = planted_labels(data.features, p.real("noise"), p.seed());
    }
  return data;
}

}  // namespace spmv
