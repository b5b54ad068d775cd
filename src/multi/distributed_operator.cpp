// The distributed operator's factory and its host parts (cpu and reference
// backends): every part's vectors in host memory, the exchange as copies
// between them in the order an MPI rank would do it (pack each send list,
// then each receiver copies its runs of ghosts), the parts' products one
// after the other (each uses every core through its own cpu operator).
// A partition with a row order wraps the operator of P A P^T (host or
// device parts) in one that moves the global vectors into and out of P's
// order on the host.
#include <algorithm>
#include <string>

#include "multi/dense_rows.hpp"
#include "multi/part_operators.hpp"
#include "spmv/error.hpp"
#ifdef SPMV_HAVE_CUDA
#include "cuda/peer_link.hpp"
#endif

namespace spmv {

namespace {

template <class T>
class HostDistributedOperator final : public DistributedOperator<T> {
 public:
  HostDistributedOperator(index_t rows, index_t cols, const Partition& partition, std::vector<PartMatrices<T>> parts,
                          const DistributedOptions& options)
      : DistributedOperator<T>(rows, cols, partition, options.exchange, exchange_volume(parts, options.exchange)),
        layout_(std::move(parts)) {
    const bool allgather = options.exchange == Exchange::allgather;
    for (const PartMatrices<T>& part : layout_) {
      HostPart state;
      state.ops = detail::plan_part(part, options.exchange, options.part_options);
      state.x.assign(allgather ? cols : part.column_end - part.column_begin, T(0));
      state.ghosts.assign(part.ghost_columns.size(), T(0));
      state.y.assign(part.row_end - part.row_begin, T(0));
      state.remote_y.assign(part.remote_rows.size(), T(0));
      state.ghost_shares.assign(part.ghost_columns.size(), T(0));
      for (const HaloSend& send : part.sends) state.send_buffers.emplace_back(send.local_columns.size());
      parts_.push_back(std::move(state));
    }
  }

  void load_x(const T* x) override {
    for (int p = 0; p < this->parts(); ++p) {
      const PartMatrices<T>& part = layout_[p];
      T* own = parts_[p].x.data() + (this->exchange_kind() == Exchange::allgather ? part.column_begin : 0);
      std::copy(x + part.column_begin, x + part.column_end, own);
    }
  }
  void load_y(const T* y) override {
    for (int p = 0; p < this->parts(); ++p)
      std::copy(y + layout_[p].row_begin, y + layout_[p].row_end, parts_[p].y.begin());
  }
  void store_y(T* y) override {
    for (int p = 0; p < this->parts(); ++p) std::copy(parts_[p].y.begin(), parts_[p].y.end(), y + layout_[p].row_begin);
  }

  void exchange() override {
    const int count = this->parts();
    if (this->exchange_kind() == Exchange::allgather) {
      for (int p = 0; p < count; ++p)
        for (int q = 0; q < count; ++q)
          if (q != p)
            std::copy(parts_[q].x.begin() + layout_[q].column_begin, parts_[q].x.begin() + layout_[q].column_end,
                      parts_[p].x.begin() + layout_[q].column_begin);
      return;
    }
    for (int q = 0; q < count; ++q)
      for (std::size_t s = 0; s < layout_[q].sends.size(); ++s) {
        const std::vector<index_t>& columns = layout_[q].sends[s].local_columns;
        std::vector<T>& buffer = parts_[q].send_buffers[s];
        for (std::size_t i = 0; i < columns.size(); ++i) buffer[i] = parts_[q].x[columns[i]];
      }
    for (int p = 0; p < count; ++p)
      for (const HaloReceive& receive : layout_[p].receives) {
        const std::vector<T>& buffer = parts_[receive.from].send_buffers[detail::send_index(layout_[receive.from], p)];
        std::copy(buffer.begin(), buffer.end(), parts_[p].ghosts.begin() + receive.offset);
      }
  }

