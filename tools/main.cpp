// The `spmv` command-line tool: one file per subcommand (tools/cmd_*.cpp).
#include <cstdio>

int main() {
  std::puts("spmv: not yet built");
  return 0;
}
