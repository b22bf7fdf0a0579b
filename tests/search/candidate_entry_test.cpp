// Candidate cache entries: what is read back equals what was built, field by field, and every
// entry that is not exactly what this build wrote for the key is refused without a crash.
#include "dse/search/candidate_entry.hpp"

#include <gtest/gtest.h>
#include <random>

#include "common/candidate_spaces.hpp"
#include "dse/search/candidate_cache.hpp"
#include "search/test_problems.hpp"

namespace dse {
namespace {

using test_common::expect_same_space;

struct Entry {
  test::TestProblem tp;
  std::string key;
  CandidateSpace space;
  std::string bytes;
};

Entry make_entry(test::TestProblem tp, bool double_buffering = false,
                 Pruning pruning = Pruning::Symbolic) {
  Entry e{std::move(tp), {}, {}, {}};
  e.key = candidate_space_key(e.tp.problem, double_buffering, pruning, true);
  e.space = build_candidate_space(e.tp.problem, double_buffering, pruning);
  e.bytes = encode_candidate_entry(e.key, e.space);
  return e;
}

/// Where the payload starts: magic, version, fingerprint and key, payload size, checksum.
size_t payload_offset(const std::string &key) {
  return 8 + 4 + 4 + candidate_space_fingerprint().size() + 4 + key.size() + 8 + 8;
}

std::string refusal(const Entry &e, std::string_view bytes) {
  const DecodedEntry d = decode_candidate_entry(bytes, e.key, e.tp.problem);
  EXPECT_FALSE(d.space.has_value());
  return d.refusal;
}

/// `bytes` with its payload checksum recomputed, as a corruption that keeps it would look.
std::string rechecksummed(const std::string &key, std::string bytes) {
  const size_t at = payload_offset(key);
  std::uint64_t sum = candidate_entry_checksum(std::string_view(bytes).substr(at));
  for (size_t i = 0; i < 8; ++i, sum >>= 8)
    bytes[at - 8 + i] = static_cast<char>(sum & 0xff);
  return bytes;
}

TEST(CandidateEntry, ReadsBackEveryFieldOfTheSpaceBuilt) {
  std::vector<Entry> entries;
  entries.push_back(make_entry(test::single_problem("gemm", test::gemm_yaml(8, 8, 8))));
  entries.push_back(make_entry(test::fused_problem("pair", test::gemm_pair_yaml(8, 8, 8, 8))));
  entries.push_back(make_entry(test::fused_problem("attention", test::attention_yaml(2, 8, 4))));
  entries.push_back(make_entry(test::fused_problem("conv", test::conv_pair_yaml()), true));
  entries.push_back(
      make_entry(test::single_problem("strided", test::strided_conv_yaml()), false, Pruning::None));
  for (const Entry &e : entries) {
    SCOPED_TRACE(e.tp.name);
    const DecodedEntry d = decode_candidate_entry(e.bytes, e.key, e.tp.problem);
    ASSERT_TRUE(d.space.has_value()) << d.refusal;
    expect_same_space(*d.space, e.space);
    EXPECT_EQ(encode_candidate_entry(e.key, *d.space), e.bytes);
  }
}

TEST(CandidateEntry, RefusesEveryTruncation) {
  const Entry e = make_entry(test::single_problem("gemm", test::gemm_yaml(8, 8, 8)));
  for (size_t size = 0; size < e.bytes.size(); ++size) {
    const std::string why = refusal(e, std::string_view(e.bytes).substr(0, size));
    EXPECT_TRUE(why == "truncated" || why == "not a candidate cache entry") << size << ": " << why;
  }
  EXPECT_EQ(refusal(e, e.bytes + '\0'), "trailing bytes after the payload");
}

TEST(CandidateEntry, RefusesAnyOneByteEditedInThePayload) {
  const Entry e = make_entry(test::fused_problem("pair", test::gemm_pair_yaml(8, 8, 8, 8)));
  std::mt19937 random(13);
  const size_t from = payload_offset(e.key);
  for (int trial = 0; trial < 2000; ++trial) {
    std::string bytes = e.bytes;
    const size_t at = from + random() % (bytes.size() - from);
    bytes[at] = static_cast<char>(bytes[at] ^ (1 + random() % 255));
    EXPECT_EQ(refusal(e, bytes), "checksum mismatch") << "byte " << at;
  }
}

TEST(CandidateEntry, RefusesAnotherVersionBuildOrKey) {
  const Entry e = make_entry(test::single_problem("gemm", test::gemm_yaml(8, 8, 8)));
  std::string version = e.bytes;
  version[8] = static_cast<char>(kCandidateEntryVersion + 1);
  EXPECT_EQ(refusal(e, version), "format version " + std::to_string(kCandidateEntryVersion + 1) +
                                     ", expected " + std::to_string(kCandidateEntryVersion));
  std::string build = e.bytes;
  build[16] = build[16] == '0' ? '1' : '0'; // a digit of the fingerprint
  EXPECT_EQ(refusal(e, build), "written by a build with another model");
  std::string magic = e.bytes;
  magic[0] = 'D';
  EXPECT_EQ(refusal(e, magic), "not a candidate cache entry");

  // The same space stored under another key (another double-buffering setting).
  const std::string other = candidate_space_key(e.tp.problem, true, Pruning::Symbolic, true);
  EXPECT_EQ(refusal(e, encode_candidate_entry(other, e.space)), "written for another key");
}

TEST(CandidateEntry, RefusesAWholeEntryThatDoesNotFitTheProblem) {
  const Entry e = make_entry(test::fused_problem("pair", test::gemm_pair_yaml(8, 8, 8, 8)));
  CandidateSpace gaps = e.space;
  gaps.groups.back().count += 1;
  EXPECT_EQ(refusal(e, encode_candidate_entry(e.key, gaps)),
            "inconsistent payload: recompute groups cover " +
                std::to_string(e.space.dataflows.size() + 1) + " of " +
                std::to_string(e.space.dataflows.size()) + " dataflows");
  CandidateSpace foreign = e.space;
  foreign.dataflows[0].prefix.push_back(97);
  EXPECT_EQ(refusal(e, encode_candidate_entry(e.key, foreign)),
            "inconsistent payload: dataflow 0: a prefix loop over a dimension the problem does "
            "not have");
  CandidateSpace deep = e.space;
  deep.dataflows[1].retention[0] = 99;
  EXPECT_EQ(refusal(e, encode_candidate_entry(e.key, deep)),
            "inconsistent payload: dataflow 1: retention depth 99 outside its operator's loops");
  CandidateSpace stats = e.space;
  stats.stats.dataflows_kept += 1;
  EXPECT_EQ(refusal(e, encode_candidate_entry(e.key, stats)),
            "inconsistent payload: pruning statistics that do not match the space");
}

TEST(CandidateEntry, NeverTrustsOrCrashesOnEditsThatKeepTheChecksum) {
  // Edits that a matching checksum does not catch exercise the payload reader itself: each is
  // either refused or reads back as a space consistent with the problem.
  const Entry e = make_entry(test::fused_problem("attention", test::attention_yaml(2, 8, 4)));
  std::mt19937 random(4);
  const size_t from = payload_offset(e.key);
  int refused = 0;
  for (int trial = 0; trial < 1000; ++trial) {
    std::string bytes = e.bytes;
    for (int edits = 1 + trial % 3; edits > 0; --edits) {
      const size_t at = from + random() % (bytes.size() - from);
      bytes[at] = static_cast<char>(random());
    }
    const DecodedEntry d = decode_candidate_entry(rechecksummed(e.key, bytes), e.key, e.tp.problem);
    if (!d.space) {
      ++refused;
      continue;
    }
    EXPECT_EQ(candidate_space_defect(e.tp.problem, *d.space), "");
  }
  EXPECT_GT(refused, 300);
}

TEST(CandidateEntry, NamesDependOnTheWholeKey) {
  const std::string a = candidate_entry_name("op0{...}|sb|p|r");
  EXPECT_EQ(a.size(), 16U + std::string(".dsecand").size());
  EXPECT_NE(a, candidate_entry_name("op0{...}|db|p|r"));
  EXPECT_EQ(a, candidate_entry_name("op0{...}|sb|p|r"));
  EXPECT_EQ(candidate_space_fingerprint().size(), 64U);
}

} // namespace
} // namespace dse