  void multiply_part(int p, T alpha, T beta) override {
    HostPart& part = parts_.at(p);
    if (part.ops.block) {
      part.ops.block->apply(part.x.data(), part.y.data(), alpha, beta);
      return;
    }
    part.ops.local->apply(part.x.data(), part.y.data(), alpha, beta);
    if (!part.ops.remote) return;
    part.ops.remote->apply(part.ghosts.data(), part.remote_y.data(), T(1), T(0));
    add_remote_rows(layout_.at(p).remote_rows, part.remote_y.data(), alpha, part.y.data());
  }

  void run(T alpha, T beta) override {
    exchange();
    for (int p = 0; p < this->parts(); ++p) multiply_part(p, alpha, beta);
  }

  std::vector<std::vector<OperatorDescription>> describe_parts() const override {
    std::vector<std::vector<OperatorDescription>> descriptions;
    for (const HostPart& part : parts_) descriptions.push_back(part.ops.describe());
    return descriptions;
  }

 protected:
  void transposed_product(const T* x, T* y, T alpha, T beta) override {
    const int count = this->parts();
    if (this->exchange_kind() == Exchange::allgather) {  // the two full-length vectors made by the first call
      summed_.assign(static_cast<std::size_t>(this->cols()), T(0));
      part_product_.resize(summed_.size());
      for (int p = 0; p < count; ++p) {
        parts_[p].ops.block->apply_transposed(x + layout_[p].row_begin, part_product_.data(), T(1), T(0));
        for (std::size_t j = 0; j < summed_.size(); ++j) summed_[j] += part_product_[j];
      }
      scale_summed_products(summed_, alpha, beta, y);
      return;
    }
    // Each part's own columns of y from its local block; its ghosts' shares
    // from its remote block, on the rows that read ghosts.
    for (int p = 0; p < count; ++p) {
      const PartMatrices<T>& part = layout_[p];
      HostPart& state = parts_[p];
      const T* rows_of_x = x + part.row_begin;
      state.ops.local->apply_transposed(rows_of_x, y + part.column_begin, alpha, beta);
      if (!state.ops.remote) continue;
      for (std::size_t i = 0; i < state.remote_y.size(); ++i) state.remote_y[i] = rows_of_x[part.remote_rows[i]];
      state.ops.remote->apply_transposed(state.remote_y.data(), state.ghost_shares.data(), T(1), T(0));
    }
    // Each ghost's share added into its owner's entry of y.
    for (int p = 0; p < count; ++p)
      for (const HaloReceive& receive : layout_[p].receives) {
        const PartMatrices<T>& owner = layout_[receive.from];
        const std::vector<index_t>& columns = owner.sends[detail::send_index(owner, p)].local_columns;
        for (std::size_t i = 0; i < columns.size(); ++i)
          y[owner.column_begin + columns[i]] += alpha * parts_[p].ghost_shares[receive.offset + i];
      }
  }

  void matrix_product(const T* b, T* c, index_t k, Layout layout, T alpha, T beta) override {
    const bool allgather = this->exchange_kind() == Exchange::allgather;
    const index_t b_rows = this->cols(), c_rows = this->rows();
    if (allgather) detail::gather_dense_rows(b, b_rows, k, layout, b_rows, [](index_t i) { return i; }, b_rows_);
    for (int p = 0; p < this->parts(); ++p) {
      const PartMatrices<T>& part = layout_[p];
      const detail::PartOperators<T>& ops = parts_[p].ops;
      const auto part_row = [&part](index_t i) { return part.row_begin + i; };
      const index_t rows = part.row_end - part.row_begin;
      if (beta != T(0)) detail::gather_dense_rows(c, c_rows, k, layout, rows, part_row, c_rows_);
      c_rows_.resize(static_cast<std::size_t>(rows) * k);
      if (allgather) {
        ops.block->spmm(b_rows_.data(), c_rows_.data(), k, Layout::row_major, alpha, beta);
      } else {
        detail::gather_dense_rows(
            b, b_rows, k, layout, part.column_end - part.column_begin,
            [&part](index_t i) { return part.column_begin + i; }, b_rows_);
        ops.local->spmm(b_rows_.data(), c_rows_.data(), k, Layout::row_major, alpha, beta);
        if (ops.remote) {
          detail::gather_dense_rows(
              b, b_rows, k, layout, static_cast<index_t>(part.ghost_columns.size()),
              [&part](index_t i) { return part.ghost_columns[i]; }, ghost_rows_);
          remote_rows_.resize(part.remote_rows.size() * static_cast<std::size_t>(k));
          ops.remote->spmm(ghost_rows_.data(), remote_rows_.data(), k, Layout::row_major, T(1), T(0));
          add_remote_rows(part.remote_rows, remote_rows_.data(), alpha, c_rows_.data(), k);
        }
      }
      detail::scatter_dense_rows(c_rows_, rows, part_row, c, c_rows, k, layout);
    }
  }

