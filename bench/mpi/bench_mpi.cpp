// One MPI rank per GPU: the distributed product with each rank's vectors on
// its GPU and x moved by NCCL (MpiDeviceOperator), or with --host through
// the host and MPI (MpiOperator on the cuda backend), against the whole
// matrix on one GPU (rank 0, the same plan options) and cuSPARSE on it,
// measured in the same run. The distributed product is checked against the
// reference before it is timed.
//
// Timing: every run starts after an MPI_Barrier; a rank's time is its
// apply() until its stream (host: the call) is done; a run takes as long as
// its slowest rank. Medians of --runs runs after 3 warm-up runs. The
// one-GPU figures are medians of the same number of products, each waited
// for. Parallel efficiency = one GPU / (ranks x distributed).
//
// usage: mpirun -np N bench_mpi (--gen SPEC | FILE) [--exchange halo|allgather]
//        [--partition rows|nnz|graph] [--precision f64|f32] [--runs N] [--host] [--json FILE]
#include <cuda_runtime.h>
#include <fmt/core.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "spmv/gen.hpp"
#include "spmv/io.hpp"
#include "spmv/mpi.hpp"
#include "spmv/reference.hpp"
#include "spmv/verify.hpp"

namespace {

using namespace spmv;

struct Settings {
  std::string matrix;  // a file, or a generator spec with --gen
  bool generated = false;
  Exchange exchange = Exchange::halo;
  PartitionMethod method = PartitionMethod::nonzeros;
  bool f32 = false;
  int runs = 50;
  bool host = false;
  std::string json;
};

Settings parse(int argc, char** argv) {
  Settings s;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&] {
      if (i + 1 >= argc) throw InvalidArgument(arg + " needs a value");
      return std::string(argv[++i]);
    };
    if (arg == "--gen") {
      s.matrix = value();
      s.generated = true;
    } else if (arg == "--exchange") {
      s.exchange = exchange_from_string(value());
    } else if (arg == "--partition") {
      s.method = partition_method_from_string(value());
    } else if (arg == "--precision") {
      const std::string p = value();
      if (p != "f32" && p != "f64") throw InvalidArgument("--precision is f32 or f64, not " + p);
      s.f32 = p == "f32";
    } else if (arg == "--runs") {
      s.runs = std::stoi(value());
      if (s.runs < 1) throw InvalidArgument("--runs must be at least 1");
    } else if (arg == "--host") {
      s.host = true;
    } else if (arg == "--json") {
      s.json = value();
    } else if (!arg.empty() && arg[0] != '-' && s.matrix.empty()) {
      s.matrix = arg;
    } else {
      throw InvalidArgument("unknown argument " + arg);
    }
  }
  if (s.matrix.empty()) throw InvalidArgument("give a matrix file or --gen SPEC");
  return s;
}

