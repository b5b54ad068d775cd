#include <chrono>
#include <cstdio>
#include <string>
#include "select/model.hpp"
int main() {
  using clk = std::chrono::steady_clock;
  const std::string text = spmv::detail::builtin_selector_model_text;
  for (int i = 0; i < 5; ++i) {
    auto t = clk::now();
    auto m = spmv::detail::parse_selector_model(text);
    double ms = std::chrono::duration<double, std::milli>(clk::now() - t).count();
    std::size_t trees = 0, nodes = 0;
    for (auto& k : m.kernels) { trees += k.trees.size(); for (auto& tr : k.trees) nodes += tr.value.size(); }
    std::printf("parse %.2f ms: %zu kernels, %zu trees, %zu nodes, %zu bytes\n", ms, m.kernels.size(), trees, nodes, text.size());
  }
}