 private:
  struct HostPart {
    detail::PartOperators<T> ops;
    std::vector<T> x;       // halo: the part's slice of x; allgather: all of x
    std::vector<T> ghosts;  // halo: the entries of other parts it reads
    std::vector<T> y;
    std::vector<T> remote_y;  // the remote product on the compressed rows (transposed: their x)
    std::vector<T> ghost_shares;  // transposed: the remote block's product, one entry per ghost
    std::vector<std::vector<T>> send_buffers;  // one per HaloSend
  };

  std::vector<PartMatrices<T>> layout_;
  std::vector<HostPart> parts_;
  std::vector<T> summed_, part_product_;  // all-gather's transposed product
  // spmm, row-major: a part's rows of B (all-gather: all), its ghosts', its
  // rows of C, its remote block's product
  std::vector<T> b_rows_, ghost_rows_, c_rows_, remote_rows_;
};

// The operator of a partition with a row order: `blocks` works on P A P^T
// (its partition the same row blocks without the order); x and y are
// gathered into P's order (x'[i] = x[row_order[i]]) on the way in and
// scattered back on the way out, through one host vector of the rows.
template <class T>
class ReorderedDistributedOperator final : public DistributedOperator<T> {
 public:
  ReorderedDistributedOperator(const Partition& partition, std::unique_ptr<DistributedOperator<T>> blocks)
      : DistributedOperator<T>(blocks->rows(), blocks->cols(), partition, blocks->exchange_kind(), blocks->volume()),
        blocks_(std::move(blocks)),
        reordered_(static_cast<std::size_t>(this->rows())),
        reordered_y_(reordered_.size()) {}

  void load_x(const T* x) override { blocks_->load_x(gathered(x)); }
  void load_y(const T* y) override { blocks_->load_y(gathered(y)); }
  void store_y(T* y) override {
    blocks_->store_y(reordered_.data());
    const std::vector<index_t>& order = this->partition().row_order;
    for (std::size_t i = 0; i < order.size(); ++i) y[order[i]] = reordered_[i];
  }
  void exchange() override { blocks_->exchange(); }
  void multiply_part(int part, T alpha, T beta) override { blocks_->multiply_part(part, alpha, beta); }
  void run(T alpha, T beta) override { blocks_->run(alpha, beta); }
  std::vector<std::vector<OperatorDescription>> describe_parts() const override { return blocks_->describe_parts(); }
  bool replays_graphs() const override { return blocks_->replays_graphs(); }
  std::string graph_refusal() const override { return blocks_->graph_refusal(); }
  bool pulls_from_peers() const override { return blocks_->pulls_from_peers(); }
  bool uses_nccl() const override { return blocks_->uses_nccl(); }

 protected:
  // A^T of P A P^T is P A^T P^T: x and y go through P's order as in apply.
  void transposed_product(const T* x, T* y, T alpha, T beta) override {
    const std::vector<index_t>& order = this->partition().row_order;
    if (beta != T(0))
      for (std::size_t i = 0; i < order.size(); ++i) reordered_y_[i] = y[order[i]];
    blocks_->apply_transposed(gathered(x), reordered_y_.data(), alpha, beta);
    for (std::size_t i = 0; i < order.size(); ++i) y[order[i]] = reordered_y_[i];
  }

