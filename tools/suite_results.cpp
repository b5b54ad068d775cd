#include "suite_results.hpp"

#include <filesystem>
#include <sstream>
#include <tuple>

#include "cli_common.hpp"
#include "spmv/error.hpp"

namespace spmv::cli {

bool UnitKey::operator<(const UnitKey& other) const {
  return std::tie(set, matrix, precision, k, layout) <
         std::tie(other.set, other.matrix, other.precision, other.k, other.layout);
}

std::string run_name(const std::string& backend, const std::string& kernel) {
  return backend + "/" + kernel;
}

ResultsFile::ResultsFile(const std::string& dir) : path_(dir + "/results.jsonl") {
  std::filesystem::create_directories(dir);
  std::ifstream in(path_, std::ios::binary);
  if (!in) return;
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string content = buffer.str();
  bool cut_short = false;
  std::int64_t number = 0;
  for (std::size_t begin = 0; begin < content.size();) {
    std::size_t end = content.find('\n', begin);
    const bool last_without_newline = end == std::string::npos;
    if (last_without_newline) end = content.size();
    const std::string text = content.substr(begin, end - begin);
    begin = end + 1;
    ++number;
    try {
      lines_.push_back(parse_line(text));
    } catch (const nlohmann::json::exception& e) {
      if (!last_without_newline)
        throw ParseError(path_, number, std::string("not a result: ") + e.what());
      cut_short = true;  // an interrupted append: measured again
    }
    cut_short = cut_short || last_without_newline;
  }
  if (cut_short) rewrite();
}

std::optional<std::string> ResultsFile::device_name() const {
  if (lines_.empty()) return std::nullopt;
  return lines_.front().device;
}

std::set<std::string> ResultsFile::measured(const UnitKey& unit) const {
  std::set<std::string> runs;
  for (const Line& line : lines_)
    if (!(line.unit < unit) && !(unit < line.unit)) runs.insert(line.run);
  return runs;
}

void ResultsFile::remove_units(const std::set<UnitKey>& units) {
  if (units.empty()) return;
  std::vector<Line> kept;
  for (Line& line : lines_)
    if (!units.count(line.unit)) kept.push_back(std::move(line));
  lines_ = std::move(kept);
  rewrite();
}

void ResultsFile::rewrite() {
  appender_.close();
  std::string text;
  for (const Line& line : lines_) text += line.text + "\n";
  write_text_file(path_, text);
}

void ResultsFile::append(const nlohmann::ordered_json& line) {
  if (!appender_.is_open()) appender_.open(path_, std::ios::app | std::ios::binary);
  const std::string text = line.dump();
  appender_ << text << '\n';
  appender_.flush();
  if (!appender_) throw IoError("cannot append to '" + path_ + "'");
  lines_.push_back(parse_line(text));
}

ResultsFile::Line ResultsFile::parse_line(const std::string& text) {
  const nlohmann::json line = nlohmann::json::parse(text);
  const nlohmann::json& device = line.at("device");
  return {text,
          {line.at("set"), line.at("matrix").at("name"), line.at("precision"), line.at("k"),
           layout_from_string(line.value("layout", to_string(Layout::row_major)).c_str())},
          run_name(line.at("backend"), line.at("kernel")),
          device.is_null() ? "" : device.at("name").get<std::string>()};
}

}  // namespace spmv::cli
