// Splitting A into its parts' blocks (PETSc-style local/remote for the halo
// exchange, the whole row block for the all-gather), the send and receive
// lists, and the exchange's byte count and model (distributed.hpp).
#include <algorithm>
#include <limits>
#include <numeric>
#include <string>

#include "spmv/distributed.hpp"
#include "spmv/error.hpp"
#include "spmv/reorder.hpp"

namespace spmv {

namespace {

// The part owning global column c (column ranges may be empty).
int column_owner(const Partition& partition, index_t c) {
  const auto& offsets = partition.column_offsets;
  return static_cast<int>(std::upper_bound(offsets.begin(), offsets.end(), c) - offsets.begin()) - 1;
}

void check_fits(const Partition& partition, index_t rows, index_t cols) {
  const int parts = partition.parts();
  if (parts < 1 || static_cast<int>(partition.column_offsets.size()) != parts + 1 ||
      partition.row_offsets.back() != rows || partition.column_offsets.back() != cols)
    throw InvalidArgument("the partition (" + std::to_string(parts) + " parts of " +
                          std::to_string(partition.row_offsets.empty() ? 0 : partition.row_offsets.back()) +
                          " rows) does not fit a " + std::to_string(rows) + " x " + std::to_string(cols) + " matrix");
  if (!partition.row_order.empty() && (rows != cols || static_cast<index_t>(partition.row_order.size()) != rows))
    throw InvalidArgument("the partition's row order (" + std::to_string(partition.row_order.size()) +
                          " rows) does not fit a " + std::to_string(rows) + " x " + std::to_string(cols) +
                          " matrix: it orders the rows and columns of a square one");
}

// Rows [begin, end) of `a` with the columns `keep` accepts, renumbered by `column_of`.
template <class T, class Keep, class ColumnOf>
Csr<T> row_block(const Csr<T>& a, index_t begin, index_t end, index_t cols, Keep keep, ColumnOf column_of) {
  Csr<T> block;
  block.rows = end - begin;
  block.cols = cols;
  for (index_t r = begin; r < end; ++r) {
    for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      if (!keep(a.col_idx[k])) continue;
      block.col_idx.push_back(column_of(a.col_idx[k]));
      block.values.push_back(a.values[k]);
    }
    block.row_ptr.push_back(static_cast<index_t>(block.col_idx.size()));
  }
  return block;
}

// Drops the rows of `block` without entries; rows[i] becomes the old index
// of its row i.
template <class T>
void keep_rows_with_entries(Csr<T>& block, std::vector<index_t>& rows) {
  rows.clear();
  std::vector<index_t> row_ptr{0};
  for (index_t r = 0; r < block.rows; ++r)
    if (block.row_ptr[r + 1] > block.row_ptr[r]) {
      rows.push_back(r);
      row_ptr.push_back(block.row_ptr[r + 1]);
    }
  block.row_ptr = std::move(row_ptr);
  block.rows = static_cast<index_t>(rows.size());
}

// split_into_parts on a matrix whose parts are contiguous row blocks.
template <class T>
std::vector<PartMatrices<T>> split_row_blocks(const Csr<T>& a, const Partition& partition, Exchange exchange) {
  const int parts = partition.parts();
  std::vector<PartMatrices<T>> result(parts);
  for (int p = 0; p < parts; ++p) {
    PartMatrices<T>& part = result[p];
    part.row_begin = partition.row_offsets[p];
    part.row_end = partition.row_offsets[p + 1];
    part.column_begin = partition.column_offsets[p];
    part.column_end = partition.column_offsets[p + 1];
    const index_t first = part.column_begin, last = part.column_end;
    if (exchange == Exchange::allgather) {
      part.block = row_block(a, part.row_begin, part.row_end, a.cols, [](index_t) { return true; },
                             [](index_t c) { return c; });
      continue;
    }
    const auto own = [&](index_t c) { return c >= first && c < last; };
    part.local = row_block(a, part.row_begin, part.row_end, last - first, own, [&](index_t c) { return c - first; });
    for (index_t k = a.row_ptr[part.row_begin]; k < a.row_ptr[part.row_end]; ++k)
      if (!own(a.col_idx[k])) part.ghost_columns.push_back(a.col_idx[k]);
    std::sort(part.ghost_columns.begin(), part.ghost_columns.end());
    part.ghost_columns.erase(std::unique(part.ghost_columns.begin(), part.ghost_columns.end()),
                             part.ghost_columns.end());
    const auto& ghosts = part.ghost_columns;
    part.remote = row_block(a, part.row_begin, part.row_end, static_cast<index_t>(ghosts.size()),
                            [&](index_t c) { return !own(c); }, [&](index_t c) {
                              return static_cast<index_t>(std::lower_bound(ghosts.begin(), ghosts.end(), c) -
                                                          ghosts.begin());
                            });
    keep_rows_with_entries(part.remote, part.remote_rows);
    // Ghosts ascend, so each owner's are one run: one receive per owner.
    for (std::size_t g = 0; g < ghosts.size();) {
      const int owner = column_owner(partition, ghosts[g]);
      std::size_t end = g;
      while (end < ghosts.size() && ghosts[end] < partition.column_offsets[owner + 1]) ++end;
      part.receives.push_back({owner, static_cast<index_t>(g), static_cast<index_t>(end - g)});
      g = end;
    }
  }
  // The senders' lists mirror the receivers'.
  for (int p = 0; p < parts; ++p) {
    for (const HaloReceive& receive : result[p].receives) {
      PartMatrices<T>& sender = result[receive.from];
      HaloSend send{p, {}};
      for (index_t g = receive.offset; g < receive.offset + receive.count; ++g)
        send.local_columns.push_back(result[p].ghost_columns[g] - sender.column_begin);
      sender.sends.push_back(std::move(send));
    }
  }
  return result;
}

}  // namespace

