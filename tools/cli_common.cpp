#include "cli_common.hpp"

#include <cstdio>
#include <new>

#include "io/output_file.hpp"
#include "spmv/error.hpp"
#include "spmv/operator.hpp"

namespace spmv::cli {

CLI::Option* add_input_format_option(CLI::App& command, std::string& format) {
  return command.add_option("--format", format, "input format when the extension does not say it")
      ->check(CLI::IsMember({"mtx", "libsvm", "spmv"}));
}

CLI::Option* add_reorder_option(CLI::App& command, std::string& reorder, const std::string& what) {
  return command
      .add_option("--reorder", reorder,
                  what + ": none (default), rcm (Reverse Cuthill-McKee), amd (SuiteSparse AMD) or "
                         "bar (BRO-aware rows, Tang et al. 2013)")
      ->check(CLI::IsMember({"none", "rcm", "amd", "bar"}));
}

CLI::Option* add_expected_products_option(CLI::App& command, double& expected_products) {
  return command
      .add_option("--expected-products", expected_products,
                  "products the caller will run with one operator: the automatic choice minimises "
                  "setup + this many products (default " +
                      std::to_string(static_cast<int>(default_expected_products)) + ")")
      ->check(CLI::Range(0.0, 1e15));
}

FileFormat input_format(const std::string& path, const std::string& forced_format) {
  return forced_format.empty() ? file_format_from_path(path) : file_format_from_name(forced_format);
}

std::string params_text(const KernelParams& params) {
  std::string text;
  for (const auto& [name, value] : params) text += (text.empty() ? "" : ",") + name + "=" + std::to_string(value);
  return text.empty() ? "-" : text;
}

const char* cuda_status() {
#ifdef SPMV_HAVE_CUDA
  return cuda_available() ? "available" : "built, but no CUDA device was found";
#else
  return "not in this build (configured without CUDA)";
#endif
}

void write_text_file(const std::string& path, const std::string& text) {
  io::OutputFile file(path);
  file.write(text);
  file.commit();
}

int exit_code_of(const std::exception& error) {
  // A failed run: the input was fine but the computation went wrong.
  if (dynamic_cast<const VerificationError*>(&error) || dynamic_cast<const DeviceError*>(&error) ||
      dynamic_cast<const std::bad_alloc*>(&error))
    return exit_failed_run;
  if (dynamic_cast<const Error*>(&error))
    return exit_bad_input;  // parse, argument, size, I/O, unavailable
  return exit_failed_run;
}

void print_error_line(const std::string& message) {
  std::string line = message;
  for (char& ch : line)
    if (ch == '\n' || ch == '\r') ch = ' ';
  std::fprintf(stderr, "spmv: %s\n", line.c_str());
}

}  // namespace spmv::cli
