// Pipeline fuzzing: GEMMs, GEMM pairs and attention with sizes drawn (seeded) from edge values
// (1, primes, powers of two, the largest size allowed, beyond it) explored on accelerators with
// 16 to 16M words of buffer. Each run gives a front or fails with a UserError; never another
// exception, never a crash or an overflow (the sanitizer build runs this too).
#include <gtest/gtest.h>

#include <random>

#include "common/fuzz_outcome.hpp"
#include "common/suite_scale.hpp"
#include "common/workloads.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/search/explore.hpp"
#include "search/test_problems.hpp"

namespace dse {
namespace {

class EdgeWorkloads {
public:
  explicit EdgeWorkloads(std::uint32_t seed) : rng_(seed) {}

  std::string next(int kind) {
    switch (kind % 3) {
    case 0:
      return test_common::gemm_workload("g", size(), size(), size());
    case 1:
      return test_common::gemm_pair_workload("p", size(), size(), size(), size());
    default:
      return test_common::attention_workload("a", size() % 5 + 1, size(), size(), size(), size());
    }
  }
  std::int64_t buffer_words() {
    return std::int64_t{1} << std::uniform_int_distribution<int>(4, 24)(rng_);
  }

private:
  std::int64_t size() {
    static const std::vector<std::int64_t> kSizes = {
        1, 2, 3, 7, 13, 64, 97, 1024, 65537, 1000003, 2147483647, std::int64_t{1} << 40};
    return kSizes[std::uniform_int_distribution<size_t>(0, kSizes.size() - 1)(rng_)];
  }
  std::mt19937 rng_;
};

TEST(PipelineFuzz, EdgeSizesExploreOrFailCleanly) {
  EdgeWorkloads workloads(5);
  SearchOptions options;
  options.threads = 1;
  test_common::FuzzTally tally;
  for (int i = 0; i < test_common::per_suite(60, 30); ++i) {
    const std::string yaml = workloads.next(i);
    test::HardwareSpec spec;
    spec.gb_words = workloads.buffer_words();
    // Search errors (no mapping fits) name no file, so only the kind of exception is checked.
    test_common::run_mutant(
        [&] { explore(parse_workload(yaml, "w.yaml"), test::tiny_hardware(spec), options); }, "",
        yaml, tally);
  }
  EXPECT_GT(tally.accepted, test_common::per_suite(10, 5));
  EXPECT_GT(tally.rejected, test_common::per_suite(10, 5));
}

} // namespace
} // namespace dse
