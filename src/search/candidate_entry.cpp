// Candidate cache entries: a little-endian binary writer and a reader that refuses, rather than
// trusts, anything that is not whole, of this build, for this key and consistent with the problem.
#include "dse/search/candidate_entry.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include "candidate_space_fingerprint.hpp" // generated: kCandidateSpaceFingerprint

namespace dse {

namespace {

constexpr std::string_view kMagic = "dsecand\n";

class Writer {
public:
  template <class T> void uint(T v) {
    for (size_t i = 0; i < sizeof(T); ++i)
      out_.push_back(static_cast<char>(static_cast<std::uint64_t>(v) >> (8 * i) & 0xff));
  }
  void i32(int v) { uint(static_cast<std::uint32_t>(v)); }
  void f64(double v) { uint(std::bit_cast<std::uint64_t>(v)); }
  void size(size_t n) { uint(static_cast<std::uint64_t>(n)); }
  void text(std::string_view s) {
    uint(static_cast<std::uint32_t>(s.size()));
    out_.append(s);
  }
  void ints(const std::vector<int> &v) {
    size(v.size());
    for (int x : v)
      i32(x);
  }
  void nested(const std::vector<std::vector<int>> &v) {
    size(v.size());
    for (const std::vector<int> &inner : v)
      ints(inner);
  }
  void posynomial(const Posynomial &p) {
    size(p.terms().size());
    for (const auto &[m, c] : p.terms()) {
      size(m.factors().size());
      for (const Factor &f : m.factors()) {
        uint(static_cast<std::uint16_t>(f.key));
        uint(static_cast<std::uint8_t>(f.power));
      }
      f64(c);
    }
  }
  std::string &bytes() { return out_; }

private:
  std::string out_;
};

/// Reads what Writer wrote; any read past the end, or count larger than the bytes left could
/// hold, marks the reader failed and yields zeros from then on.
class Reader {
public:
  explicit Reader(std::string_view in) : in_(in) {}

  template <class T> T uint() {
    if (failed_ || in_.size() - pos_ < sizeof(T)) {
      failed_ = true;
      return 0;
    }
    std::uint64_t v = 0;
    for (size_t i = 0; i < sizeof(T); ++i)
      v |= static_cast<std::uint64_t>(static_cast<unsigned char>(in_[pos_ + i])) << (8 * i);
    pos_ += sizeof(T);
    return static_cast<T>(v);
  }
  int i32() { return static_cast<int>(uint<std::uint32_t>()); }
  double f64() { return std::bit_cast<double>(uint<std::uint64_t>()); }
  /// A count of items of at least `item_bytes` each.
  size_t count(size_t item_bytes) {
    const auto n = uint<std::uint64_t>();
    if (n > (in_.size() - pos_) / item_bytes)
      failed_ = true;
    return failed_ ? 0 : static_cast<size_t>(n);
  }
  std::string_view text() { return take(uint<std::uint32_t>()); }
  std::string_view take(std::uint64_t n) {
    if (failed_ || n > in_.size() - pos_) {
      failed_ = true;
      return {};
    }
    const std::string_view out = in_.substr(pos_, static_cast<size_t>(n));
    pos_ += static_cast<size_t>(n);
    return out;
  }
  std::vector<int> ints() {
    std::vector<int> v(count(4));
    for (int &x : v)
      x = i32();
    return v;
  }
  std::vector<std::vector<int>> nested() {
    std::vector<std::vector<int>> v(count(8));
    for (std::vector<int> &inner : v)
      inner = ints();
    return v;
  }
  Posynomial posynomial() {
    Posynomial p;
    const size_t terms = count(16);
    for (size_t t = 0; t < terms && !failed_; ++t) {
      Monomial m;
      std::vector<Factor> factors(count(3));
      for (Factor &f : factors) {
        const auto key = uint<std::uint16_t>();
        const auto power = uint<std::uint8_t>();
        failed_ = failed_ || key >= kFactorKeys || power > Factor::kMaxPower;
        if (failed_)
          break;
        f = {key, power};
        for (int i = 0; i < f.power; ++i)
          m = m * Monomial::of(f.dim(), f.atom());
      }
      // Only a canonical monomial (sorted keys, positive powers) reads back as written.
      failed_ = failed_ || !std::ranges::equal(m.factors(), factors);
      p += Posynomial::monomial(m, f64());
    }
    failed_ = failed_ || p.terms().size() != terms;
    return p;
  }
  bool failed() const { return failed_; }
  bool at_end() const { return pos_ == in_.size(); }

private:
  std::string_view in_;
  size_t pos_ = 0;
  bool failed_ = false;
};

std::string encode_payload(const CandidateSpace &space) {
  Writer w;
  w.size(space.dataflows.size());
  for (size_t d = 0; d < space.dataflows.size(); ++d) {
    const Dataflow &df = space.dataflows[d];
    w.ints(df.prefix);
    w.size(df.subnests.size());
    for (const std::vector<int> &nest : df.subnests)
      w.ints(nest);
    w.ints(df.retention);
    w.nested(df.cached);
    const DataflowMetrics &m = space.metrics[d];
    w.posynomial(m.dram_reads);
    w.posynomial(m.dram_writes);
    w.size(m.buffer_words.size());
    for (const Posynomial &p : m.buffer_words)
      w.posynomial(p);
  }
  w.size(space.groups.size());
  for (const RecomputeGroup &g : space.groups) {
    w.ints(g.recompute_dims);
    w.nested(g.cached_dims);
    w.size(g.first);
    w.size(g.count);
  }
  w.size(space.spatial.size());
  for (const std::vector<SpatialMapping> &combination : space.spatial) {
    w.size(combination.size());
    for (const SpatialMapping &s : combination) {
      w.i32(s.row_dim);
      w.i32(s.col_dim);
    }
  }
  const PruningStats &st = space.stats;
  for (std::uint64_t v : {st.dataflows_enumerated, st.dataflows_after_local, st.dataflows_kept,
                          st.spatial_combinations})
    w.uint(v);
  return std::move(w.bytes());
}

CandidateSpace decode_payload(Reader &r) {
  CandidateSpace space;
  space.dataflows.resize(r.count(8 * 6));
  for (Dataflow &df : space.dataflows) {
    df.prefix = r.ints();
    df.subnests.resize(r.count(8));
    for (std::vector<int> &nest : df.subnests)
      nest = r.ints();
    df.retention = r.ints();
    df.cached = r.nested();
    DataflowMetrics &m = space.metrics.emplace_back();
    m.dram_reads = r.posynomial();
    m.dram_writes = r.posynomial();
    m.buffer_words.resize(r.count(8));
    for (Posynomial &p : m.buffer_words)
      p = r.posynomial();
  }
  space.groups.resize(r.count(8 * 4));
  for (RecomputeGroup &g : space.groups) {
    g.recompute_dims = r.ints();
    g.cached_dims = r.nested();
    g.first = r.uint<std::uint64_t>();
    g.count = r.uint<std::uint64_t>();
  }
  space.spatial.resize(r.count(8));
  for (std::vector<SpatialMapping> &combination : space.spatial) {
    combination.resize(r.count(8));
    for (SpatialMapping &s : combination) {
      s.row_dim = r.i32();
      s.col_dim = r.i32();
    }
  }
  PruningStats &st = space.stats;
  for (std::uint64_t *v : {&st.dataflows_enumerated, &st.dataflows_after_local, &st.dataflows_kept,
                           &st.spatial_combinations})
    *v = r.uint<std::uint64_t>();
  return space;
}

DecodedEntry refused(std::string why) { return {std::nullopt, std::move(why)}; }

} // namespace

std::uint64_t candidate_entry_checksum(std::string_view payload) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : payload) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::string_view candidate_space_fingerprint() { return kCandidateSpaceFingerprint; }

