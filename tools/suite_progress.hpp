// The progress of `spmv suite` on standard error: the share of the work done
// and an estimate of the time left, from the time the finished units took
// per unit of estimated cost. On a terminal one line is redrawn; otherwise
// one line is printed per finished unit.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace spmv::cli {

class SuiteProgress {
 public:
  // One estimated cost per unit to measure (any unit of measure, e.g. bytes
  // times kernels); a cost of 0 means "not known yet" and is estimated from
  // the known ones until set_cost() gives it.
  explicit SuiteProgress(std::vector<double> unit_costs);

  void set_cost(std::size_t unit, double cost);
  // The unit now measured, what it is doing, and how many of its
  // measurements are done; its time counts from the first update.
  void update(std::size_t unit, const std::string& label, int done, int total);
  void finish_unit(std::size_t unit, const std::string& label);
  // Estimated seconds to measure `unit`; 0 before a unit has finished.
  double estimated_seconds(std::size_t unit) const;
  double elapsed_seconds() const;
  // Ends the redrawn line (on a terminal).
  void close();

 private:
  double cost(std::size_t unit) const;
  double seconds_per_cost() const;
  // Redraws the bar (terminal) or prints the line of a finished unit;
  // `current_cost` is the finished part of the unit being measured.
  void draw(const std::string& label, double current_cost);

  using clock = std::chrono::steady_clock;
  std::vector<double> costs_;
  std::vector<bool> finished_;
  clock::time_point start_ = clock::now();
  clock::time_point unit_start_ = clock::now();
  std::size_t current_unit_ = static_cast<std::size_t>(-1);
  double finished_cost_ = 0;
  double finished_seconds_ = 0;
  std::size_t finished_count_ = 0;
  bool terminal_ = false;
  bool line_open_ = false;
};

// "1h02m", "3m05s", "42s".
std::string duration_text(double seconds);

}  // namespace spmv::cli
