// Distributed SpMV: A split by rows into P parts, each part multiplied by its
// own Operator (its own plan: format and kernel chosen for its rows).
//
//   Partition parts = partition_nonzeros(a, 4);           // PCSR-II (He & Gao 2016)
//   auto op = make_distributed_operator(a, parts, {});    // cpu backend, halo exchange
//   op->apply(x, y);                                      // y = A x, global host vectors
//
// Layout (PETSc's MPIAIJ): part p owns rows [row_offsets[p], row_offsets[p+1])
// of A and y, and the entries [column_offsets[p], column_offsets[p+1]) of x.
// For a square matrix the column offsets are the row offsets; for a
// rectangular one the columns are split into equal counts (a part may own no
// entry of x when P > cols).
//
// The graph partition (METIS) gives each part rows scattered over A. It
// carries an order of the rows (Partition::row_order) that gathers each
// part's rows into one block: the parts then split P A P^T as above, and the
// distributed operator moves x and y between the caller's order and P's on
// the host (apply, load_x, load_y, store_y), the parts' own vectors staying
// in P's order.
//
// Exchange of x before the product:
//   allgather  (the paper's PCSR with communication): every part receives
//              every other part's x and multiplies its whole row block.
//   halo       each part's rows are split into the block on its own columns
//              (local, columns renumbered from 0) and the block on other
//              parts' columns (remote, its columns renumbered compactly in
//              ascending global order: the ghost vector). Send and receive
//              lists built here say which of its x entries each part sends to
//              whom; the local product overlaps the exchange, and the remote
//              block is multiplied once the ghosts have arrived.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "spmv/error.hpp"
#include "spmv/matrix.hpp"
#include "spmv/operator.hpp"

namespace spmv {

enum class PartitionMethod {
  rows,      // PCSR-I: equal numbers of rows
  nonzeros,  // PCSR-II: equal numbers of non-zeros (each part at least one row)
  graph,     // METIS k-way on A + A^T: balanced non-zeros, fewest x entries exchanged (square only)
};
enum class Exchange { allgather, halo };

const char* to_string(PartitionMethod method);
const char* to_string(Exchange exchange);
PartitionMethod partition_method_from_string(const std::string& name);  // throws InvalidArgument
Exchange exchange_from_string(const std::string& name);                  // throws InvalidArgument

struct Partition {
  std::vector<index_t> row_offsets;     // P + 1 entries, 0 .. rows, strictly increasing
  std::vector<index_t> column_offsets;  // P + 1 entries, 0 .. cols, non-decreasing
  // Empty: the offsets count A's own rows (rows, nnz). Otherwise (graph, a
  // square matrix) the order of P A P^T that the offsets count, as in
  // reorder.hpp: row_order[i] is A's row (and column) at position i.
  std::vector<index_t> row_order;