double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A device array, freed with the object.
template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(const std::vector<T>& host) : size_(host.size()) {
    if (cudaMalloc(&data_, std::max<std::size_t>(1, size_) * sizeof(T)) != cudaSuccess)
      throw OutOfMemory(size_ * sizeof(T), 0, "bench_mpi vector");
    cudaMemcpy(data_, host.data(), size_ * sizeof(T), cudaMemcpyHostToDevice);
  }
  ~DeviceArray() { cudaFree(data_); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  T* data() { return data_; }
  std::vector<T> to_host() const {
    std::vector<T> host(size_);
    cudaMemcpy(host.data(), data_, size_ * sizeof(T), cudaMemcpyDeviceToHost);
    return host;
  }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

// Median seconds of one product of a whole-matrix operator on this rank's
// GPU, vectors on the device, each product waited for.
template <class T>
double one_gpu_seconds(const Csr<T>& a, const std::vector<T>& x, const PlanOptions& options, int runs,
                       std::string& kernel) {
  const auto op = plan(a, options);
  kernel = op->describe().kernel;
  DeviceArray<T> dx(x), dy(std::vector<T>(a.rows, T(0)));
  std::vector<double> seconds;
  for (int r = 0; r < runs + 3; ++r) {
    const auto start = std::chrono::steady_clock::now();
    op->apply(dx.data(), dy.data());
    cudaStreamSynchronize(static_cast<cudaStream_t>(options.stream));
    if (r >= 3) seconds.push_back(seconds_since(start));
  }
  return median(seconds);
}

// Every rank's y_local, in A's order, on rank 0.
template <class T>
std::vector<T> gathered_on_rank_0(const std::vector<T>& y_local, const Partition& partition, int rank) {
  const int ranks = partition.parts();
  std::vector<int> counts(ranks), offsets(ranks);
  for (int p = 0; p < ranks; ++p) {
    offsets[p] = partition.row_offsets[p];
    counts[p] = partition.row_offsets[p + 1] - partition.row_offsets[p];
  }
  std::vector<T> gathered(rank == 0 ? partition.row_offsets.back() : 0);
  const MPI_Datatype type = sizeof(T) == 4 ? MPI_FLOAT : MPI_DOUBLE;
  MPI_Gatherv(y_local.data(), static_cast<int>(y_local.size()), type, gathered.data(), counts.data(),
              offsets.data(), type, 0, MPI_COMM_WORLD);
  if (rank != 0 || partition.row_order.empty()) return gathered;
  std::vector<T> in_a_order(gathered.size());
  for (int p = 0, i = 0; p < ranks; ++p)
    for (const index_t row : partition.rows_of_part(p)) in_a_order[row] = gathered[i++];
  return in_a_order;
}

template <class T>
int run(const Settings& s, int rank, int ranks, int device) {
  const Csr<double> read = s.generated ? generate(parse_generator_spec(s.matrix)) : read_matrix<double>(s.matrix);
  const Csr<T> a = cast<T>(read);
  const Partition partition = spmv::partition(a, s.method, ranks);
  PlanOptions options;
  options.backend = Backend::cuda;
  options.device = device;
  options.expected_products = 1e6;  // each rank's fastest kernel, as `spmv bench --gpus` plans its parts
  cudaSetDevice(device);

  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<T> x(a.cols);
  for (T& v : x) v = static_cast<T>(uniform(rng));
  std::vector<index_t> own_x;
  if (partition.row_order.empty()) {
    own_x.resize(partition.column_offsets[rank + 1] - partition.column_offsets[rank]);
    std::iota(own_x.begin(), own_x.end(), partition.column_offsets[rank]);
  } else {
    own_x = partition.rows_of_part(rank);
  }
  std::vector<T> x_local;
  for (const index_t i : own_x) x_local.push_back(x[i]);
  const std::size_t rows_local = partition.rows_of_part(rank).size();

  // The distributed product, once to check and then timed.
  std::function<void()> product, wait = [] {};
  std::function<std::vector<T>()> result;
  std::unique_ptr<MpiDeviceOperator<T>> device_op;
  std::unique_ptr<MpiOperator<T>> host_op;
  std::vector<T> host_y(rows_local);
  std::unique_ptr<DeviceArray<T>> dx, dy;
  std::vector<OperatorDescription> parts;
  if (s.host) {
    host_op = std::make_unique<MpiOperator<T>>(a, partition, s.exchange, options, MPI_COMM_WORLD);
    product = [&] { host_op->apply(x_local.data(), host_y.data()); };
    result = [&] { return host_y; };
  } else {
    device_op = std::make_unique<MpiDeviceOperator<T>>(a, partition, s.exchange, options, MPI_COMM_WORLD);
    parts = device_op->describe();
    dx = std::make_unique<DeviceArray<T>>(x_local);
    dy = std::make_unique<DeviceArray<T>>(std::vector<T>(rows_local, T(0)));
    product = [&] { device_op->apply(dx->data(), dy->data()); };
    wait = [&] { cudaStreamSynchronize(static_cast<cudaStream_t>(options.stream)); };
    result = [&] { return dy->to_host(); };
  }
  product();
  wait();
  const std::vector<T> y = gathered_on_rank_0(result(), partition, rank);
  int verified = 1;
  if (rank == 0) {
    std::vector<double> reference(a.rows), scale(a.rows);
    reference_spmv(a, x.data(), static_cast<const T*>(nullptr), T(1), T(0), reference.data(), scale.data());
    const VerifyResult check = verify(y.data(), reference.data(), scale.data(), y.size());
    verified = check.ok;
    if (!check.ok) fmt::print("FAILED: the distributed product differs from the reference: {}\n", check.message);
  }
  MPI_Bcast(&verified, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!verified) return 1;

  std::vector<double> slowest, own;
  for (int r = 0; r < s.runs + 3; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    const auto start = std::chrono::steady_clock::now();
    product();
    wait();
    double seconds = seconds_since(start), most = 0;
    MPI_Allreduce(&seconds, &most, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (r < 3) continue;
    own.push_back(seconds);
    slowest.push_back(most);
  }
  const double distributed = median(slowest), own_median = median(own);
  std::vector<double> rank_medians(ranks);
  MPI_Gather(&own_median, 1, MPI_DOUBLE, rank_medians.data(), 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  std::string kernels;
  for (const OperatorDescription& d : parts) kernels += (kernels.empty() ? "" : "+") + d.kernel;
  const long long nnz_local = static_cast<long long>(a.row_ptr[partition.row_offsets[rank + 1]]) -
                              a.row_ptr[partition.row_offsets[rank]];
  std::vector<long long> rank_nnz(ranks);
  MPI_Gather(&nnz_local, 1, MPI_LONG_LONG, rank_nnz.data(), 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  std::vector<char> kernel_text(64, 0), all_kernels(64 * ranks, 0);
  kernels.copy(kernel_text.data(), 63);
  MPI_Gather(kernel_text.data(), 64, MPI_CHAR, all_kernels.data(), 64, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (rank != 0) return 0;

  std::string one_kernel, cusparse_kernel;
  const double one = one_gpu_seconds(a, x, options, s.runs, one_kernel);
  PlanOptions cusparse = options;
  cusparse.backend = Backend::cusparse;
  const double baseline = one_gpu_seconds(a, x, cusparse, s.runs, cusparse_kernel);
  cudaDeviceProp properties{};
  cudaGetDeviceProperties(&properties, device);
  fmt::print("matrix {}: {} x {}, {} non-zeros, {}; {}\n", s.matrix, a.rows, a.cols, a.nnz(), s.f32 ? "f32" : "f64",
             properties.name);
  fmt::print("{} MPI ranks, one per GPU, by {}, {} exchange, x {}; product checked against the reference\n", ranks,
             to_string(s.method), to_string(s.exchange),
             s.host ? "through the host (MpiOperator)" : "on the GPUs, moved by NCCL (MpiDeviceOperator)");
  fmt::print("{:<5} {:>12} {:<28} {:>12}\n", "rank", "non-zeros", "kernel(s)", "product ms");
  for (int p = 0; p < ranks; ++p)
    fmt::print("{:<5} {:>12} {:<28} {:>12.4f}\n", p, rank_nnz[p], s.host ? "-" : &all_kernels[64 * p],
               rank_medians[p] * 1e3);
  const double efficiency = one / (ranks * distributed);
  fmt::print("one GPU, whole matrix ({}): {:.4f} ms; cuSPARSE ({}): {:.4f} ms\n", one_kernel, one * 1e3,
             cusparse_kernel, baseline * 1e3);
  fmt::print("{} ranks (slowest rank per run): {:.4f} ms; parallel efficiency against one GPU: {:.3f}\n", ranks,
             distributed * 1e3, efficiency);
  if (!s.json.empty()) {
    std::ofstream out(s.json, std::ios::app);
    out << fmt::format(
        "{{\"matrix\": \"{}\", \"rows\": {}, \"nnz\": {}, \"precision\": \"{}\", \"gpu\": \"{}\", \"ranks\": {}, "
        "\"partition\": \"{}\", \"exchange\": \"{}\", \"vectors\": \"{}\", \"distributed_ms\": {}, "
        "\"one_gpu_ms\": {}, \"one_gpu_kernel\": \"{}\", \"cusparse_ms\": {}, \"efficiency\": {}}}\n",
        s.matrix, a.rows, a.nnz(), s.f32 ? "f32" : "f64", properties.name, ranks, to_string(s.method),
        to_string(s.exchange), s.host ? "host" : "device", distributed * 1e3, one * 1e3, one_kernel,
        baseline * 1e3, efficiency);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  int status = 1;
  try {
    const Settings settings = parse(argc, argv);
    // One rank per GPU of its node: the node-local rank picks the device.
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    int local_rank = 0, devices = 0;
    MPI_Comm_rank(node, &local_rank);
    MPI_Comm_free(&node);
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
      throw Unavailable("bench_mpi: rank " + std::to_string(rank) + " sees no CUDA device");
    status = settings.f32 ? run<float>(settings, rank, ranks, local_rank % devices)
                          : run<double>(settings, rank, ranks, local_rank % devices);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_mpi (rank %d): %s\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Finalize();
  return status;
}