  // P A P^T (P B) = P (A B): B's rows and C's go through P's order.
  void matrix_product(const T* b, T* c, index_t k, Layout layout, T alpha, T beta) override {
    const std::vector<index_t>& order = this->partition().row_order;
    const auto in_order = [&order](index_t i) { return order[i]; };
    const index_t n = this->rows();
    detail::gather_dense_rows(b, n, k, layout, n, in_order, reordered_b_);
    if (beta != T(0)) detail::gather_dense_rows(c, n, k, layout, n, in_order, reordered_c_);
    reordered_c_.resize(reordered_b_.size());
    blocks_->spmm(reordered_b_.data(), reordered_c_.data(), k, Layout::row_major, alpha, beta);
    detail::scatter_dense_rows(reordered_c_, n, in_order, c, n, k, layout);
  }

 private:
  const T* gathered(const T* vector) {
    const std::vector<index_t>& order = this->partition().row_order;
    for (std::size_t i = 0; i < order.size(); ++i) reordered_[i] = vector[order[i]];
    return reordered_.data();
  }

  std::unique_ptr<DistributedOperator<T>> blocks_;
  std::vector<T> reordered_;
  std::vector<T> reordered_y_;  // the transposed product's y (a square matrix: rows entries)
  std::vector<T> reordered_b_, reordered_c_;  // spmm's B and C in P's order, row-major
};

// The operator of parts that are contiguous row blocks of the matrix they were split from.
template <class T>
std::unique_ptr<DistributedOperator<T>> make_row_block_operator(index_t rows, index_t cols, const Partition& partition,
                                                                std::vector<PartMatrices<T>> parts,
                                                                const DistributedOptions& options) {
  switch (options.part_options.backend) {
    case Backend::reference:
    case Backend::cpu:
      if (options.nccl)
        throw InvalidArgument(std::string("DistributedOptions::nccl sends between devices: backend '") +
                              to_string(options.part_options.backend) + "' has none (use cuda or cusparse)");
      return std::make_unique<HostDistributedOperator<T>>(rows, cols, partition, std::move(parts), options);
    case Backend::cuda:
    case Backend::cusparse:
#ifdef SPMV_HAVE_CUDA
      if (!cuda_available())
        throw Unavailable(std::string("backend '") + to_string(options.part_options.backend) +
                          "' needs a CUDA device and none was found");
      return detail::make_device_distributed_operator(rows, cols, partition, std::move(parts), options);
#else
      throw Unavailable(std::string("backend '") + to_string(options.part_options.backend) +
                        "' is not in this build (configured without CUDA)");
#endif
  }
  throw InvalidArgument("unknown backend");
}

}  // namespace

template <class T>
std::unique_ptr<DistributedOperator<T>> make_distributed_operator(const Csr<T>& a, const Partition& partition,
                                                                  const DistributedOptions& options) {
  std::vector<PartMatrices<T>> parts = split_into_parts(a, partition, options.exchange);
  if (partition.row_order.empty()) return make_row_block_operator(a.rows, a.cols, partition, std::move(parts), options);
  Partition row_blocks = partition;
  row_blocks.row_order.clear();
  return std::make_unique<ReorderedDistributedOperator<T>>(
      partition, make_row_block_operator(a.rows, a.cols, row_blocks, std::move(parts), options));
}

ExchangeLink measure_exchange_link(const std::vector<int>& devices, bool replay_graphs, bool pull_from_peers) {
#ifdef SPMV_HAVE_CUDA
  return detail::measure_device_links(devices, replay_graphs, pull_from_peers);
#else
  (void)devices;
  (void)replay_graphs;
  (void)pull_from_peers;
  throw Unavailable("measure_exchange_link needs CUDA devices: this build was configured without CUDA");
#endif
}

template std::unique_ptr<DistributedOperator<float>> make_distributed_operator(const Csr<float>&, const Partition&,
                                                                               const DistributedOptions&);
template std::unique_ptr<DistributedOperator<double>> make_distributed_operator(const Csr<double>&, const Partition&,
                                                                                const DistributedOptions&);

}  // namespace spmv
