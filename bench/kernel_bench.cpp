// Emitted kernels against Eigen on this machine, one core each: GEMM at 1024^3 and 2048^3, and
// the fused FFN pairs (MMEE's BERT-width case and a narrow MLP) and fused attention (2K) against
// the same computations done unfused with Eigen. Kernels are emitted for
// hw_configs/host-cpu-avx512.yaml, compiled as shared libraries and checked against Eigen's results
// before timing; the ratios are printed after the run.
#include <benchmark/benchmark.h>
#include <dlfcn.h>

// GCC 12 reports -Wmaybe-uninitialized inside its own AVX-512 intrinsics when it inlines Eigen's
// vectorised exp (a false positive, GCC PR 105593).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <random>

#include "dse/codegen/kernel_emitter.hpp"
#include "dse/codegen/kernel_runner.hpp"
#include "dse/config/hardware_loader.hpp"
#include "dse/config/mapping_loader.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/model/mapping_resolution.hpp"

namespace {

using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using MatrixMap = Eigen::Map<Matrix>;

/// One benchmark case: the workload, the mapping the kernel is emitted for, and how Eigen
/// computes the same thing unfused.
struct Case {
  std::string name;
  std::string workload_yaml;
  std::string mapping_yaml;
};

const char *const kGemmMapping = R"(segments:
  - ops: [gemm]
    loops: {gemm: [m, n, k]}
    retention: {A: 3, B: 3, C: 2}
    spatial: {gemm: [m, n]}
    tiles: {m: 512, n: 512, k: 128}
)";

std::string gemm_workload(int size) {
  const std::string s = std::to_string(size);
  return "name: gemm-" + s + "\ndims: {m: " + s + ", k: " + s + ", n: " + s +
         "}\nops:\n  - {name: gemm, einsum: \"C[m,n] += A[m,k] * B[k,n]\"}\n";
}

/// A GEMM chain H = A * W1, O = H * W2 with [m, k, n, l] = dims.
struct FfnShape {
  const char *name;
  Eigen::Index m, k, n, l;
  const char *mapping;
};

std::string ffn_workload(const FfnShape &f) {
  auto s = [](Eigen::Index x) { return std::to_string(x); };
  return std::string("name: ") + f.name + "\ndims: {m: " + s(f.m) + ", k: " + s(f.k) +
         ", n: " + s(f.n) + ", l: " + s(f.l) +
         "}\nops:\n  - {name: up, einsum: \"H[m,n] += A[m,k] * W1[k,n]\"}\n"
         "  - {name: down, einsum: \"O[m,l] += H[m,n] * W2[n,l]\"}\n";
}

// MMEE's FFN case (BERT-base widths). H (256 x 64 words) stays in L2; A and O tiles cover 256
// whole rows, the weights stream in 64-wide slices (8 times over: the 2 MiB buffer holds no
// more), and the producer reduces 256 deep per call (its panel fits L1). Compute-bound: on this
// host the model's front has no fused point for this shape (the unfused pair moves fewer words).
const FfnShape kFfnWide{"ffn", 2048, 768, 3072, 768, R"(segments:
  - ops: [up, down]
    prefix: [m, n]
    loops: {up: [k], down: [l]}
    retention: {A: 1, W1: 2, H: 2, W2: 2, O: 1}
    spatial: {up: ['-', '-'], down: ['-', '-']}
    tiles: {m: 256, n: 64, k: 256, l: 768}
)"};

// A narrow MLP (widths 128 -> 512 -> 128 over 32K rows), where the intermediate dominates the
// traffic and the front's best points are fused: both weights stay in the buffer, 256 rows of A,
// H and O at a time, so only A and O cross DRAM.
const FfnShape kFfnNarrow{"ffn-narrow", 32768, 128, 512, 128, R"(segments:
  - ops: [up, down]
    prefix: [m]
    loops: {up: [k, n], down: [l, n]}
    retention: {A: 1, W1: 0, H: 1, W2: 0, O: 1}
    spatial: {up: ['-', '-'], down: ['-', '-']}
    tiles: {m: 256, k: 128, n: 512, l: 128}
)"};

// Online softmax: S tiles of 512 x 256 scores, O and the running max and sum of 512 rows kept.
const char *const kAttentionWorkload = R"(name: attention-2k
dims: {h: 32, m: 2048, n: 2048, k: 128, l: 128}
ops:
  - {name: qk, einsum: "S[h,m,n] += Q[h,m,k] * K[h,n,k]"}
  - {name: softmax, kind: softmax, over: n, tensor: S, out: P}
  - {name: pv, einsum: "O[h,m,l] += P[h,m,n] * V[h,n,l]"}
)";
const char *const kAttentionMapping = R"(segments:
  - ops: [qk, pv]
    prefix: [h, m, n]
    loops: {qk: [k], pv: [l]}
    retention: {Q: 2, K: 3, S: 3, V: 3, O: 2}
    spatial: {qk: ['-', '-'], pv: ['-', '-']}
    tiles: {h: 1, m: 512, n: 256, k: 128, l: 128}
)";

