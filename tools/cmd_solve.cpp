// `spmv solve A [--rhs FILE] [--tol T] [--max-iter N] [--precond none|jacobi]
// [--backend auto|cpu|reference|cuda] [--precision f32|f64] [--json OUT] [-o X.txt]`:
// conjugate gradients (spmv/cg.hpp) on a symmetric positive definite matrix.
// Without --rhs, b = A * ones, so that the exact solution is known and its
// error is reported. Exit 1 when the solve does not converge.
#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli_common.hpp"
#include "spmv/cg.hpp"
#include "spmv/error.hpp"

namespace spmv::cli {
namespace {

struct SolveOptions {
  std::string file;
  std::string format;
  std::string rhs_file;
  double tolerance = CgOptions{}.tolerance;
  int max_iterations = CgOptions{}.max_iterations;
  std::string preconditioner = "none";
  std::string backend = "auto";
  std::string precision = "f64";
  std::string json_file;
  std::string solution_file;
};

// One value per line (blank lines and lines starting with '%' or '#' skipped).
template <class T>
std::vector<T> read_vector(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw IoError("cannot open " + path);
  std::vector<T> values;
  std::int64_t line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '%' || line[first] == '#') continue;
    std::size_t used = 0;
    double value = 0;
    try {
      value = std::stod(line.substr(first), &used);
    } catch (const std::exception&) {
      throw ParseError(path, line_number, "expected a number, found '" + line.substr(first) + "'");
    }
    if (line.find_first_not_of(" \t\r", first + used) != std::string::npos)
      throw ParseError(path, line_number, "expected one number per line");
    if (!std::isfinite(value)) throw ParseError(path, line_number, "the value is not finite");
    values.push_back(T(value));
  }
  return values;
}

template <class T>
std::string vector_text(const std::vector<T>& values) {
  std::string text;
  for (const T v : values) text += fmt::format("{:.17g}\n", static_cast<double>(v));
  return text;
}

template <class T>
int run_solve(const SolveOptions& o, const Csr<T>& a) {
  CgOptions options;
  options.tolerance = o.tolerance;
  options.max_iterations = o.max_iterations;
  options.preconditioner = preconditioner_from_string(o.preconditioner);
  options.plan.backend =
      o.backend == "auto" ? (cuda_available() ? Backend::cuda : Backend::cpu) : backend_from_string(o.backend.c_str());
  const bool known_solution = o.rhs_file.empty();
  std::vector<T> b;
  if (known_solution) {  // b = A * ones
    b.assign(static_cast<std::size_t>(a.rows), T(0));
    for (index_t i = 0; i < a.rows; ++i)
      for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) b[i] += a.values[k];
  } else {
    b = read_vector<T>(o.rhs_file);
  }
  std::vector<T> x;
  const CgResult r = conjugate_gradients(a, b, x, options);

  double error_norm = 0;  // |x - ones| / |ones|
  if (known_solution && a.rows > 0) {
    for (const T v : x) error_norm += (double(v) - 1) * (double(v) - 1);
    error_norm = std::sqrt(error_norm / a.rows);
  }
  const OperatorDescription& d = r.operator_description;
  fmt::print("matrix          {} ({} x {}, {} non-zeros, {})\n", o.file, a.rows, a.cols, a.nnz(), o.precision);
  fmt::print("operator        {} {} (format {})\n", to_string(d.backend), d.kernel, d.format);
  fmt::print("preconditioner  {}\n", o.preconditioner);
  fmt::print("result          {} after {} iterations\n", r.stop_reason, r.iterations);
  fmt::print("residual        {:.3e} (|b - Ax| / |b| recomputed), {:.3e} (recurrence), tolerance {:.1e}\n",
             r.relative_residual, r.residual_history.back(), o.tolerance);
  if (known_solution) fmt::print("error           {:.3e} (|x - 1| / |1|, exact solution ones)\n", error_norm);
  fmt::print("time            setup {:.3f} ms, solve {:.3f} ms ({:.4f} ms per iteration), transfers {:.3f} ms\n",
             r.setup_seconds * 1e3, r.solve_seconds * 1e3, r.seconds_per_iteration * 1e3, r.transfer_seconds * 1e3);

  if (!o.json_file.empty()) {
    const nlohmann::json report = {
        {"matrix", o.file},
        {"rows", a.rows},
        {"nnz", a.nnz()},
        {"precision", o.precision},
        {"backend", to_string(d.backend)},
        {"kernel", d.kernel},
        {"format", d.format},
        {"preconditioner", o.preconditioner},
        {"tolerance", o.tolerance},
        {"max_iterations", o.max_iterations},
        {"converged", r.converged},
        {"stop_reason", r.stop_reason},
        {"iterations", r.iterations},
        {"relative_residual", r.relative_residual},
        {"solution_error", known_solution ? nlohmann::json(error_norm) : nlohmann::json(nullptr)},
        {"setup_seconds", r.setup_seconds},
        {"solve_seconds", r.solve_seconds},
        {"seconds_per_iteration", r.seconds_per_iteration},
        {"transfer_seconds", r.transfer_seconds},
        {"residual_history", r.residual_history}};
    write_text_file(o.json_file, report.dump(1) + "\n");
  }
  if (!o.solution_file.empty()) write_text_file(o.solution_file, vector_text(x));
  return r.converged ? exit_success : exit_failed_run;
}

int run_solve_command(const SolveOptions& o) {
  const Csr<double> a = read_matrix<double>(o.file, input_format(o.file, o.format));
  return o.precision == "f32" ? run_solve(o, cast<float>(a)) : run_solve(o, a);
}

}  // namespace

Command add_solve_command(CLI::App& app) {
  auto o = std::make_shared<SolveOptions>();
  CLI::App* c = app.add_subcommand(
      "solve", "solve A x = b by conjugate gradients (A symmetric positive definite); b = A * ones by default");
  c->add_option("file", o->file, "matrix file (.mtx, .mtx.gz, .spmv)")->required();
  add_input_format_option(*c, o->format);
  c->add_option("--rhs", o->rhs_file, "right-hand side b: one value per line (default: A * ones)");
  c->add_option("--tol", o->tolerance, "stop when |b - Ax| <= tol * |b| (default 1e-8)")
      ->check(CLI::PositiveNumber);
  c->add_option("--max-iter", o->max_iterations, "iteration limit (default 1000)")->check(CLI::NonNegativeNumber);
  c->add_option("--precond", o->preconditioner, "none (default) or jacobi")->check(CLI::IsMember({"none", "jacobi"}));
  c->add_option("--backend", o->backend, "auto (default: cuda where a GPU is present, else cpu), cpu, reference, "
                                          "cuda or cusparse")
      ->check(CLI::IsMember({"auto", "cpu", "reference", "cuda", "cusparse"}));
  c->add_option("--precision", o->precision, "value type: f64 (default) or f32")->check(CLI::IsMember({"f32", "f64"}));
  c->add_option("--json", o->json_file, "write the result, timings and residual history as JSON to this file");
  c->add_option("-o,--output", o->solution_file, "write x, one value per line, to this file");
  return {c, [o] { return run_solve_command(*o); }};
}

}  // namespace spmv::cli
