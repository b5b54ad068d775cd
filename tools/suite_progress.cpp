#include "suite_progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cmath>
#include <numeric>

namespace spmv::cli {

std::string duration_text(double seconds) {
  const long s = std::lround(std::max(seconds, 0.0));
  if (s >= 3600) return fmt::format("{}h{:02}m", s / 3600, s % 3600 / 60);
  if (s >= 60) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}s", s);
}

SuiteProgress::SuiteProgress(std::vector<double> unit_costs)
    : costs_(std::move(unit_costs)), finished_(costs_.size(), false), terminal_(isatty(2)) {}

void SuiteProgress::set_cost(std::size_t unit, double cost) { costs_[unit] = cost; }

double SuiteProgress::cost(std::size_t unit) const {
  if (costs_[unit] > 0) return costs_[unit];
  // Not known yet: the mean of the known ones.
  double known = 0;
  std::size_t count = 0;
  for (double c : costs_)
    if (c > 0) known += c, ++count;
  return count ? known / count : 1.0;
}

double SuiteProgress::seconds_per_cost() const {
  return finished_cost_ > 0 ? finished_seconds_ / finished_cost_ : 0.0;
}

double SuiteProgress::estimated_seconds(std::size_t unit) const {
  return seconds_per_cost() * cost(unit);
}

double SuiteProgress::elapsed_seconds() const {
  return std::chrono::duration<double>(clock::now() - start_).count();
}

void SuiteProgress::update(std::size_t unit, const std::string& label, int done, int total) {
  if (unit != current_unit_) {
    current_unit_ = unit;
    unit_start_ = clock::now();
  }
  if (terminal_) draw(label, total > 0 ? cost(unit) * done / total : 0.0);
}

void SuiteProgress::finish_unit(std::size_t unit, const std::string& label) {
  finished_[unit] = true;
  ++finished_count_;
  finished_cost_ += cost(unit);
  finished_seconds_ += std::chrono::duration<double>(clock::now() - unit_start_).count();
  draw(label, 0.0);
}

void SuiteProgress::draw(const std::string& label, double current_cost) {
  double total = 0, done = 0;
  for (std::size_t u = 0; u < costs_.size(); ++u) {
    total += cost(u);
    if (finished_[u]) done += cost(u);
  }
  const double fraction = total > 0 ? (done + current_cost) / total : 1.0;
  const std::string eta =
      finished_cost_ > 0
          ? duration_text(seconds_per_cost() * (total - done - current_cost)) + " left"
          : "time left known after the first unit";
  if (terminal_) {
    const int width = 30;
    const int filled = static_cast<int>(fraction * width);
    fmt::print(stderr, "\r[{}{}] {:3.0f}% {}/{} units, {} | {}\x1b[K", std::string(filled, '#'),
               std::string(width - filled, '.'), 100 * fraction, finished_count_, costs_.size(),
               eta, label);
    line_open_ = true;
  } else if (current_cost == 0) {
    fmt::print(stderr, "suite: {:3.0f}% {}/{} units done in {}, {}; last: {}\n", 100 * fraction,
               finished_count_, costs_.size(), duration_text(elapsed_seconds()), eta, label);
  }
  std::fflush(stderr);
}

void SuiteProgress::close() {
  if (line_open_) fmt::print(stderr, "\n");
  line_open_ = false;
}

}  // namespace spmv::cli
