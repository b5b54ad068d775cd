// `spmv gen SPEC [--NAME VALUE ...] -o FILE` and `spmv gen --list`: writes a
// generated matrix. SPEC is a generator spec, "KIND" or "KIND:name=value,...";
// parameters may also follow it as options (--n 150 or --n=150), which take
// precedence over the same names in SPEC.
#include <fmt/format.h>

#include <memory>

#include "cli_common.hpp"
#include "labeled_data.hpp"
#include "spmv/error.hpp"
#include "spmv/gen.hpp"

namespace spmv::cli {
namespace {

struct GenOptions {
  std::string spec;
  std::string output;
  bool list = false;
};

void print_kinds() {
  for (const GeneratorKind& kind : generator_kinds()) {
    fmt::print("{}\n    {}\n", kind.name, kind.help);
    for (const GeneratorParam& param : kind.params)
      fmt::print("    --{:<14} {}{}\n", param.name, param.help,
                 param.default_value.empty() ? "" : " (default " + param.default_value + ")");
  }
}

// Adds the parameters given as options ("--name value" or "--name=value").
void add_option_params(GeneratorSpec& spec, const std::vector<std::string>& arguments) {
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string& argument = arguments[i];
    if (argument.size() < 3 || argument.compare(0, 2, "--") != 0)
      throw InvalidArgument("gen: unexpected argument '" + argument +
                            "' (parameters are given as --name value)");
    const std::size_t equals = argument.find('=');
    if (equals != std::string::npos) {
      spec.params[argument.substr(2, equals - 2)] = argument.substr(equals + 1);
    } else if (i + 1 < arguments.size()) {
      spec.params[argument.substr(2)] = arguments[++i];
    } else {
      throw InvalidArgument("gen: parameter " + argument + " has no value");
    }
  }
}

int run_gen(const GenOptions& options, const std::vector<std::string>& extra_arguments) {
  if (options.list) {
    print_kinds();
    return exit_success;
  }
  if (options.spec.empty())
    throw InvalidArgument("gen: no generator given (see 'spmv gen --list')");
  GeneratorSpec spec = parse_generator_spec(options.spec);
  add_option_params(spec, extra_arguments);
  if (options.output.empty()) throw InvalidArgument("gen: no output file given (-o FILE)");
  const FileFormat format =
      file_format_from_path(options.output);  // refuse a bad name before the work
  const LabeledMatrix<double> data = generate_labeled(spec);
  const Csr<double>& a = data.features;
  if (data.labels.empty())
    write_matrix(options.output, a);
  else
    write_labeled_data(options.output, format, data);
  fmt::print("wrote {} ({}): {} x {}, {} non-zeros, from {}\n", options.output, to_string(format),
             a.rows, a.cols, a.nnz(), to_string(spec));
  return exit_success;
}

}  // namespace

Command add_gen_command(CLI::App& app) {
  auto options = std::make_shared<GenOptions>();
  CLI::App* command = app.add_subcommand(
      "gen",
      "write a generated matrix: spmv gen KIND[:name=value,...] [--name value ...] -o FILE\n"
      "e.g. spmv gen stencil27 --n 50 -o s.mtx, or spmv gen stencil27:n=50 -o s.mtx;\n"
      "spmv gen --list shows the kinds and their parameters");
  command->add_option("spec", options->spec, "generator: KIND or KIND:name=value,...");
  command->add_option("-o,--output", options->output,
                      "output file; format by extension (.mtx, .mtx.gz, .libsvm, .svm, .spmv)");
  command->add_flag("--list", options->list, "list the generator kinds and their parameters");
  command->allow_extras();  // the generator's own parameters, checked by generate()
  return {command, [options, command] { return run_gen(*options, command->remaining()); }};
}

}  // namespace spmv::cli
