// Field-by-field comparison of candidate spaces, shared by the candidate cache tests of the search
// and CLI modules: a difference names the field and the dataflow, not only that the spaces differ.
#pragma once

#include <gtest/gtest.h>

#include "dse/search/candidate_space.hpp"

namespace dse::test_common {

inline void expect_same_space(const CandidateSpace &actual, const CandidateSpace &expected) {
  ASSERT_EQ(actual.dataflows.size(), expected.dataflows.size());
  ASSERT_EQ(actual.metrics.size(), expected.metrics.size());
  for (size_t d = 0; d < expected.dataflows.size(); ++d) {
    EXPECT_TRUE(actual.dataflows[d] == expected.dataflows[d]) << "dataflow " << d;
    EXPECT_TRUE(actual.metrics[d].dram_reads == expected.metrics[d].dram_reads) << "dataflow " << d;
    EXPECT_TRUE(actual.metrics[d].dram_writes == expected.metrics[d].dram_writes)
        << "dataflow " << d;
    EXPECT_TRUE(actual.metrics[d].buffer_words == expected.metrics[d].buffer_words)
        << "dataflow " << d;
  }
  EXPECT_TRUE(actual.groups == expected.groups);
  EXPECT_TRUE(actual.spatial == expected.spatial);
  EXPECT_EQ(actual.stats.dataflows_enumerated, expected.stats.dataflows_enumerated);
  EXPECT_EQ(actual.stats.dataflows_after_local, expected.stats.dataflows_after_local);
  EXPECT_EQ(actual.stats.dataflows_kept, expected.stats.dataflows_kept);
  EXPECT_EQ(actual.stats.spatial_combinations, expected.stats.spatial_combinations);
  EXPECT_TRUE(actual == expected); // and whatever field the type gains
}

} // namespace dse::test_common
