// Running the built `spmv` tool from the CLI tests and reading what it printed.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace spmv::test {

struct CliRun {
  int exit_code = -1;
  std::string out;
  std::string err;

  // Standard error split into lines (without the newlines).
  std::vector<std::string> error_lines() const {
    std::vector<std::string> lines;
    std::istringstream stream(err);
    for (std::string line; std::getline(stream, line);) lines.push_back(line);
    return lines;
  }
};

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Single-quoted for the shell.
inline std::string quoted(const std::string& word) {
  std::string q = "'";
  for (char ch : word) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

// Runs `spmv ARGUMENTS...` with standard output and error captured in files.
inline CliRun run_cli(const std::vector<std::string>& arguments) {
  static const std::string dir = temp_dir();
  const std::string out_path = dir + "/stdout", err_path = dir + "/stderr";
  std::string command = quoted(cli_path());
  for (const std::string& argument : arguments) command += " " + quoted(argument);
  command += " >" + quoted(out_path) + " 2>" + quoted(err_path) + " </dev/null";
  const int status = std::system(command.c_str());
  CliRun run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.out = read_text(out_path);
  run.err = read_text(err_path);
  return run;
}

inline std::string sample(const std::string& name) { return source_dir() + "/data/" + name; }

}  // namespace spmv::test