/// An emitted kernel compiled as a shared library and loaded.
class Kernel {
public:
  Kernel(const Case &c, const dse::Hardware &hw) : dir_("dse-kernel-bench") {
    const dse::Workload workload = dse::parse_workload(c.workload_yaml, c.name + ".yaml");
    const std::vector<dse::ResolvedSegment> resolved = dse::resolve_mapping(
        workload, dse::parse_mapping(c.mapping_yaml, c.name + "-mapping.yaml"));
    std::vector<dse::KernelSegment> segments;
    for (const dse::ResolvedSegment &s : resolved)
      segments.push_back({&s.problem, s.candidate, s.tiling});
    dse::EmitOptions options;
    options.title = "kernel_bench " + c.name;
    const dse::ProcessResult built = dse::compile_kernel(
        dse::emit_kernel(segments, hw, options), dir_.path(), dse::host_compiler(""),
        "-shared -fPIC -DDSE_KERNEL_NO_MAIN", "kernel.so");
    if (built.exit_code != 0)
      throw std::runtime_error("compiling " + c.name + " failed: " + built.err);
    handle_ = dlopen((dir_.path() / "kernel.so").c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle_ == nullptr)
      throw std::runtime_error(dlerror());
    tensor_ = reinterpret_cast<float *(*)(const char *)>(dlsym(handle_, "dse_kernel_tensor"));
    run_ = reinterpret_cast<void (*)()>(dlsym(handle_, "dse_kernel_run"));
  }
  ~Kernel() { dlclose(handle_); }
  Kernel(const Kernel &) = delete;
  Kernel &operator=(const Kernel &) = delete;

  MatrixMap matrix(const char *name, Eigen::Index rows, Eigen::Index cols) const {
    return MatrixMap(tensor_(name), rows, cols);
  }
  void run() const { run_(); }

private:
  dse::ScratchDir dir_;
  void *handle_ = nullptr;
  float *(*tensor_)(const char *) = nullptr;
  void (*run_)() = nullptr;
};

void randomize(MatrixMap m, std::mt19937 &rng) {
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  for (Eigen::Index i = 0; i < m.size(); ++i)
    m.data()[i] = value(rng);
}

/// max |a - b| / max |b|: the kernel against Eigen.
double relative_error(const Eigen::Ref<const Matrix> &a, const Eigen::Ref<const Matrix> &b) {
  return static_cast<double>((a - b).cwiseAbs().maxCoeff() / b.cwiseAbs().maxCoeff());
}

void softmax_rows(Matrix &s) {
  for (Eigen::Index r = 0; r < s.rows(); ++r) {
    auto row = s.row(r);
    row = (row.array() - row.maxCoeff()).exp();
    row /= row.sum();
  }
}

/// A pair of benchmarks (emitted kernel, Eigen unfused) over the same inputs.
struct Pair {
  std::string name;
  std::shared_ptr<Kernel> kernel;
  std::function<void()> eigen;
  double error = 0;
};

Pair gemm_pair(int size, const dse::Hardware &hw) {
  auto kernel = std::make_shared<Kernel>(
      Case{"gemm-" + std::to_string(size), gemm_workload(size), kGemmMapping}, hw);
  std::mt19937 rng(1);
  MatrixMap a = kernel->matrix("A", size, size), b = kernel->matrix("B", size, size);
  randomize(a, rng);
  randomize(b, rng);
  auto c = std::make_shared<Matrix>(size, size);
  auto eigen = [=] { c->noalias() = a * b; };
  eigen();
  kernel->run();
  return {"gemm-" + std::to_string(size), kernel, eigen,
          relative_error(kernel->matrix("C", size, size), *c)};
}

Pair ffn_pair(const FfnShape &f, const dse::Hardware &hw) {
  auto kernel = std::make_shared<Kernel>(Case{f.name, ffn_workload(f), f.mapping}, hw);
  std::mt19937 rng(2);
  MatrixMap a = kernel->matrix("A", f.m, f.k), w1 = kernel->matrix("W1", f.k, f.n),
            w2 = kernel->matrix("W2", f.n, f.l);
  for (MatrixMap *x : {&a, &w1, &w2})
    randomize(*x, rng);
  auto h = std::make_shared<Matrix>(f.m, f.n);
  auto o = std::make_shared<Matrix>(f.m, f.l);
  auto eigen = [=] {
    h->noalias() = a * w1;
    o->noalias() = *h * w2;
  };
  eigen();
  kernel->run();
  return {std::string(f.name) + "-fused", kernel, eigen,
          relative_error(kernel->matrix("O", f.m, f.l), *o)};
}

