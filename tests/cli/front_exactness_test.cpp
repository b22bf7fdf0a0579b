// Exactness of `dse explore` seen from outside: random legal mappings of the search space,
// evaluated one by one with `dse eval`, are never better than the front in latency and energy.
#include <algorithm>
#include <map>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/cli_fixture.hpp"
#include "common/workloads.hpp"

namespace dse::testing {
namespace {

/// One einsum: its dimensions in einsum order (output first), then its tensors, output last.
struct OpSpec {
  std::string name;
  std::vector<std::string> dims;
  std::vector<std::pair<std::string, std::vector<std::string>>> tensors;
};

/// A producer -> consumer chain of two einsums; the consumer's tensor `consumer_input` is the
/// producer's output (renamed by attached operators).
struct ChainSpec {
  OpSpec producer;
  OpSpec consumer;
  std::string consumer_input;
  std::map<std::string, long> sizes;
};

class MappingSampler {
public:
  explicit MappingSampler(const ChainSpec &chain) : c_(chain) {}

  /// Both ops unfused or fused, loops, depths, spatial mapping and tiles all drawn at random.
  std::string mapping() {
    std::ostringstream out;
    out << "segments:\n";
    if (pick(2) == 0) {
      single(out, c_.producer);
      single(out, c_.consumer);
    } else {
      fused(out);
    }
    return out.str();
  }

private:
  size_t pick(size_t n) { return static_cast<size_t>(rng_() % n); }
  static bool has(const std::vector<std::string> &v, const std::string &x) {
    return std::find(v.begin(), v.end(), x) != v.end();
  }

  long tile(const std::string &dim) {
    std::vector<long> divisors;
    for (long t = 1; t <= c_.sizes.at(dim); ++t)
      if (c_.sizes.at(dim) % t == 0)
        divisors.push_back(t);
    return divisors[pick(divisors.size())];
  }

  /// The tiles line of a segment over `dims`.
  std::string tiles(const std::vector<std::string> &dims) {
    std::string out = "    tiles: {";
    for (size_t i = 0; i < dims.size(); ++i)
      out += (i ? ", " : "") + dims[i] + ": " + std::to_string(tile(dims[i]));
    return out + "}\n";
  }

  std::vector<std::string> shuffled(std::vector<std::string> v) {
    for (size_t i = v.size(); i > 1; --i)
      std::swap(v[i - 1], v[pick(i)]);
    return v;
  }

  /// 0, or right below a loop of `path` that indexes the tensor.
  int depth(const std::vector<std::string> &path, const std::vector<std::string> &tensor_dims) {
    std::vector<int> options{0};
    for (size_t i = 0; i < path.size(); ++i)
      if (has(tensor_dims, path[i]))
        options.push_back(static_cast<int>(i) + 1);
    return options[pick(options.size())];
  }

  /// A pair of dims that each index the output or appear in two tensors, first one on rows.
  std::string spatial(const OpSpec &op) {
    std::vector<std::string> eligible;
    for (const std::string &d : op.dims) {
      const long uses = std::count_if(op.tensors.begin(), op.tensors.end(),
                                      [&](const auto &t) { return has(t.second, d); });
      if (has(op.tensors.back().second, d) || uses >= 2)
        eligible.push_back(d);
    }
    const size_t a = pick(eligible.size() - 1);
    const size_t b = a + 1 + pick(eligible.size() - a - 1);
    return op.name + ": [" + eligible[a] + ", " + eligible[b] + "]";
  }

  static std::string list(const std::vector<std::string> &v) {
    std::string s;
    for (const std::string &x : v)
      s += (s.empty() ? "" : ", ") + x;
    return "[" + s + "]";
  }

  void single(std::ostringstream &out, const OpSpec &op) {
    const std::vector<std::string> loops = shuffled(op.dims);
    out << "  - ops: [" << op.name << "]\n    loops: {" << op.name << ": " << list(loops)
        << "}\n    retention: {";
    for (size_t i = 0; i < op.tensors.size(); ++i)
      out << (i ? ", " : "") << op.tensors[i].first << ": " << depth(loops, op.tensors[i].second);
    out << "}\n    spatial: {" << spatial(op) << "}\n" << tiles(op.dims);
  }

