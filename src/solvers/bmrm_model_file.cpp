// BMRM model files: text, one "key value" per line in this order, then one
// weight per line:
//
//   spmv-bmrm-model 1
//   loss hinge|sqhinge|logistic
//   lambda 1e-05
//   bias_term 0|1
//   bias 0.25                  (0 when bias_term is 0)
//   label_negative -1          (the data's label predicted for w.x + bias <= 0)
//   label_positive 1
//   features N
//   w_1
//   ...
//   w_N
//
// Numbers are written with 17 significant digits, so a model reads back
// exactly. Reading treats the file as hostile: keys in order, every number
// finite, N at most the count of lines the file can hold, nothing after
// the last weight.
#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <string_view>

#include "io/input_file.hpp"
#include "io/output_file.hpp"
#include "spmv/bmrm.hpp"
#include "spmv/error.hpp"

namespace spmv {
namespace {

constexpr std::string_view model_magic = "spmv-bmrm-model 1";

class ModelLines {
 public:
  ModelLines(const std::string& path, const std::string& text) : path_(path), text_(text) {}

  std::string_view next() {
    if (position_ >= text_.size()) fail("the file ends early");
    const std::size_t end = text_.find('\n', position_);
    const std::size_t stop = end == std::string::npos ? text_.size() : end;
    std::string_view line(text_.data() + position_, stop - position_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    position_ = stop + 1;
    ++line_;
    return line;
  }
  bool at_end() const { return position_ >= text_.size(); }

  // The value of "key value" on the next line.
  std::string_view value_of(std::string_view key) {
    const std::string_view line = next();
    if (line.size() <= key.size() || line.substr(0, key.size()) != key || line[key.size()] != ' ')
      fail(fmt::format("expected '{} VALUE', found '{}'", key, line.substr(0, 60)));
    return line.substr(key.size() + 1);
  }
  double number(std::string_view text, std::string_view what) {
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
      fail(fmt::format("{} '{}' is not a finite number", what, text.substr(0, 60)));
    return value;
  }
  std::int64_t count(std::string_view text, std::int64_t limit, std::string_view what) {
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value < 0 || value > limit)
      fail(fmt::format("{} '{}' is not an integer in [0, {}]", what, text.substr(0, 60), limit));
    return value;
  }
  std::size_t size() const { return text_.size(); }
  [[noreturn]] void fail(const std::string& problem) const { throw ParseError(path_, line_, problem); }

 private:
  const std::string& path_;
  const std::string& text_;
  std::size_t position_ = 0;
  std::int64_t line_ = 0;
};

}  // namespace

void write_bmrm_model(const std::string& path, const BmrmResult& model) {
  std::string text = fmt::format(
      "{}\nloss {}\nlambda {:.17g}\nbias_term {}\nbias {:.17g}\nlabel_negative {:.17g}\n"
      "label_positive {:.17g}\nfeatures {}\n",
      model_magic, to_string(model.loss), model.lambda, model.bias_term ? 1 : 0, model.bias,
      model.labels.negative, model.labels.positive, model.w.size());
  for (double weight : model.w) text += fmt::format("{:.17g}\n", weight);
  io::OutputFile file(path);
  file.write(text);
  file.commit();
}

BmrmResult read_bmrm_model(const std::string& path) {
  const std::string text = io::read_whole_file(path);
  ModelLines lines(path, text);
  if (lines.next() != model_magic)
    lines.fail(fmt::format("not a BMRM model file (the first line must be '{}')", model_magic));
  BmrmResult model;
  try {
    model.loss = bmrm_loss_from_string(std::string(lines.value_of("loss")));
  } catch (const InvalidArgument& error) {
    lines.fail(error.what());
  }
  model.lambda = lines.number(lines.value_of("lambda"), "lambda");
  if (!(model.lambda > 0)) lines.fail("lambda must be positive");
  model.bias_term = lines.count(lines.value_of("bias_term"), 1, "bias_term") == 1;
  model.bias = lines.number(lines.value_of("bias"), "bias");
  model.labels.negative = lines.number(lines.value_of("label_negative"), "label_negative");
  model.labels.positive = lines.number(lines.value_of("label_positive"), "label_positive");
  if (!(model.labels.negative < model.labels.positive))
    lines.fail("label_negative must be smaller than label_positive");
  // Each weight needs at least two bytes ("0\n").
  const std::int64_t features = lines.count(lines.value_of("features"),
                                            static_cast<std::int64_t>(lines.size() / 2), "features");
  model.w.resize(static_cast<std::size_t>(features));
  for (double& weight : model.w) weight = lines.number(lines.next(), "weight");
  if (!lines.at_end()) lines.fail("unexpected text after the last weight");
  return model;
}

}  // namespace spmv
