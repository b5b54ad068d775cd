// Pieces shared by the subcommands of the `spmv` tool: exit codes, the
// subcommand registry, input formats and whole-or-nothing output files.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

#include "spmv/io.hpp"
#include "spmv/operator.hpp"

namespace spmv::cli {

inline constexpr int exit_success = 0;
inline constexpr int exit_failed_run =
    1;  // the run finished but a result is wrong (e.g. verification)
inline constexpr int exit_bad_input = 2;  // bad usage, missing or malformed input

// Each subcommand registers itself on the app and returns its parser and what
// runs it once the command line is parsed (run returns the exit code).
struct Command {
  CLI::App* parser;
  std::function<int()> run;
};
Command add_info_command(CLI::App& app);
Command add_gen_command(CLI::App& app);
Command add_convert_command(CLI::App& app);
Command add_kernels_command(CLI::App& app);
Command add_bench_command(CLI::App& app);
Command add_suite_command(CLI::App& app);
Command add_micro_command(CLI::App& app);
Command add_plan_command(CLI::App& app);
Command add_train_command(CLI::App& app);
Command add_predict_command(CLI::App& app);
Command add_solve_command(CLI::App& app);

// --format mtx|libsvm|spmv: the format of an input file, overriding its extension.
CLI::Option* add_input_format_option(CLI::App& command, std::string& format);
// --reorder none|rcm|amd|bar (reorder.hpp); `what` says what it does there.
CLI::Option* add_reorder_option(CLI::App& command, std::string& reorder, const std::string& what);

// --expected-products N: what the selector weighs a format's setup against.
CLI::Option* add_expected_products_option(CLI::App& command, double& expected_products);

// The format named by --format, else the one of the path's extension.
FileFormat input_format(const std::string& path, const std::string& forced_format);

// Kernel parameters as `--params` takes them: "name=value,..." ("-" for none).
std::string params_text(const KernelParams& params);

// Whether the CUDA backends can run: "available", or why not.
const char* cuda_status();

// Writes `text` to `path` through a temporary file renamed into place.
void write_text_file(const std::string& path, const std::string& text);

// Maps an exception to the tool's exit code and its one-line message.
int exit_code_of(const std::exception& error);
// Prints "spmv: MESSAGE" as exactly one line on standard error.
void print_error_line(const std::string& message);

}  // namespace spmv::cli