std::string candidate_entry_name(const std::string &key) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string name;
  for (std::uint64_t h = candidate_entry_checksum(key), i = 0; i < 16; ++i)
    name.push_back(kHex[(h >> (60 - 4 * i)) & 0xf]);
  return name + ".dsecand";
}

std::string encode_candidate_entry(const std::string &key, const CandidateSpace &space) {
  const std::string payload = encode_payload(space);
  Writer w;
  w.bytes().append(kMagic);
  w.uint(kCandidateEntryVersion);
  w.text(candidate_space_fingerprint());
  w.text(key);
  w.size(payload.size());
  w.uint(candidate_entry_checksum(payload));
  w.bytes().append(payload);
  return std::move(w.bytes());
}

DecodedEntry decode_candidate_entry(std::string_view bytes, const std::string &key,
                                    const Problem &problem) {
  Reader r(bytes);
  if (r.take(kMagic.size()) != kMagic)
    return refused("not a candidate cache entry");
  if (const auto version = r.uint<std::uint32_t>(); version != kCandidateEntryVersion)
    return refused(r.failed() ? "truncated"
                              : "format version " + std::to_string(version) + ", expected " +
                                    std::to_string(kCandidateEntryVersion));
  if (r.text() != candidate_space_fingerprint())
    return refused(r.failed() ? "truncated" : "written by a build with another model");
  if (r.text() != key)
    return refused(r.failed() ? "truncated" : "written for another key");
  const auto size = r.uint<std::uint64_t>();
  const auto checksum = r.uint<std::uint64_t>();
  const std::string_view payload = r.take(size);
  if (r.failed())
    return refused("truncated");
  if (!r.at_end())
    return refused("trailing bytes after the payload");
  if (candidate_entry_checksum(payload) != checksum)
    return refused("checksum mismatch");
  Reader p(payload);
  CandidateSpace space = decode_payload(p);
  if (p.failed() || !p.at_end())
    return refused("malformed payload");
  if (std::string defect = candidate_space_defect(problem, space); !defect.empty())
    return refused("inconsistent payload: " + defect);
  return {std::move(space), {}};
}

} // namespace dse
