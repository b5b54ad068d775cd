// Partitions (equal rows, equal non-zeros, METIS's graph partition, the
// caller's), the local/remote split and halo lists, the exchange volume and
// model, and the distributed operator on the host backends against the
// reference, on the zoo and small real matrices for P = 1..4.
#include <gtest/gtest.h>

#include <numeric>
#include <set>

#include "distributed_products.hpp"
#include "multi/part_operators.hpp"
#include "spmv/distributed.hpp"
#include "spmv/gen.hpp"
#include "spmv/io.hpp"
#include "test_support.hpp"

namespace spmv {
namespace {

Csr<double> stencil() { return generate(parse_generator_spec("stencil5:n=12")); }

void expect_invalid(const std::function<void()>& call, const std::string& words) {
  try {
    call();
    ADD_FAILURE() << "no error; expected one saying '" << words << "'";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

TEST(Partition, EqualRows) {
  const Csr<double> a = stencil();  // 144 rows
  const Partition p = partition_rows(a, 3);
  EXPECT_EQ(p.row_offsets, (std::vector<index_t>{0, 48, 96, 144}));
  EXPECT_EQ(p.column_offsets, p.row_offsets);  // square: x follows y
  EXPECT_EQ(partition_rows(a, 1).row_offsets, (std::vector<index_t>{0, 144}));
}

TEST(Partition, EqualNonzerosBalancesAHeavyRow) {
  // Row 0 holds half of the non-zeros: PCSR-II gives it a part of its own.
  std::vector<std::tuple<index_t, index_t, double>> entries;
  for (index_t c = 0; c < 100; ++c) entries.emplace_back(0, c, 1.0);
  for (index_t r = 1; r < 100; ++r) entries.emplace_back(r, r, 1.0);
  const Csr<double> a = test::from_triplets(100, 100, entries);
  const Partition by_nnz = partition_nonzeros(a, 2);
  EXPECT_EQ(by_nnz.row_offsets, (std::vector<index_t>{0, 1, 100}));
  EXPECT_EQ(partition_rows(a, 2).row_offsets, (std::vector<index_t>{0, 50, 100}));
  // Every part keeps a row even when one row holds all the non-zeros.
  std::vector<std::tuple<index_t, index_t, double>> one_row;
  for (index_t c = 0; c < 10; ++c) one_row.emplace_back(9, c, 1.0);
  const Partition crowded = partition_nonzeros(test::from_triplets(10, 10, one_row), 4);
  for (int p = 0; p < 4; ++p) EXPECT_LT(crowded.row_offsets[p], crowded.row_offsets[p + 1]);
}

TEST(Partition, NonzerosWithinOneRowOfEqualShares) {
  const Csr<double> a = generate(parse_generator_spec("rmat:scale=11"));
  for (int parts : {2, 3, 4}) {
    const Partition p = partition_nonzeros(a, parts);
    index_t longest = 0;
    for (index_t r = 0; r < a.rows; ++r) longest = std::max(longest, a.row_length(r));
    for (int k = 0; k < parts; ++k) {
      const double share = double(a.row_ptr[p.row_offsets[k + 1]] - a.row_ptr[p.row_offsets[k]]);
      EXPECT_LE(std::abs(share - double(a.nnz()) / parts), 2.0 * longest) << "part " << k << " of " << parts;
    }
  }
}

TEST(Partition, BadPartitionsAreRefused) {
  const Csr<double> a = stencil();
  expect_invalid([&] { partition_rows(a, 0); }, "at least 1 part (got 0)");
  expect_invalid([&] { partition_nonzeros(a, -2); }, "at least 1 part (got -2)");
  expect_invalid([&] { partition_rows(a, 145); }, "cannot split 144 rows into 145 parts");
  expect_invalid([&] { partition_nonzeros(Csr<double>{}, 1); }, "cannot split 0 rows into 1 parts");
  expect_invalid([&] { partition_from_row_offsets(144, 144, {0, 50, 50, 144}); }, "part 1 of the partition is empty");
  expect_invalid([&] { partition_from_row_offsets(144, 144, {0, 80, 40, 144}); }, "part 1 of the partition is empty");
  expect_invalid([&] { partition_from_row_offsets(144, 144, {0, 100}); }, "from 0 to the 144 rows");
  expect_invalid([&] { split_into_parts(generate(parse_generator_spec("stencil5:n=5")), partition_rows(a, 2),
                                        Exchange::halo); },
                 "does not fit a 25 x 25 matrix");
  expect_invalid([&] { partition_method_from_string("metis"); }, "unknown partition 'metis' (partitions: rows, nnz, graph)");
  expect_invalid([&] { exchange_from_string("all"); }, "unknown exchange 'all'");
}

// The split and the graph partition read columns as indices: a bad one is
// refused with validate()'s message before anything is built.
TEST(Partition, MatricesWithBadColumnsAreRefused) {
  Csr<double> a = stencil();
  a.col_idx[a.row_ptr[70] + 1] = a.cols;
  const std::string expected = "entry " + std::to_string(a.row_ptr[70] + 1) + " (row 70, column 144) is out of range";
  expect_invalid([&] { split_into_parts(a, partition_rows(a, 2), Exchange::halo); }, expected);
  expect_invalid([&] { make_distributed_operator(a, partition_rows(a, 3), {}); }, expected);
  if (graph_partition_available()) expect_invalid([&] { partition_graph(a, 2); }, expected);
}

TEST(Split, LocalRemoteAndHaloListsOfATridiagonalMatrix) {
  // 6 x 6 tridiagonal over 3 parts of 2 rows: each part needs one neighbour
  // entry from each side.
  std::vector<std::tuple<index_t, index_t, double>> entries;
  for (index_t r = 0; r < 6; ++r)
    for (index_t c = std::max(0, r - 1); c <= std::min(5, r + 1); ++c) entries.emplace_back(r, c, 10.0 * r + c);
  const Csr<double> a = test::from_triplets(6, 6, entries);
  const auto parts = split_into_parts(a, partition_rows(a, 3), Exchange::halo);
  ASSERT_EQ(parts.size(), 3u);
  const PartMatrices<double>& middle = parts[1];
  EXPECT_EQ(middle.ghost_columns, (std::vector<index_t>{1, 4}));
  EXPECT_EQ(middle.local.cols, 2);
  EXPECT_EQ(middle.local.col_idx, (std::vector<index_t>{0, 1, 0, 1}));  // columns 2, 3 renumbered
  EXPECT_EQ(middle.remote.cols, 2);
  EXPECT_EQ(middle.remote.row_ptr, (std::vector<index_t>{0, 1, 2}));
  EXPECT_EQ(middle.remote.col_idx, (std::vector<index_t>{0, 1}));
  EXPECT_EQ(middle.remote.values, (std::vector<double>{21.0, 34.0}));
  EXPECT_EQ(middle.remote_rows, (std::vector<index_t>{0, 1}));
  // The first part's row 0 reads no ghost: its remote block keeps row 1 alone.
  EXPECT_EQ(parts[0].remote.rows, 1);
  EXPECT_EQ(parts[0].remote_rows, (std::vector<index_t>{1}));
  EXPECT_EQ(parts[0].remote.row_ptr, (std::vector<index_t>{0, 1}));
  EXPECT_EQ(parts[0].remote.values, (std::vector<double>{12.0}));
  ASSERT_EQ(middle.receives.size(), 2u);
  EXPECT_EQ(middle.receives[0].from, 0);
  EXPECT_EQ(middle.receives[0].offset, 0);
  EXPECT_EQ(middle.receives[1].from, 2);
  EXPECT_EQ(middle.receives[1].offset, 1);
  ASSERT_EQ(parts[0].sends.size(), 1u);
  EXPECT_EQ(parts[0].sends[0].to, 1);
  EXPECT_EQ(parts[0].sends[0].local_columns, (std::vector<index_t>{1}));  // global column 1
  ASSERT_EQ(parts[2].sends.size(), 1u);
  EXPECT_EQ(parts[2].sends[0].local_columns, (std::vector<index_t>{0}));  // global column 4

  const ExchangeVolume halo = exchange_volume(parts, Exchange::halo);
  EXPECT_EQ(halo.received_bytes, (std::vector<std::size_t>{8, 16, 8}));
  EXPECT_EQ(halo.sent_bytes, (std::vector<std::size_t>{8, 16, 8}));
  EXPECT_EQ(halo.messages_received, (std::vector<int>{1, 2, 1}));
  EXPECT_EQ(halo.packed_bytes, 32u);
  // Pulled, each ghost costs the 32-byte sector it falls in.
  EXPECT_EQ(halo.gathered_bytes, (std::vector<std::size_t>{32, 64, 32}));
  EXPECT_EQ(halo.served_bytes, (std::vector<std::size_t>{32, 64, 32}));
  // Links of 1 GB/s, 1 us a message and 0.25 us each further one: the
  // busiest part takes two messages and 16 bytes (pushed) or two sectors
  // (pulled). On one device the 32 bytes received and the 32 packed (pushed)
  // or the 128 gathered (pulled) share it; queued one by one all 4 messages
  // pay the latency, at once only the busiest part's 2 follow each other.
  const ExchangeLink link{1.0, 1e-6, 0.25e-6};
  EXPECT_DOUBLE_EQ(predicted_exchange_seconds_on_links(halo, link, false), 1.25e-6 + 16e-9);
  EXPECT_DOUBLE_EQ(predicted_exchange_seconds_on_links(halo, link, true), 1.25e-6 + 64e-9);
  EXPECT_DOUBLE_EQ(predicted_exchange_seconds_on_one_device(halo, link, false, false), 4e-6 + (32 + 32) * 1e-9);
  EXPECT_DOUBLE_EQ(predicted_exchange_seconds_on_one_device(halo, link, true, true), 1.25e-6 + 128e-9);

  const auto gathered = split_into_parts(a, partition_rows(a, 3), Exchange::allgather);
  EXPECT_EQ(gathered[1].block.cols, 6);
  EXPECT_EQ(gathered[1].block.col_idx, (std::vector<index_t>{1, 2, 3, 2, 3, 4}));
  const ExchangeVolume all = exchange_volume(gathered, Exchange::allgather);
  EXPECT_EQ(all.received_bytes, (std::vector<std::size_t>{32, 32, 32}));
  EXPECT_EQ(all.packed_bytes, 0u);
  EXPECT_EQ(all.gathered_bytes, (std::vector<std::size_t>{64, 64, 64}));  // two slices of 16 bytes each
  EXPECT_EQ(all.served_bytes, (std::vector<std::size_t>{64, 64, 64}));
}

TEST(Split, PulledGhostsCostTheSectorsTheyFallIn) {
  // 16 x 16, two parts of 8 rows and columns. Part 0 reads columns 8-11
  // (one sector of f64, entries 0-3 of part 1's slice); part 1 reads
  // columns 0 and 4 (two sectors of f64, one of f32).
  const Csr<double> a = test::from_triplets(
      16, 16, {{0, 8, 1.0}, {0, 9, 1.0}, {1, 10, 1.0}, {2, 11, 1.0}, {8, 0, 1.0}, {9, 4, 1.0}});
  const ExchangeVolume f64 = exchange_volume(split_into_parts(a, partition_rows(a, 2), Exchange::halo), Exchange::halo);
  EXPECT_EQ(f64.received_bytes, (std::vector<std::size_t>{32, 16}));
  EXPECT_EQ(f64.gathered_bytes, (std::vector<std::size_t>{32, 64}));
  EXPECT_EQ(f64.served_bytes, (std::vector<std::size_t>{64, 32}));
  const Csr<float> b = cast<float>(a);
  const ExchangeVolume f32 = exchange_volume(split_into_parts(b, partition_rows(b, 2), Exchange::halo), Exchange::halo);
  EXPECT_EQ(f32.received_bytes, (std::vector<std::size_t>{16, 8}));
  EXPECT_EQ(f32.gathered_bytes, (std::vector<std::size_t>{32, 32}));
}

TEST(Split, PartsReassembleTheMatrix) {
  // Every entry lands in exactly one part's local or remote block, at its
  // renumbered column; the send lists mirror the receive lists.
  for (const auto& m : test::matrix_zoo()) {
    const Csr<double>& a = m.matrix;
    for (int parts = 1; parts <= std::min<index_t>(4, a.rows); ++parts) {
      const Partition partition = partition_nonzeros(a, parts);
      const auto split = split_into_parts(a, partition, Exchange::halo);
      std::int64_t entries = 0;
      for (int p = 0; p < parts; ++p) {
        const PartMatrices<double>& part = split[p];
        entries += part.local.nnz() + part.remote.nnz();
        for (index_t r = 0; r < part.remote.rows; ++r)
          for (index_t k = part.remote.row_ptr[r]; k < part.remote.row_ptr[r + 1]; ++k) {
            const index_t global = part.ghost_columns[part.remote.col_idx[k]];
            EXPECT_TRUE(global < part.column_begin || global >= part.column_end) << m.name;
          }
        index_t received = 0;
        for (const HaloReceive& receive : part.receives) {
          received += receive.count;
          const auto& sends = split[receive.from].sends;
          const auto send = std::find_if(sends.begin(), sends.end(), [&](const HaloSend& s) { return s.to == p; });
          ASSERT_NE(send, sends.end()) << m.name;
          ASSERT_EQ(static_cast<index_t>(send->local_columns.size()), receive.count);
          for (index_t i = 0; i < receive.count; ++i)
            EXPECT_EQ(send->local_columns[i] + split[receive.from].column_begin,
                      part.ghost_columns[receive.offset + i]);
        }
        EXPECT_EQ(received, static_cast<index_t>(part.ghost_columns.size())) << m.name;
      }
      EXPECT_EQ(entries, a.nnz()) << m.name << " in " << parts << " parts";
    }
  }
}

// A device part with the overlap that receives from one owner multiplies its
// edges (the rows that read ghosts and their neighbours up to the longest run
// without) after the ghosts arrive: a slab of a grid has one at its inner
// end, and a part whose edges would hold over a quarter of its entries is
// not split.
TEST(Split, EdgesAreTheRowsAroundTheLongestRunWithoutGhosts) {
  const Csr<double> a = generate(parse_generator_spec("stencil5:n=20"));  // 20 grid rows of 20
  const auto halves = split_into_parts(a, partition_rows(a, 2), Exchange::halo);
  const detail::RowRange first = detail::interior_rows(halves[0].local, halves[0].remote_rows);
  const detail::RowRange second = detail::interior_rows(halves[1].local, halves[1].remote_rows);
  EXPECT_EQ(first.begin, 0);
  EXPECT_EQ(first.end, 180);  // the last grid row reads the other half's first
  EXPECT_EQ(second.begin, 20);
  EXPECT_EQ(second.end, 200);
  // Five grid rows a part: the middle parts' two edges hold 40% of their entries.
  const auto quarters = split_into_parts(a, partition_rows(a, 4), Exchange::halo);
  EXPECT_TRUE(detail::interior_rows(quarters[1].local, quarters[1].remote_rows).empty());
  EXPECT_FALSE(detail::interior_rows(quarters[0].local, quarters[0].remote_rows).empty());
  // Without ghosts, nothing to wait for.
  const auto whole = split_into_parts(a, partition_rows(a, 1), Exchange::halo);
  EXPECT_TRUE(detail::interior_rows(whole[0].local, whole[0].remote_rows).empty());

  PlanOptions options;
  options.backend = Backend::cpu;
  for (const bool edges_apart : {false, true}) {
    const detail::PartOperators<double> ops = detail::plan_part(halves[1], Exchange::halo, options, edges_apart);
    ASSERT_NE(ops.remote, nullptr);
    if (!edges_apart) {
      EXPECT_EQ(ops.local->rows(), 200);
      EXPECT_TRUE(ops.edges.empty());
      continue;
    }
    EXPECT_EQ(ops.local_begin, 20);
    EXPECT_EQ(ops.local->rows(), 180);
    ASSERT_EQ(ops.edges.size(), 1u);
    EXPECT_EQ(ops.edges[0].first_row, 0);
    EXPECT_EQ(ops.edges[0].op->rows(), 20);
    EXPECT_EQ(ops.describe().size(), 3u);  // the interior, the edge, the remote block
  }
  // A part that receives from two owners keeps its local block whole, even
  // with a long interior (18 of its 20 grid rows).
  const Csr<double> b = generate(parse_generator_spec("stencil5:n=60"));
  const auto thirds = split_into_parts(b, partition_rows(b, 3), Exchange::halo);
  ASSERT_EQ(thirds[1].receives.size(), 2u);
  EXPECT_FALSE(detail::interior_rows(thirds[1].local, thirds[1].remote_rows).empty());
  const detail::PartOperators<double> middle = detail::plan_part(thirds[1], Exchange::halo, options, true);
  EXPECT_TRUE(middle.edges.empty());
  EXPECT_EQ(middle.local->rows(), 1200);
}

// The graph partition needs METIS; a build without it refuses the method
// with Unavailable and these tests skip.
#define SKIP_WITHOUT_METIS() \
  if (!graph_partition_available()) GTEST_SKIP() << "this build has no METIS (SPMV_METIS)"

// The rows of A in the partition's order: part by part, each part's rows ascending.
void expect_parts_keep_their_rows_in_order(const Partition& p, index_t rows, const std::string& name) {
  std::vector<index_t> all;
  for (int k = 0; k < p.parts(); ++k) {
    const std::vector<index_t> part = p.rows_of_part(k);
    EXPECT_FALSE(part.empty()) << name << " part " << k;
    EXPECT_TRUE(std::is_sorted(part.begin(), part.end())) << name << " part " << k;
    all.insert(all.end(), part.begin(), part.end());
  }
  std::sort(all.begin(), all.end());
  std::vector<index_t> identity(static_cast<std::size_t>(rows));
  std::iota(identity.begin(), identity.end(), 0);
  EXPECT_EQ(all, identity) << name;
}

TEST(GraphPartition, ProductsOnTheSquareZooAndRealMatrices) {
  SKIP_WITHOUT_METIS();
  for (const auto& m : test::zoo_and_real_matrices(20000)) {
    if (m.matrix.rows != m.matrix.cols) {
      expect_invalid([&] { partition_graph(m.matrix, 1); }, "needs a square matrix");
      continue;
    }
    for (const Exchange exchange : {Exchange::halo, Exchange::allgather}) {
      DistributedOptions options;
      options.part_options.backend = Backend::cpu;
      options.exchange = exchange;
      for (int parts = 1; parts <= 4; ++parts) {
        if (parts > m.matrix.rows) {
          expect_invalid([&] { partition_graph(m.matrix, parts); }, "cannot split");
          continue;
        }
        test::check_distributed_products<double>(m.matrix, m.name, PartitionMethod::graph, parts, options);
        test::check_distributed_products<float>(m.matrix, m.name, PartitionMethod::graph, parts, options);
      }
    }
  }
}

TEST(GraphPartition, PartsAreBalancedInNonzerosAndKeepTheirRowsInOrder) {
  SKIP_WITHOUT_METIS();
  std::vector<test::ZooMatrix> matrices = test::zoo_and_real_matrices(200000);
  matrices.push_back({"stencil27 shuffled", test::symmetrically_shuffled(generate(parse_generator_spec("stencil27:n=20")), 5)});
  for (const auto& m : matrices) {
    const Csr<double>& a = m.matrix;
    if (a.rows != a.cols || a.rows < 1000) continue;  // balance is measured where every part has many rows
    index_t longest = 0;
    for (index_t r = 0; r < a.rows; ++r) longest = std::max(longest, a.row_length(r));
    for (int parts : {2, 3, 4, 8}) {
      const Partition p = partition_graph(a, parts);
      ASSERT_EQ(p.parts(), parts);
      expect_parts_keep_their_rows_in_order(p, a.rows, m.name);
      // METIS balances the rows' weights, non-zeros + 1 (the work of a row),
      // to 3% over an equal share; asserted: 5%, one row aside.
      const std::vector<std::int64_t> nonzeros = part_nonzeros(a, p);
      const double share = double(a.nnz() + a.rows) / parts;
      for (int k = 0; k < parts; ++k) {
        const double weight = double(nonzeros[k] + p.row_offsets[k + 1] - p.row_offsets[k]);
        EXPECT_LE(weight, 1.05 * share + longest + 1) << m.name << ", part " << k << " of " << parts;
      }
    }
  }
}

TEST(GraphPartition, ExchangesFarLessThanRowsAndNonzerosOnAShuffledStencil) {
  SKIP_WITHOUT_METIS();
  // A 27-point stencil on a 16^3 grid numbered in a random order: the
  // contiguous partitions cut the grid at random (each part receives nearly
  // all of the others' x), METIS finds compact parts back. Measured, bytes
  // received in all: 2 parts 4,096 against 32,768 (8x), 4 parts 9,872
  // against 97,744 (9.9x).
  const Csr<double> a = test::symmetrically_shuffled(generate(parse_generator_spec("stencil27:n=16")), 3);
  const auto halo_bytes = [&](const Partition& p) {
    return exchange_volume(split_into_parts(a, p, Exchange::halo), Exchange::halo).total_bytes();
  };
  for (int parts : {2, 4}) {
    const std::size_t graph = halo_bytes(partition_graph(a, parts));
    const std::size_t rows = halo_bytes(partition_rows(a, parts));
    const std::size_t nonzeros = halo_bytes(partition_nonzeros(a, parts));
    EXPECT_LT(6 * graph, rows) << parts << " parts: graph " << graph << " B, rows " << rows << " B";
    EXPECT_LT(6 * graph, nonzeros) << parts << " parts: graph " << graph << " B, nnz " << nonzeros << " B";
  }
}

TEST(GraphPartition, OnePartEdgelessAndDisconnectedMatrices) {
  SKIP_WITHOUT_METIS();
  const Csr<double> grid = stencil();
  // One part: the whole matrix in its own order.
  const Partition one = partition_graph(grid, 1);
  EXPECT_EQ(one.row_offsets, (std::vector<index_t>{0, 144}));
  EXPECT_TRUE(one.row_order.empty());
  // As many parts as rows: one row each.
  const Csr<double> small = generate(parse_generator_spec("stencil5:n=3"));
  const Partition each = partition_graph(small, 9);
  EXPECT_EQ(each.row_offsets, (std::vector<index_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  expect_parts_keep_their_rows_in_order(each, 9, "one row per part");
  // No edge (a diagonal matrix, or only empty rows): nothing to exchange,
  // the equal non-zeros split.
  std::vector<std::tuple<index_t, index_t, double>> diagonal;
  for (index_t r = 0; r < 10; ++r) diagonal.emplace_back(r, r, 1.0 + r);
  const Csr<double> d = test::from_triplets(10, 10, diagonal);
  EXPECT_EQ(partition_graph(d, 3).row_offsets, partition_nonzeros(d, 3).row_offsets);
  EXPECT_TRUE(partition_graph(d, 3).row_order.empty());
  const Csr<double> empty_rows = test::from_triplets(5, 5, {});
  EXPECT_EQ(partition_graph(empty_rows, 5).row_offsets, partition_nonzeros(empty_rows, 5).row_offsets);
  // Three components (pairs of coupled rows) and empty rows between them,
  // into more parts than components: every part gets a row.
  std::vector<std::tuple<index_t, index_t, double>> pairs;
  for (index_t r : {0, 4, 8}) {
    pairs.emplace_back(r, r + 1, 1.0);
    pairs.emplace_back(r + 1, r, 2.0);
  }
  const Csr<double> disconnected = test::from_triplets(10, 10, pairs);
  DistributedOptions options;
  options.part_options.backend = Backend::cpu;
  for (int parts = 2; parts <= 6; ++parts) {
    expect_parts_keep_their_rows_in_order(partition_graph(disconnected, parts), 10, "disconnected");
    test::check_distributed_products<double>(disconnected, "disconnected", PartitionMethod::graph, parts, options);
  }
}

TEST(GraphPartition, RefusesWhatItCannotSplit) {
  const Csr<double> wide = generate(parse_generator_spec("random:rows=20,cols=30,density=0.2"));
  expect_invalid([&] { partition_graph(wide, 2); }, "needs a square matrix (got 20 x 30)");
  expect_invalid([&] { partition(wide, PartitionMethod::graph, 2); }, "partition by rows or nnz instead");
  const Csr<double> grid = stencil();
  if (!graph_partition_available()) {
    EXPECT_THROW(partition_graph(grid, 2), Unavailable);
    return;
  }
  expect_invalid([&] { partition_graph(grid, 0); }, "at least 1 part (got 0)");
  expect_invalid([&] { partition_graph(grid, 145); }, "cannot split 144 rows into 145 parts");
  // A row order must fit the matrix it splits.
  const Partition p = partition_graph(grid, 3);
  ASSERT_FALSE(p.row_order.empty());
  expect_invalid([&] { split_into_parts(generate(parse_generator_spec("stencil5:n=5")), p, Exchange::halo); },
                 "does not fit a 25 x 25 matrix");
  Partition short_order = p;
  short_order.row_order.pop_back();
  expect_invalid([&] { split_into_parts(grid, short_order, Exchange::halo); }, "row order (143 rows) does not fit");
}

TEST(GraphPartition, TheOperatorKeepsTheCallersOrder) {
  SKIP_WITHOUT_METIS();
  // The parts hold x and y in the partition's order, the global vectors stay
  // in A's: the identity, with a shuffled grid's pattern as explicit zeros
  // off the diagonal (so that METIS moves rows), returns x where it was.
  const Csr<double> shuffled = test::symmetrically_shuffled(generate(parse_generator_spec("stencil5:n=10")), 2);
  std::vector<std::tuple<index_t, index_t, double>> entries;
  for (index_t r = 0; r < shuffled.rows; ++r)
    for (index_t k = shuffled.row_ptr[r]; k < shuffled.row_ptr[r + 1]; ++k)
      entries.emplace_back(r, shuffled.col_idx[k], shuffled.col_idx[k] == r ? 1.0 : 0.0);
  const Csr<double> identity = test::from_triplets(shuffled.rows, shuffled.cols, entries);
  const Partition p = partition_graph(identity, 4);
  ASSERT_FALSE(p.row_order.empty());
  DistributedOptions options;
  options.part_options.backend = Backend::cpu;
  for (const Exchange exchange : {Exchange::halo, Exchange::allgather}) {
    options.exchange = exchange;
    const auto op = make_distributed_operator(identity, p, options);
    EXPECT_EQ(op->partition().row_order, p.row_order);
    const auto x = test::random_vector<double>(identity.rows, 5);
    std::vector<double> y(identity.rows, 0.0);
    op->apply(x.data(), y.data());
    EXPECT_EQ(y, x) << to_string(exchange);
  }
}

TEST(DistributedOperator, HostBackendsOnTheZooAndRealMatrices) {
  for (const auto& m : test::zoo_and_real_matrices(20000)) {
    for (const Backend backend : {Backend::cpu, Backend::reference}) {
      if (backend == Backend::reference && m.matrix.nnz() > 5000) continue;  // the serial oracle: small ones
      for (const Exchange exchange : {Exchange::halo, Exchange::allgather}) {
        DistributedOptions options;
        options.part_options.backend = backend;
        options.exchange = exchange;
        for (int parts = 1; parts <= 4; ++parts) {
          if (parts > m.matrix.rows) {
            expect_invalid([&] { partition_rows(m.matrix, parts); }, "cannot split");
            continue;
          }
          for (const PartitionMethod method : {PartitionMethod::rows, PartitionMethod::nonzeros}) {
            test::check_distributed_products<double>(m.matrix, m.name, method, parts, options);
            const bool zoo = m.name.find(".mtx") == std::string::npos;  // real matrices: f64 only
            if (backend == Backend::cpu && zoo)
              test::check_distributed_products<float>(m.matrix, m.name, method, parts, options);
          }
        }
      }
    }
  }
}

TEST(DistributedOperator, EachPartHasItsOwnPlan) {
  const Csr<double> a = stencil();
  DistributedOptions options;
  options.part_options.backend = Backend::cpu;
  const auto op = make_distributed_operator(a, partition_rows(a, 3), options);
  const auto described = op->describe_parts();
  ASSERT_EQ(described.size(), 3u);
  for (const auto& part : described) {
    ASSERT_EQ(part.size(), 2u);  // the local and the remote block
    EXPECT_EQ(part[0].backend, Backend::cpu);
  }
  EXPECT_EQ(op->volume().total_bytes(), 4u * 12 * sizeof(double));  // two interfaces of 12, both ways
}

TEST(DistributedOperator, SpmmOfNoColumnsTouchesNothingAndNegativeColumnsAreRefused) {
  const Csr<double> a = stencil();
  DistributedOptions options;
  options.part_options.backend = Backend::cpu;
  const auto op = make_distributed_operator(a, partition_rows(a, 3), options);
  std::vector<double> c(static_cast<std::size_t>(a.rows), 7.0);
  op->spmm(nullptr, c.data(), 0, Layout::row_major, 1.0, 0.0);
  EXPECT_EQ(c, std::vector<double>(c.size(), 7.0));
  EXPECT_THROW(op->spmm(nullptr, c.data(), -1, Layout::col_major), InvalidArgument);
  options.nccl = true;  // NCCL sends between devices: host parts have none
  EXPECT_THROW(make_distributed_operator(a, partition_rows(a, 3), options), InvalidArgument);
}

TEST(DistributedOperator, CudaWithoutADeviceIsUnavailable) {
  if (cuda_available()) GTEST_SKIP() << "a CUDA device is present (tests/gpu covers it)";
  const Csr<double> a = stencil();
  DistributedOptions options;
  options.part_options.backend = Backend::cuda;
  EXPECT_THROW(make_distributed_operator(a, partition_rows(a, 2), options), Unavailable);
}

}  // namespace
}  // namespace spmv
