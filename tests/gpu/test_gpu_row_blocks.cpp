// The row blocks of csr-adaptive and csr-hub built on the device are the host
// build's (build_row_blocks, the reference): the same pieces, cut rows and
// partial slots, on the zoo, the real matrices and generated shapes, with the
// two kernels' settings and a small capacity that cuts many rows.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cuda/csr_row_blocks.hpp"
#include "cuda/device_buffer.hpp"
#include "spmv/gen.hpp"
#include "test_support.hpp"

namespace spmv {
namespace {

struct Settings {
  index_t capacity;
  index_t longest_grouped;
  std::int64_t max_chunk;
};

void expect_same_blocks(const Csr<double>& a, const Settings& s, const std::string& name) {
  SCOPED_TRACE(name + ": capacity " + std::to_string(s.capacity) + ", longest grouped " +
               std::to_string(s.longest_grouped) + ", chunk " + std::to_string(s.max_chunk));
  const detail::RowBlocks host = detail::build_row_blocks(a.row_ptr, s.capacity, s.longest_grouped, s.max_chunk);
  const detail::DeviceBuffer<index_t> row_ptr(a.row_ptr, "test row_ptr");
  const detail::DeviceRowBlocks device =
      detail::build_row_blocks_on_device(row_ptr.data(), a.rows, s.capacity, s.longest_grouped, s.max_chunk, nullptr);
  EXPECT_EQ(device.partial_count, host.partial_count);
  const std::vector<detail::RowBlock> blocks = device.blocks.to_host();
  ASSERT_EQ(blocks.size(), host.blocks.size());
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    const detail::RowBlock &d = blocks[i], &h = host.blocks[i];
    ASSERT_TRUE(d.row_begin == h.row_begin && d.row_end == h.row_end && d.entry_begin == h.entry_begin &&
                d.entry_end == h.entry_end && d.partial == h.partial)
        << "block " << i << ": rows " << d.row_begin << ".." << d.row_end << " against " << h.row_begin << ".."
        << h.row_end << ", entries " << d.entry_begin << ".." << d.entry_end << " against " << h.entry_begin
        << ".." << h.entry_end << ", partial " << d.partial << " against " << h.partial;
  }
  ASSERT_EQ(device.cut_rows.size(), host.cut_rows.size());
  for (std::size_t i = 0; i < host.cut_rows.size(); ++i) {
    EXPECT_EQ(device.cut_rows[i].row, host.cut_rows[i].row);
    EXPECT_EQ(device.cut_rows[i].first, host.cut_rows[i].first);
    EXPECT_EQ(device.cut_rows[i].count, host.cut_rows[i].count);
  }
}

TEST(GpuRowBlocks, TheDeviceBuildIsTheHostBuild) {
  SPMV_GPU_TEST_PRELUDE();
  std::vector<test::ZooMatrix> matrices = test::zoo_and_real_matrices(4'000'000);
  for (const char* spec :
       {"rmat:scale=16,edge_factor=8", "fewhuge:rows=200000,cols=200000,per_row=3,huge_rows=5,huge_length=40000",
        "widelp:rows=300,cols=400000,per_row=3000", "stencil27:n=40", "uniform:rows=100000,cols=1000,per_row=1"})
    matrices.push_back({spec, generate(parse_generator_spec(spec))});
  // csr-adaptive's defaults (128 threads x 8 items in f32, x 4 in f64, less
  // the 3 entries of a block's alignment to loads of 4; 4 rounds), csr-hub's
  // (a warp x 4 items, rows of more than 32 alone, 4 rounds), and a small
  // capacity that cuts many rows.
  const std::vector<Settings> settings = {
      {1021, 1021, 4 * 1024}, {509, 509, 4 * 512}, {128, 32, 4 * 128}, {8, 4, 16}};
  for (const test::ZooMatrix& m : matrices)
    for (const Settings& s : settings) expect_same_blocks(m.matrix, s, m.name);
}

}  // namespace
}  // namespace spmv
