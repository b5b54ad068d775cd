// The `spmv` command-line tool: one file per subcommand (tools/cmd_*.cpp).
//
// Exit codes: 0 success, 1 a failed run (e.g. a result that fails
// verification), 2 bad usage or bad input. Every error is one line on
// standard error.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iterator>

#include "cli_common.hpp"
#include "spmv/version.hpp"

int main(int argc, char** argv) {
  using namespace spmv::cli;
  CLI::App app{"spmv: sparse matrix-vector (SpMV) and sparse-dense (SpMM) products"};
  app.set_version_flag("--version", [] { return spmv::version_text(); });
  app.require_subcommand(1);
  const Command commands[] = {add_info_command(app), add_gen_command(app), add_convert_command(app),
                              add_kernels_command(app), add_bench_command(app),
                              add_suite_command(app),   add_micro_command(app),
                              add_plan_command(app),    add_train_command(app),
                              add_predict_command(app),  add_solve_command(app)};

  // CLI11 would call an unknown command a missing one; name it instead.
  const auto is_command = [&](const char* name) {
    return std::any_of(std::begin(commands), std::end(commands),
                       [&](const Command& command) { return command.parser->check_name(name); });
  };
  if (argc > 1 && argv[1][0] != '-' && !is_command(argv[1])) {
    std::string names;
    for (const Command& command : commands) names += (names.empty() ? "" : ", ") + command.parser->get_name();
    print_error_line(std::string("unknown command '") + argv[1] + "' (commands: " + names +
                     "; see 'spmv --help')");
    return exit_bad_input;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) return app.exit(error);  // --help
    const CLI::App* command =
        app.get_subcommands().empty() ? nullptr : app.get_subcommands().front();
    print_error_line(std::string(error.what()) + " (see 'spmv " +
                     (command ? command->get_name() + " " : std::string()) + "--help')");
    return exit_bad_input;
  }

  try {
    for (const Command& command : commands)
      if (command.parser->parsed()) return command.run();
    return exit_bad_input;  // not reached: require_subcommand(1)
  } catch (const std::exception& error) {
    print_error_line(error.what());
    return exit_code_of(error);
  }
}