  int parts() const { return static_cast<int>(row_offsets.size()) - 1; }
  // A's rows that part p owns, in the part's order (its y entries, and its x
  // entries for a square matrix).
  std::vector<index_t> rows_of_part(int p) const;
};

// Throw InvalidArgument for parts < 1 and for parts > rows (every part needs
// a row), naming both numbers.
template <class T>
Partition partition_rows(const Csr<T>& a, int parts);
template <class T>
Partition partition_nonzeros(const Csr<T>& a, int parts);
// METIS_PartGraphKway on the graph of A + A^T without self loops, minimising
// the total communication volume (the x entries parts receive), vertex
// weights the rows' non-zeros plus one (an empty row still costs its y
// entry), parts within 3% of an equal weight (METIS's default). Rows without
// a neighbour go to the lightest parts after METIS. Every part gets at least
// one row (a part left empty takes a row from the largest). A graph without
// edges needs no exchange: it gets partition_nonzeros. Throws InvalidArgument for a rectangular matrix
// (rows and nnz take any shape) or one that validate() refuses, and Unavailable in a build without METIS.
template <class T>
Partition partition_graph(const Csr<T>& a, int parts);
// Whether this build has METIS (the graph partition).
bool graph_partition_available();
template <class T>
Partition partition(const Csr<T>& a, PartitionMethod method, int parts);
// Non-zeros of A in each part's rows.
template <class T>
std::vector<std::int64_t> part_nonzeros(const Csr<T>& a, const Partition& partition);
// A partition of the caller's row boundaries (columns as described above);
// throws InvalidArgument naming the first empty or out-of-order part.
Partition partition_from_row_offsets(index_t rows, index_t cols, std::vector<index_t> row_offsets);

// The entries of the sender's x slice (indices local to its slice) that go to
// part `to`, in the order the receiver stores them.
struct HaloSend {
  int to = 0;
  std::vector<index_t> local_columns;
};
// Where the entries from part `from` land in the receiver's ghost vector.
struct HaloReceive {
  int from = 0;
  index_t offset = 0;
  index_t count = 0;
};

// One part's share of A and its exchange lists.
template <class T>
struct PartMatrices {
  index_t row_begin = 0, row_end = 0;        // its rows of A and entries of y
  index_t column_begin = 0, column_end = 0;  // its entries of x
  Csr<T> local;   // rows x own columns (halo)
  // The rows that read ghosts x ghost columns (halo): remote row i is the
  // part's row remote_rows[i], so that the remote product touches those
  // entries of y alone (PETSc's compressed rows).
  Csr<T> remote;
  std::vector<index_t> remote_rows;
  Csr<T> block;   // rows x all columns (allgather)
  std::vector<index_t> ghost_columns;  // global column of each ghost entry, ascending (halo)
  std::vector<HaloSend> sends;         // halo, by receiving part
  std::vector<HaloReceive> receives;   // halo, by sending part
};

// Splits `a` (P A P^T for a partition with a row order) by the partition for
// the exchange (halo: local, remote, ghosts and the lists; allgather: the row
// block with its global columns). Throws InvalidArgument for a matrix that
// validate() refuses.
template <class T>
std::vector<PartMatrices<T>> split_into_parts(const Csr<T>& a, const Partition& partition, Exchange exchange);

// Bytes of x each part receives and sends per product, and messages.
struct ExchangeVolume {
  std::vector<std::size_t> received_bytes;
  std::vector<std::size_t> sent_bytes;
  std::vector<int> messages_received;
  std::size_t packed_bytes = 0;  // halo: x entries gathered into send buffers first (all parts)
  // When a part pulls (its gather kernel reads its ghosts from the owners'
  // x), memory moves in 32-byte sectors, not entries: the sectors of the
  // owners' slices its ghosts fall in (gathered_bytes) and the sectors the
  // other parts read of its slice (served_bytes). Scattered ghosts (a
  // power-law graph's) cost up to 32 / sizeof(T) times their bytes.
  std::vector<std::size_t> gathered_bytes;
  std::vector<std::size_t> served_bytes;
  std::size_t total_bytes() const;     // received by all parts
  std::size_t total_gathered() const;  // gathered by all parts
};
// The unit of a pulled ghost's read: an L2/DRAM sector of NVIDIA GPUs.
inline constexpr std::size_t gather_sector_bytes = 32;
// y[remote_rows[i]] += alpha remote_y[i]: a part's remote product, made on
// its compressed rows, added into the part's y (SpMM: rows of k entries,
// row-major).
template <class T>
void add_remote_rows(const std::vector<index_t>& remote_rows, const T* remote_y, T alpha, T* y, index_t k = 1) {
  const auto width = static_cast<std::size_t>(k);
  for (std::size_t i = 0; i < remote_rows.size(); ++i)
    for (std::size_t j = 0; j < width; ++j)
      y[static_cast<std::size_t>(remote_rows[i]) * width + j] += alpha * remote_y[i * width + j];
}
// y = alpha sum + beta y (beta == 0: y is not read): the all-gather's
// transposed product, once the parts' full-length products are summed.
template <class T>
void scale_summed_products(const std::vector<T>& sum, T alpha, T beta, T* y) {
  for (std::size_t j = 0; j < sum.size(); ++j) y[j] = alpha * sum[j] + (beta == T(0) ? T(0) : beta * y[j]);
}

template <class T>
ExchangeVolume exchange_volume(const std::vector<PartMatrices<T>>& parts, Exchange exchange);

// The links that x entries cross: from one device to another (peer reads or
// copies) or within one device (device copies), as measured by
// measure_exchange_link with every device of the exchange receiving at once.
struct ExchangeLink {
  // Bytes per second / 1e9 into each device by 64 MiB messages: the
  // receiver's gather from the sender's memory (pull) or a copy (push).
  double bandwidth_gbs = 0;
  // One small message into each device through the exchange's steps, all
  // waited for: the receiver's gather (pull), or packed on the sender, an
  // event, the copy on the receiver's stream (push).
  double latency_seconds = 0;
  // Each further small message into a device in the same steps (a second
  // sender): its kernel or copy, without another launch and wait.
  double message_seconds = 0;
};

// The exchange model, from the halo lists (ExchangeVolume) and a measured
// link; bandwidth and per-message latency, nothing fitted to the exchange.
// Each part on its own device: the parts receive at once, each its messages
// one after the other on its own stream, so the exchange takes as long as
// the busiest part: max_p (latency + (messages_p - 1) message +
// max(out_p, in_p) / bandwidth) over the parts that receive,
// where in and out are the sectors gathered and served when the parts pull,
// the bytes received and sent when they are pushed.
// All parts on one device: every byte shares the device's bandwidth, over
// all parts the gathered sectors (pull) or the received bytes plus the
// packed ones (push). The messages' latencies add up when one host thread
// queues them one after the other; replayed as a graph (messages_at_once)
// the parts receive at once: one latency, and the busiest part's further
// messages follow each other.
double predicted_exchange_seconds_on_links(const ExchangeVolume& volume, const ExchangeLink& link, bool pulled);
double predicted_exchange_seconds_on_one_device(const ExchangeVolume& volume, const ExchangeLink& device_copy,
                                                bool messages_at_once, bool pulled);

// Times messages into every device of `devices` at once, each from the next
// one in the list (the last from the first; one device: device copies), with
// peer access enabled where the pairs allow it: the median of one small
// message into each for the latency, of two for the further message's cost,
// of 64 MiB ones for the bandwidth, all waited for on
// every device as the distributed operator's exchange() waits. Each message
// is sent as exchange() sends it with DistributedOptions::replay_graphs (a
// replayed graph, or its steps queued one by one) and pull_from_peers.
// Throws Unavailable in a build without CUDA, InvalidArgument for an empty
// list, a repeated ordinal or one that is not a device of this machine.
ExchangeLink measure_exchange_link(const std::vector<int>& devices, bool replay_graphs = true,
                                   bool pull_from_peers = true);

struct DistributedOptions {
  // Options of every part's plan: backend (cpu, reference, cuda, cusparse),
  // kernel (empty: each part's own choice), precision-independent settings.
  PlanOptions part_options;
  Exchange exchange = Exchange::halo;
  // The CUDA device of part p is devices[p % devices.size()]; empty: every
  // part on part_options.device. Several parts may share a device (the
  // exchange is then device-to-device copies). Parts on different devices
  // copy x entries to each other directly (peer access) where the devices
  // allow it.
  std::vector<int> devices;
  // run() starts each part's local-block product while its ghosts are on the
  // way (halo on devices); false: every product waits for the exchange (the
  // paper's scheme, to measure what the overlap gains).
  bool overlap = true;
  // Devices: run(), exchange() and multiply_part() are captured into a CUDA
  // graph on their second call with the same scalars and replayed after: one
  // launch instead of a host call per kernel, copy and event. Steps that
  // cannot be captured are queued one by one, as with false.
  bool replay_graphs = true;
  // Devices: each part reads the x entries it needs straight from their
  // owners' memory (a gather kernel over peer access; parts on one device
  // always can), and each device's steps wait for no other device. false, or
  // a pair of devices without peer access: each owner packs the entries it
  // sends and the receiver copies the pack after an event.
  bool pull_from_peers = true;
  // Devices: the x entries travel by NCCL's point-to-point sends and
  // receives (one group of them over every part per exchange) instead of
  // the CUDA copies above: one part per device, the owners pack their send
  // lists (as with push), steps are queued one by one (not replayed), and
  // libnccl.so.2 is loaded at run time (Unavailable without it). The
  // transposed product and SpMM are not affected.
  bool nccl = false;
};

template <class T>
class DistributedOperator {
 public:
  virtual ~DistributedOperator() = default;
  DistributedOperator(const DistributedOperator&) = delete;
  DistributedOperator& operator=(const DistributedOperator&) = delete;