Pair attention_pair(const dse::Hardware &hw) {
  constexpr Eigen::Index kHeads = 32, kSeq = 2048, kDim = 128;
  auto kernel =
      std::make_shared<Kernel>(Case{"attention-2k", kAttentionWorkload, kAttentionMapping}, hw);
  std::mt19937 rng(3);
  MatrixMap q = kernel->matrix("Q", kHeads * kSeq, kDim),
            k = kernel->matrix("K", kHeads * kSeq, kDim),
            v = kernel->matrix("V", kHeads * kSeq, kDim);
  for (MatrixMap *m : {&q, &k, &v})
    randomize(*m, rng);
  auto s = std::make_shared<Matrix>(kSeq, kSeq);
  auto o = std::make_shared<Matrix>(kHeads * kSeq, kDim);
  auto eigen = [=] { // S materialised per head, softmax as its own pass, then P V
    for (Eigen::Index h = 0; h < kHeads; ++h) {
      s->noalias() = q.middleRows(h * kSeq, kSeq) * k.middleRows(h * kSeq, kSeq).transpose();
      softmax_rows(*s);
      o->middleRows(h * kSeq, kSeq).noalias() = *s * v.middleRows(h * kSeq, kSeq);
    }
  };
  eigen();
  kernel->run();
  return {"attention-2k-fused", kernel, eigen,
          relative_error(kernel->matrix("O", kHeads * kSeq, kDim), *o)};
}

/// Console output plus the real time of every benchmark, for the ratios.
class RatioReporter : public benchmark::ConsoleReporter {
public:
  RatioReporter() : ConsoleReporter(OO_None) {}
  void ReportRuns(const std::vector<Run> &runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run &r : runs) {
      if (r.run_type != Run::RT_Iteration)
        continue;
      const double seconds = r.GetAdjustedRealTime() / 1e3; // reported in ms
      auto [it, fresh] = seconds_.emplace(r.run_name.function_name, seconds);
      if (!fresh) // the fastest repetition: the least disturbed by other work on the machine
        it->second = std::min(it->second, seconds);
    }
  }
  void print_ratios(const std::vector<Pair> &pairs) const {
    std::cout << "\nemitted kernel vs Eigen (one core each, fastest repetition; throughput ratio = "
                 "Eigen time / emitted time):\n";
    for (const Pair &p : pairs) {
      if (!seconds_.count(p.name + "/emitted") || !seconds_.count(p.name + "/eigen"))
        continue;
      const double emitted = seconds_.at(p.name + "/emitted"),
                   eigen = seconds_.at(p.name + "/eigen");
      std::cout << "  " << std::left << std::setw(20) << p.name << std::right << std::fixed
                << std::setprecision(4) << " emitted " << emitted << " s, Eigen " << eigen
                << " s, ratio " << std::setprecision(2) << eigen / emitted
                << " (max relative error " << std::scientific << std::setprecision(1) << p.error
                << ")\n"
                << std::defaultfloat;
    }
  }

private:
  std::map<std::string, double> seconds_;
};

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  dse::Hardware hw =
      dse::load_hardware(std::string(DSE_SOURCE_DIR) + "/hw_configs/host-cpu-avx512.yaml");
  hw.cores = 1; // Eigen runs on one core here (no OpenMP in this program)
  std::vector<Pair> pairs{gemm_pair(1024, hw), gemm_pair(2048, hw), ffn_pair(kFfnWide, hw),
                          ffn_pair(kFfnNarrow, hw), attention_pair(hw)};
  for (const Pair &p : pairs) {
    if (p.error > 1e-3)
      std::cerr << p.name << ": the emitted kernel differs from Eigen (relative error " << p.error
                << ")\n";
    const std::shared_ptr<Kernel> kernel = p.kernel;
    benchmark::RegisterBenchmark((p.name + "/emitted").c_str(),
                                 [kernel](benchmark::State &state) {
                                   for (auto _ : state)
                                     kernel->run();
                                 })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    const std::function<void()> eigen = p.eigen;
    benchmark::RegisterBenchmark((p.name + "/eigen").c_str(),
                                 [eigen](benchmark::State &state) {
                                   for (auto _ : state)
                                     eigen();
                                 })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.print_ratios(pairs);
  benchmark::Shutdown();
  return 0;
}
