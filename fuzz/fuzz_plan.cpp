// libFuzzer harness: plan_from_json on any text. A plan is read, or refused
// with ParseError; an accepted plan's JSON must read back to the same JSON
// (after one round, which normalises what it accepts, e.g. 2.0 for 2).
#include <cstdint>
#include <cstdlib>
#include <string>

#include "spmv/error.hpp"
#include "spmv/plan.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  spmv::Plan plan;
  try {
    plan = spmv::plan_from_json(std::string(reinterpret_cast<const char*>(data), size));
  } catch (const spmv::ParseError&) {
    return 0;
  }
  const std::string json = spmv::plan_to_json(plan);
  if (spmv::plan_to_json(spmv::plan_from_json(json)) != json) std::abort();
  return 0;
}