  index_t rows() const { return rows_; }
  index_t cols() const { return cols_; }
  int parts() const { return partition_.parts(); }
  const Partition& partition() const { return partition_; }
  Exchange exchange_kind() const { return exchange_; }
  const ExchangeVolume& volume() const { return volume_; }

  // y = alpha A x + beta y on global host vectors in the caller's order:
  // scatters x (and y when beta != 0) to the parts, runs, gathers y. With
  // beta == 0 y is not read.
  void apply(const T* x, T* y, T alpha = T(1), T beta = T(0)) {
    load_x(x);
    if (beta != T(0)) load_y(y);
    run(alpha, beta);
    store_y(y);
  }

  // y = alpha A^T x + beta y on global host vectors in the caller's order:
  // x of rows() entries, y of cols() (beta == 0: y is not read). Each part
  // multiplies its rows' entries of x by its blocks' transposes; what its
  // remote block gives for other parts' columns goes back to their owners
  // and is added there (the halo exchange reversed; all-gather: the parts'
  // full-length products are summed on the host). Uses vectors of its own:
  // the parts' x and y of the steps below keep their values.
  void apply_transposed(const T* x, T* y, T alpha = T(1), T beta = T(0)) { transposed_product(x, y, alpha, beta); }

  // C = alpha A B + beta C on global host matrices in the caller's order: B
  // of cols() x k and C of rows() x k, both in `layout` without padding
  // (beta == 0: C is not read). Each part's operators multiply its rows of B
  // for the k columns at once (reading their matrices once): halo, its own
  // rows and its ghosts', which go from the caller's B straight to the part
  // that reads them (fewer bytes than each owner's rows sent on again);
  // all-gather, every row. Uses buffers of its own, as apply_transposed.
  void spmm(const T* b, T* c, index_t k, Layout layout, T alpha = T(1), T beta = T(0)) {
    if (k < 0) throw InvalidArgument("distributed spmm: k = " + std::to_string(k) + " columns (must be >= 0)");
    if (k > 0) matrix_product(b, c, k, layout, alpha, beta);
  }