template <class T>
std::vector<PartMatrices<T>> split_into_parts(const Csr<T>& a, const Partition& partition, Exchange exchange) {
  check_fits(partition, a.rows, a.cols);
  validate(a);  // the split reads columns as indices
  if (partition.row_order.empty()) return split_row_blocks(a, partition, exchange);
  const std::vector<index_t>& order = partition.row_order;
  return split_row_blocks(reorder(a, MatrixOrdering{Reordering::none, order, order, 0.0}), partition, exchange);
}

std::size_t ExchangeVolume::total_bytes() const {
  return std::accumulate(received_bytes.begin(), received_bytes.end(), std::size_t{0});
}

std::size_t ExchangeVolume::total_gathered() const {
  return std::accumulate(gathered_bytes.begin(), gathered_bytes.end(), std::size_t{0});
}

namespace {

// Bytes of the sectors that entries `first` to `last` (ascending, indices in
// an array of T starting on a sector) fall in.
template <class T, class Entries>
std::size_t sector_bytes_of(Entries first, Entries last, index_t entry_base) {
  std::size_t sectors = 0;
  std::size_t previous = std::numeric_limits<std::size_t>::max();
  for (; first != last; ++first) {
    const std::size_t sector = static_cast<std::size_t>(*first - entry_base) * sizeof(T) / gather_sector_bytes;
    sectors += sector != previous;
    previous = sector;
  }
  return sectors * gather_sector_bytes;
}

}  // namespace

template <class T>
ExchangeVolume exchange_volume(const std::vector<PartMatrices<T>>& parts, Exchange exchange) {
  const int count = static_cast<int>(parts.size());
  ExchangeVolume volume;
  volume.received_bytes.assign(count, 0);
  volume.sent_bytes.assign(count, 0);
  volume.messages_received.assign(count, 0);
  volume.gathered_bytes.assign(count, 0);
  volume.served_bytes.assign(count, 0);
  const auto whole_sectors = [](std::size_t bytes) {
    return (bytes + gather_sector_bytes - 1) / gather_sector_bytes * gather_sector_bytes;
  };
  for (int p = 0; p < count; ++p) {
    if (exchange == Exchange::allgather) {
      // Every other part's slice in, this part's slice out to every other part.
      const std::size_t own = static_cast<std::size_t>(parts[p].column_end - parts[p].column_begin);
      const std::size_t all = static_cast<std::size_t>(parts.back().column_end);
      volume.received_bytes[p] = (all - own) * sizeof(T);
      volume.sent_bytes[p] = own * (count - 1) * sizeof(T);
      volume.messages_received[p] = count - 1;
      for (int q = 0; q < count; ++q) {
        const auto slice = static_cast<std::size_t>(parts[q].column_end - parts[q].column_begin);
        if (q != p) volume.gathered_bytes[p] += whole_sectors(slice * sizeof(T));
      }
      volume.served_bytes[p] = whole_sectors(own * sizeof(T)) * (count - 1);
      continue;
    }
    for (const HaloReceive& receive : parts[p].receives) {
      volume.received_bytes[p] += static_cast<std::size_t>(receive.count) * sizeof(T);
      ++volume.messages_received[p];
      const auto ghosts = parts[p].ghost_columns.begin() + receive.offset;
      const std::size_t sectors =
          sector_bytes_of<T>(ghosts, ghosts + receive.count, parts[receive.from].column_begin);
      volume.gathered_bytes[p] += sectors;
      volume.served_bytes[receive.from] += sectors;
    }
    for (const HaloSend& send : parts[p].sends) volume.sent_bytes[p] += send.local_columns.size() * sizeof(T);
    volume.packed_bytes += volume.sent_bytes[p];
  }
  return volume;
}

double predicted_exchange_seconds_on_links(const ExchangeVolume& volume, const ExchangeLink& link, bool pulled) {
  double busiest = 0;
  for (std::size_t p = 0; p < volume.received_bytes.size(); ++p) {
    const std::size_t bytes = pulled ? std::max(volume.gathered_bytes[p], volume.served_bytes[p])
                                     : std::max(volume.received_bytes[p], volume.sent_bytes[p]);
    const int messages = volume.messages_received[p];
    if (messages == 0) continue;
    busiest = std::max(busiest, link.latency_seconds + (messages - 1) * link.message_seconds +
                                    static_cast<double>(bytes) / (link.bandwidth_gbs * 1e9));
  }
  return busiest;
}

double predicted_exchange_seconds_on_one_device(const ExchangeVolume& volume, const ExchangeLink& device_copy,
                                                bool messages_at_once, bool pulled) {
  const auto& messages = volume.messages_received;
  const std::size_t bytes = pulled ? volume.total_gathered() : volume.total_bytes() + volume.packed_bytes;
  const double transfer = static_cast<double>(bytes) / (device_copy.bandwidth_gbs * 1e9);
  const int busiest = messages.empty() ? 0 : *std::max_element(messages.begin(), messages.end());
  if (busiest == 0) return transfer;
  if (!messages_at_once)
    return std::accumulate(messages.begin(), messages.end(), 0) * device_copy.latency_seconds + transfer;
  return device_copy.latency_seconds + (busiest - 1) * device_copy.message_seconds + transfer;
}

#define SPMV_INSTANTIATE_SPLIT(T)                                                                         \
  template std::vector<PartMatrices<T>> split_into_parts(const Csr<T>&, const Partition&, Exchange);     \
  template ExchangeVolume exchange_volume(const std::vector<PartMatrices<T>>&, Exchange);
SPMV_INSTANTIATE_SPLIT(float)
SPMV_INSTANTIATE_SPLIT(double)

}  // namespace spmv