  /// Depths of the intermediate that keep every recompute loop of `prefix` above it.
  std::vector<int> intermediate_depths(const std::vector<std::string> &prefix) const {
    const std::vector<std::string> &inter = c_.producer.tensors.back().second;
    size_t last_recompute = 0;
    for (size_t i = 0; i < prefix.size(); ++i)
      if (!has(c_.producer.dims, prefix[i]))
        last_recompute = i + 1;
    std::vector<int> out;
    for (size_t i = 0; i <= prefix.size(); ++i)
      if ((i == 0 || has(inter, prefix[i - 1])) && i >= last_recompute)
        out.push_back(static_cast<int>(i));
    return out;
  }

  /// A random legal prefix (an ordered subset of the dims allowed in it) and intermediate depth.
  std::pair<std::vector<std::string>, int> prefix_and_depth() {
    std::vector<std::string> allowed;
    for (const std::string &d : c_.consumer.dims)
      if (has(c_.producer.tensors.back().second, d) || !has(c_.producer.dims, d))
        allowed.push_back(d);
    while (true) {
      std::vector<std::string> prefix = shuffled(allowed);
      prefix.resize(pick(prefix.size() + 1));
      const std::vector<int> depths = intermediate_depths(prefix);
      if (!depths.empty())
        return {prefix, depths[pick(depths.size())]};
    }
  }

  std::vector<std::string> own_loops(const OpSpec &op, const std::vector<std::string> &prefix) {
    std::vector<std::string> own;
    for (const std::string &d : op.dims)
      if (!has(prefix, d))
        own.push_back(d);
    return shuffled(own);
  }

  void fused(std::ostringstream &out) {
    const OpSpec &p = c_.producer;
    const OpSpec &q = c_.consumer;
    const auto [prefix, inter_depth] = prefix_and_depth();
    const std::vector<std::string> own_p = own_loops(p, prefix);
    const std::vector<std::string> own_q = own_loops(q, prefix);
    std::vector<std::string> path_p = prefix, path_q = prefix;
    path_p.insert(path_p.end(), own_p.begin(), own_p.end());
    path_q.insert(path_q.end(), own_q.begin(), own_q.end());
    out << "  - ops: [" << p.name << ", " << q.name << "]\n    prefix: " << list(prefix)
        << "\n    loops: {" << p.name << ": " << list(own_p) << ", " << q.name << ": "
        << list(own_q) << "}\n    retention: {" << p.tensors.back().first << ": " << inter_depth;
    for (size_t i = 0; i + 1 < p.tensors.size(); ++i)
      out << ", " << p.tensors[i].first << ": " << depth(path_p, p.tensors[i].second);
    for (const auto &[name, dims] : q.tensors)
      if (name != c_.consumer_input)
        out << ", " << name << ": " << depth(path_q, dims);
    out << "}\n    spatial: {" << spatial(p) << ", " << spatial(q) << "}\n";
    std::vector<std::string> dims = p.dims;
    for (const std::string &d : q.dims)
      if (!has(dims, d))
        dims.push_back(d);
    out << tiles(dims);
  }