  // The steps, on vectors resident in the parts (what a solver iterates and
  // what the benchmark times). Each returns once its work has completed.
  // The global vectors are in the caller's order; under a row order the
  // parts hold theirs in P's order.
  virtual void load_x(const T* x) = 0;  // each part takes its slice of global x
  virtual void load_y(const T* y) = 0;
  virtual void store_y(T* y) = 0;       // each part's slice into global y
  virtual void exchange() = 0;          // x entries to the parts that need them
  // Part p's product alone (x exchanged before): y_p = alpha A_p x + beta y_p.
  virtual void multiply_part(int part, T alpha, T beta) = 0;
  // The exchange and every part's product, overlapped where the backend can.
  virtual void run(T alpha, T beta) = 0;

  // Each part's operators: allgather one (its row block), halo the local
  // block's then the remote block's (absent when the part has no ghosts).
  virtual std::vector<std::vector<OperatorDescription>> describe_parts() const = 0;
  // Whether the last step ran as a replayed CUDA graph
  // (DistributedOptions::replay_graphs; false on the host).
  virtual bool replays_graphs() const { return false; }
  // Why the last step's capture was refused (a step that a CUDA graph cannot
  // hold: it is queued one by one); empty when it was not.
  virtual std::string graph_refusal() const { return {}; }
  // Whether the parts read their x entries from the owners' memory
  // (DistributedOptions::pull_from_peers and peer access; false on the host).
  virtual bool pulls_from_peers() const { return false; }
  // Whether the exchange goes through NCCL (DistributedOptions::nccl).
  virtual bool uses_nccl() const { return false; }

 protected:
  DistributedOperator(index_t rows, index_t cols, Partition partition, Exchange exchange, ExchangeVolume volume)
      : rows_(rows), cols_(cols), partition_(std::move(partition)), exchange_(exchange), volume_(std::move(volume)) {}
  virtual void transposed_product(const T* x, T* y, T alpha, T beta) = 0;
  virtual void matrix_product(const T* b, T* c, index_t k, Layout layout, T alpha, T beta) = 0;

 private:
  index_t rows_;
  index_t cols_;
  Partition partition_;
  Exchange exchange_;
  ExchangeVolume volume_;
};

// Plans every part (its own plan through make_plan/make_operator) and makes
// the exchange buffers. Throws what plan() throws, and InvalidArgument when
// the partition does not fit `a`.
template <class T>
std::unique_ptr<DistributedOperator<T>> make_distributed_operator(const Csr<T>& a, const Partition& partition,
                                                                  const DistributedOptions& options = {});

}  // namespace spmv
