// Mapping fuzzing: front points of small workloads written as mapping files (what `dse explore
// --emit-mapping` prints), mutated at random (seeded), then parsed, resolved against the
// workload, evaluated and planned for emission: each either works or fails with a UserError that
// names the file. Never another exception, never a crash.
#include <gtest/gtest.h>

#include "cli/cli_fixture.hpp"
#include "common/fuzz_outcome.hpp"
#include "common/text_mutations.hpp"
#include "common/workloads.hpp"
#include "dse/cli/front_report.hpp"
#include "dse/codegen/kernel_plan.hpp"
#include "dse/config/hardware_loader.hpp"
#include "dse/config/mapping_loader.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/model/mapping_evaluation.hpp"
#include "dse/model/mapping_resolution.hpp"
#include "dse/search/explore.hpp"

namespace dse {
namespace {

/// Everything `dse eval` and `dse emit` do with a mapping file, short of writing output.
void use_mapping(const Workload &workload, const Hardware &hw, const std::string &text,
                 const std::string &file) {
  const MappingSpec spec = parse_mapping(text, file);
  for (const ResolvedSegment &s : resolve_mapping(workload, spec)) {
    evaluate_mapping(s.problem, s.candidate, s.tiling, hw, LatencyModel::Roofline);
    plan_segment(s.problem, s.candidate, s.tiling, codegen_target(hw));
  }
}

void fuzz_front_mappings(const std::string &workload_yaml, int mutations) {
  const Workload workload = parse_workload(workload_yaml, "workload.yaml");
  const Hardware hw = parse_hardware(testing::kTinyHardware, "tiny.yaml");
  const ExploreResult front = explore(workload, hw, SearchOptions{});
  ASSERT_GE(front.front.size(), 1u);
  const std::string file = workload.name + "-mapping.yaml";
  for (size_t point : {size_t{0}, front.front.size() - 1}) {
    const std::string original = mapping_yaml(front, workload, point);
    ASSERT_NO_THROW(use_mapping(workload, hw, original, file)) << original;
    test_common::TextMutator mutator(static_cast<std::uint32_t>(point + 1));
    test_common::FuzzTally tally;
    for (int i = 0; i < mutations; ++i) {
      const std::string input = mutator.mutate(original);
      test_common::run_mutant([&] { use_mapping(workload, hw, input, file); }, file,
                              file + ", front point " + std::to_string(point) + ", mutation " +
                                  std::to_string(i) + ":\n" + input,
                              tally);
    }
    EXPECT_GT(tally.rejected, 0) << "no mutation was rejected; the fuzzer is not biting";
  }
}

TEST(MappingFuzz, Gemm) {
  fuzz_front_mappings(test_common::gemm_workload("gemm", 40, 24, 36), 500);
}

TEST(MappingFuzz, GemmPair) {
  fuzz_front_mappings(test_common::gemm_pair_workload("pair", 24, 16, 20, 18), 500);
}

TEST(MappingFuzz, Attention) {
  fuzz_front_mappings(test_common::attention_workload("attention", 2, 12, 20, 8, 6), 500);
}

} // namespace
} // namespace dse
