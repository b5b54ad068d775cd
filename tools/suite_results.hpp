// RESULTS/results.jsonl of `spmv suite`: one JSON object per line, one line
// per (matrix, kernel), appended as each measurement ends. What is already
// there lets a rerun resume: a unit (one matrix of a set, in one precision,
// for one k and, for SpMM, one layout of B and C) whose kernels were all measured is skipped; one cut short is
// removed and measured again whole, so that every unit's speed-ups come
// from one run.
#pragma once

#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "spmv/types.hpp"

namespace spmv::cli {

struct UnitKey {
  std::string set;
  std::string matrix;
  std::string precision;
  index_t k = 1;
  Layout layout = Layout::row_major;  // of B and C; the SpMV's is row-major
  bool operator<(const UnitKey& other) const;
};

// "backend/kernel", e.g. "cusparse/cusparse-csr-alg1".
std::string run_name(const std::string& backend, const std::string& kernel);

class ResultsFile {
 public:
  // Reads DIR/results.jsonl when it exists, creating DIR otherwise. A last
  // line cut short by an interrupted run is dropped (the file is rewritten
  // without it); any other line that is not a result is a ParseError.
  explicit ResultsFile(const std::string& dir);

  const std::string& path() const { return path_; }
  bool empty() const { return lines_.empty(); }
  // The device of the results already there ("" when they were measured on
  // the host); empty when there are none.
  std::optional<std::string> device_name() const;
  // The run names already measured for `unit`.
  std::set<std::string> measured(const UnitKey& unit) const;
  // Removes every line of these units, rewriting the file whole.
  void remove_units(const std::set<UnitKey>& units);
  // Appends one line and flushes it, so an interruption loses at most it.
  void append(const nlohmann::ordered_json& line);

 private:
  struct Line {
    std::string text;
    UnitKey unit;
    std::string run;
    std::string device;
  };
  // The fields of a line that resuming needs; throws nlohmann::json's
  // exceptions when the text is not a result line.
  static Line parse_line(const std::string& text);
  void rewrite();

  std::string path_;
  std::vector<Line> lines_;
  std::ofstream appender_;
};

}  // namespace spmv::cli