  const ChainSpec &c_;
  std::mt19937 rng_{20240611};
};

class FrontExactness : public CliTest {
protected:
  /// Samples `count` mappings; each one that fits must be weakly dominated by a front point.
  void expect_no_mapping_beats_the_front(const ChainSpec &chain, const std::string &workload,
                                         int count) {
    write("w.yaml", workload);
    write("hw.yaml",
          "name: small\nclock_ghz: 1.0\nword_bytes: 2\n"
          "pe_array: {rows: 8, cols: 8, mac_energy_pj: 1.5}\nlevels:\n"
          "  - {name: DRAM, bandwidth_gbps: 16, read_energy_pj: 320, "
          "write_energy_pj: 320}\n"
          "  - {name: GlobalBuffer, capacity_words: 8192, bandwidth_words_per_cycle: 16, "
          "read_energy_pj: 25, write_energy_pj: 25}\n"
          "  - {name: RegFile, capacity_words: 64, read_energy_pj: 1.5, "
          "write_energy_pj: 1.5}\n");
    const Csv front = parse_csv(run_ok({"explore", "--hw", "hw.yaml", "--workload", "w.yaml"}).out);
    ASSERT_FALSE(front.rows.empty());
    MappingSampler sampler(chain);
    int evaluated = 0;
    for (int i = 0; i < count; ++i) {
      const std::string mapping = sampler.mapping();
      write("m.yaml", mapping);
      const RunResult r =
          run({"eval", "--hw", "hw.yaml", "--workload", "w.yaml", "--mapping", "m.yaml", "--json"});
      if (r.exit_code == 1 && r.err.find("global-buffer words, more than") != std::string::npos)
        continue; // does not fit
      ASSERT_EQ(r.exit_code, 0) << mapping << r.err;
      ++evaluated;
      const nlohmann::json total = nlohmann::json::parse(r.out).at("total");
      const double latency = total.at("latency_s").get<double>() * (1 + 1e-12);
      const double energy = total.at("energy_pj").get<double>() * (1 + 1e-12);
      bool covered = false;
      for (size_t j = 0; j < front.rows.size() && !covered; ++j)
        covered = front.number(j, "latency_s") <= latency && front.number(j, "energy_pj") <= energy;
      EXPECT_TRUE(covered) << "this mapping beats the front:\n" << mapping << r.out;
    }
    EXPECT_GE(evaluated, count / 4) << "too few sampled mappings fit the buffer";
  }
};

/// The FFN pair the samplers draw from, and its workload (`down` adding `residual` if named).
const ChainSpec kFfnPair{
    {"up", {"m", "n", "k"}, {{"A", {"m", "k"}}, {"W1", {"k", "n"}}, {"H", {"m", "n"}}}},
    {"down", {"m", "l", "n"}, {{"H", {"m", "n"}}, {"W2", {"n", "l"}}, {"O", {"m", "l"}}}},
    "H",
    {{"m", 32}, {"k", 24}, {"n", 48}, {"l", 16}}};

std::string ffn_workload(const std::string &residual) {
  return "name: ffn\ndims: {m: 32, k: 24, n: 48, l: 16}\nops:\n"
         "  - {name: up, einsum: \"H[m,n] += A[m,k] * W1[k,n]\"}\n"
         "  - {name: down, einsum: \"O[m,l] += H[m,n] * W2[n,l]\"" +
         (residual.empty() ? "" : ", residual: " + residual) + "}\n";
}

TEST_F(FrontExactness, GemmPair) {
  expect_no_mapping_beats_the_front(kFfnPair, ffn_workload(""), 150);
}

TEST_F(FrontExactness, GemmPairEndingInAResidual) {
  // The consumer's output starts from R: its reads are in every front point and every sample.
  expect_no_mapping_beats_the_front(kFfnPair, ffn_workload("R"), 150);
}

TEST_F(FrontExactness, AttentionWithSoftmax) {
  const ChainSpec chain{{"qk",
                         {"h", "m", "n", "k"},
                         {{"Q", {"h", "m", "k"}}, {"K", {"h", "n", "k"}}, {"S", {"h", "m", "n"}}}},
                        {"pv",
                         {"h", "m", "l", "n"},
                         {{"P", {"h", "m", "n"}}, {"V", {"h", "n", "l"}}, {"O", {"h", "m", "l"}}}},
                        "P",
                        {{"h", 2}, {"m", 16}, {"n", 32}, {"k", 8}, {"l", 8}}};
  expect_no_mapping_beats_the_front(
      chain, test_common::attention_workload("attention", 2, 16, 32, 8, 8), 150);
}

} // namespace
} // namespace dse::testing
