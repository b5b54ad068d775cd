// The bit streams shared by the BRO formats: writer and reader agree on
// every field width, across symbol boundaries and in multiplexed layout.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "formats/bro_symbols.hpp"

namespace spmv::detail {
namespace {

TEST(BroSymbols, BitsNeededIsTheWidthOfTheValue) {
  EXPECT_EQ(bits_needed(0), 0);
  EXPECT_EQ(bits_needed(1), 1);
  EXPECT_EQ(bits_needed(2), 2);
  EXPECT_EQ(bits_needed(255), 8);
  EXPECT_EQ(bits_needed(256), 9);
  EXPECT_EQ(bits_needed(0xffffffffu), 32);
}

TEST(BroSymbols, FieldsArePackedMostSignificantBitFirst) {
  SymbolWriter writer;
  writer.put(0x5, 3);        // 101
  writer.put(0x0, 0);        // nothing
  writer.put(0x1ffffff, 25);  // 25 ones
  writer.put(0x2a, 6);       // 101010: straddles the first two symbols
  const std::vector<bro_symbol_t> symbols = writer.finish();
  ASSERT_EQ(symbols.size(), 2u);
  EXPECT_EQ(symbols[0], 0xbffffffau);  // 101 + 25 ones + 1010
  EXPECT_EQ(symbols[1], 0x80000000u);  // 10 then zero padding
  EXPECT_EQ(symbols_for_bits(34), 2);
}

TEST(BroSymbols, MultiplexedStreamsOfRandomWidthsRoundTrip) {
  constexpr int streams = 5;
  constexpr int fields = 300;
  std::mt19937 random(7);
  // All streams share the widths (one per column, as in a BRO-ELL slice).
  std::vector<int> widths(fields);
  for (int& w : widths) w = static_cast<int>(random() % 33);
  std::vector<std::vector<std::uint32_t>> values(streams, std::vector<std::uint32_t>(fields));
  std::vector<std::vector<bro_symbol_t>> encoded(streams);
  for (int s = 0; s < streams; ++s) {
    SymbolWriter writer;
    for (int f = 0; f < fields; ++f) {
      const std::uint64_t limit = std::uint64_t(1) << widths[f];
      values[s][f] = static_cast<std::uint32_t>(random() % limit);
      writer.put(values[s][f], widths[f]);
    }
    encoded[s] = writer.finish();
  }
  std::int64_t total_bits = 0;
  for (int w : widths) total_bits += w;
  const std::int64_t per_stream = symbols_for_bits(total_bits);
  std::vector<bro_symbol_t> multiplexed(per_stream * streams);
  for (int s = 0; s < streams; ++s) {
    ASSERT_EQ(static_cast<std::int64_t>(encoded[s].size()), per_stream);
    for (std::int64_t m = 0; m < per_stream; ++m) multiplexed[m * streams + s] = encoded[s][m];
  }
  for (int s = 0; s < streams; ++s) {
    SymbolReader reader(multiplexed.data() + s, streams);
    for (int f = 0; f < fields; ++f) ASSERT_EQ(reader.get(widths[f]), values[s][f]) << "stream " << s << " field " << f;
  }
}

}  // namespace
}  // namespace spmv::detail
