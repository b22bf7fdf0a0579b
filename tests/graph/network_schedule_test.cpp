// Tests of src/graph/network_schedule.cpp: the one schedule of a network. With every tensor
// through DRAM it is the sum of the segment searches' own points; the tensors it keeps on chip
// fit beside every running segment's tiles, are passed between segments, and take exactly their
// DRAM words out of the segments' counts; latency and energy never grow.
#include "dse/graph/network_schedule.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <optional>

#include "common/suite_scale.hpp"
#include "dse/graph/node_work.hpp"
#include "dse/graph/pass_layouts.hpp"
#include "test_graphs.hpp"

namespace dse {
namespace {

using testing::cheap_network_options;
using testing::tiny_hardware;

NetworkPlan plan_of(const Graph &g, const Hardware &hw, std::size_t max_fused = kNetworkMaxFused) {
  NetworkOptions options = cheap_network_options();
  options.search.max_fused = max_fused;
  return plan_network(g, hw, options);
}

const ScheduleTotals &without(const NetworkSchedule &s, const std::string &pass) {
  for (const PassContribution &c : s.contributions)
    if (c.pass == pass)
      return c.without;
  throw std::logic_error("no pass " + pass);
}

void expect_near(double a, double b, const std::string &what) {
  EXPECT_NEAR(a, b, 1e-9 * std::max(std::abs(a), std::abs(b))) << what;
}

/// The step at which each segment runs.
std::vector<size_t> steps_of(const NetworkSchedule &s) {
  std::vector<size_t> step(s.order.size());
  for (size_t k = 0; k < s.order.size(); ++k)
    step[static_cast<size_t>(s.order[k])] = k;
  return step;
}

/// Pass `i` of schedule `s` run under `option`, its tensors kept on chip moving no DRAM word.
SegmentCost pass_cost(const Graph &g, const Hardware &hw, const NetworkSchedule &s, size_t i,
                      const ParallelOption &option) {
  const Segment &segment = s.segments[i];
  SegmentPart part = segment.cost.parts.at(0);
  for (TensorDramWords &t : part.tensors)
    if (s.resident[static_cast<size_t>(segment.graph_tensors.at(t.tensor))]) {
      part.totals.dram_reads -= t.reads;
      part.totals.dram_writes -= t.writes;
    }
  return sequence_cost({with_pass_option(part, g, hw, segment.nodes.front(), option)}, hw,
                       LatencyModel::Roofline);
}

/// The vector passes of plan `p`'s schedule: exactly they have a layout; the passes that read or
/// write one tensor kept on chip share its layout, the graph's own where that tensor is one buffer
/// with others (`root`: an eliminated movement node's) and the layouts order one of them apart;
/// each costs its counts under its option,
/// the fastest of them where no tensor on chip binds it; and without layout planning only latency
/// grows.
void check_pass_layouts(const Graph &g, const Hardware &hw, const NetworkPlan &p,
                        const std::function<size_t(size_t)> &root) {
  const NetworkSchedule &s = p.schedule;
  ASSERT_EQ(s.layouts.size(), s.segments.size());
  std::vector<std::optional<DataLayout>> stored(g.tensors.size()); // per buffer root
  std::vector<int> members(g.tensors.size(), 0);
  std::vector<bool> ordered(g.tensors.size(), false); // a member stored apart in the two layouts
  for (size_t t = 0; t < g.tensors.size(); ++t) {
    ++members[root(t)];
    ordered[root(t)] = ordered[root(t)] || !layouts_store_alike(g.tensors[t].shape);
  }
  for (size_t i = 0; i < s.segments.size(); ++i) {
    const Segment &segment = s.segments[i];
    SCOPED_TRACE(segment.label);
    const bool pass = segment.kind == SegmentKind::Vector && !segment.eliminated;
    ASSERT_EQ(s.layouts[i].has_value(), pass);
    if (!pass)
      continue;
    const ParallelOption &chosen = *s.layouts[i];
    expect_near(s.costs[i].latency_s, pass_cost(g, hw, s, i, chosen).latency_s, "pass latency");
    bool bound = false;
    for (const auto &[name, t] : segment.graph_tensors) {
      if (!s.resident[static_cast<size_t>(t)])
        continue;
      bound = true;
      const size_t r = root(static_cast<size_t>(t));
      if (members[r] > 1 && ordered[r]) {
        EXPECT_EQ(chosen.layout, DataLayout::LastAxis) << name << " is a view";
      }
      if (stored[r]) {
        EXPECT_EQ(chosen.layout, *stored[r]) << name << " is stored in one layout";
      }
      stored[r] = chosen.layout;
    }
    if (bound)
      continue;
    for (const ParallelOption &o :
         parallel_options(g.tensor(g.node(segment.nodes.front()).outputs[0]).shape, hw.cores))
      EXPECT_LE(s.costs[i].latency_s, pass_cost(g, hw, s, i, o).latency_s * (1 + 1e-12));
  }
  const ScheduleTotals &graph_layout = without(s, "layout planning");
  EXPECT_LE(s.total.latency_s, graph_layout.latency_s * (1 + 1e-12));
  expect_near(graph_layout.energy_pj, s.total.energy_pj, "energy in the graph's layout");
  expect_near(graph_layout.dram_words, s.total.dram_words, "DRAM words in the graph's layout");
}

/// Every property of the schedule of plan `p` of `g`, checked from the segments' own counts.
void check_schedule(const Graph &g, const Hardware &hw, const NetworkPlan &p) {
  SCOPED_TRACE(g.name + " on " + std::to_string(p.schedule.capacity_words) + " words");
  const NetworkSchedule &s = p.schedule;
  const std::vector<Segment> &segments = s.segments;
  ASSERT_EQ(s.order.size(), segments.size());
  ASSERT_EQ(s.costs.size(), segments.size());

  // The schedule runs the plan's segments, but the runs it splits (as their singles), the
  // other runs it joins (instead of their singles) and the movement nodes it copies; every node
  // once.
  const auto has = [](const std::vector<int> &v, int x) {
    return std::find(v.begin(), v.end(), x) != v.end();
  };
  std::vector<int> covered(g.nodes.size(), 0);
  for (const Segment &segment : segments)
    for (int v : segment.nodes)
      ++covered[static_cast<size_t>(v)];
  EXPECT_EQ(std::count(covered.begin(), covered.end(), 1), static_cast<long>(g.nodes.size()));
  const auto same = [](const Segment &a, const Segment &b) {
    return a.nodes == b.nodes && a.kind == b.kind && a.cost.dram_words == b.cost.dram_words;
  };
  const auto any_same = [&](const std::vector<Segment> &in, const Segment &x) {
    return std::any_of(in.begin(), in.end(), [&](const Segment &y) { return same(x, y); });
  };
  for (const Segment &run : segments) {
    const int first = run.nodes.front();
    SCOPED_TRACE(run.label);
    if (run.kind == SegmentKind::Fused) { // the plan's, or one joined
      EXPECT_NE(has(s.joined, first), any_same(p.fusion.segments, run));
      EXPECT_EQ(has(s.joined, first), any_same(p.fusion.other_fused, run));
      EXPECT_FALSE(has(s.split, first));
    } else if (run.kind == SegmentKind::Single) { // the plan's, or a split run's
      EXPECT_TRUE(any_same(p.fusion.unfused, run));
    } else if (run.kind == SegmentKind::Split) { // a split region run part by part
      EXPECT_TRUE(has(s.parted, first));
      EXPECT_EQ(run.nodes, run.region.nodes);
    } else if (has(s.copied, first)) {
      EXPECT_FALSE(run.eliminated);
    } else {
      EXPECT_TRUE(any_same(p.fusion.segments, run));
    }
  }
  for (int first : s.split)
    EXPECT_TRUE(
        std::any_of(p.fusion.segments.begin(), p.fusion.segments.end(), [&](const Segment &x) {
          return x.kind == SegmentKind::Fused && x.nodes.front() == first;
        }));
  for (int node : s.copied)
    EXPECT_TRUE(
        std::any_of(p.fusion.segments.begin(), p.fusion.segments.end(),
                    [&](const Segment &x) { return x.eliminated && x.nodes.front() == node; }));

  // Every tensor through DRAM: the segments' own points (searched, or copies), summed; the
  // plan's total when the schedule changes none of its segments.
  const ScheduleTotals &through = without(s, "on-chip residency");
  SegmentCost own;
  for (const Segment &segment : segments) {
    own.latency_s += segment.cost.latency_s;
    own.energy_pj += segment.cost.energy_pj;
    own.dram_words += segment.cost.dram_words;
  }
  expect_near(through.latency_s, own.latency_s, "latency through DRAM");
  expect_near(through.energy_pj, own.energy_pj, "energy through DRAM");
  expect_near(through.dram_words, own.dram_words, "DRAM words through DRAM");
  if (s.copied.empty() && s.split.empty() && s.joined.empty() && s.parted.empty())
    expect_near(through.dram_words, p.fusion.total.dram_words, "the plan's DRAM words");
  EXPECT_LE(s.total.dram_words, through.dram_words);
  EXPECT_LE(s.total.latency_s, through.latency_s * (1 + 1e-12));
  EXPECT_LE(s.total.energy_pj, through.energy_pj * (1 + 1e-12));
  // The plan's MACs, and the rows of each split region's parts computed twice (their halos),
  // where no part runs fused (a fused part computes what its windows read, recomputed or not).
  double halo = 0;
  bool parts_fused = false;
  for (const Segment &segment : segments)
    if (segment.kind == SegmentKind::Split) {
      halo += halo_macs(g, segment.region);
      parts_fused = parts_fused || segment.cost.fused;
    }
  if (!parts_fused)
    expect_near(s.total.macs, p.fusion.total.macs + halo, "MACs");

  // Which segment writes each tensor, and the last step that reads it.
  const std::vector<size_t> step = steps_of(s);
  std::vector<int> writer(g.tensors.size(), -1);
  std::vector<size_t> last_read(g.tensors.size(), 0);
  std::vector<int> readers(g.tensors.size(), 0);
  double moved = 0; // DRAM words the segments' own points move for resident tensors
  for (size_t i = 0; i < segments.size(); ++i) {
    for (const auto &[name, t] : segments[i].graph_tensors) {
      const auto u = static_cast<size_t>(t);
      const bool writes = std::find(segments[i].nodes.begin(), segments[i].nodes.end(),
                                    g.tensor(t).producer) != segments[i].nodes.end();
      if (writes) {
        writer[u] = static_cast<int>(i);
      } else {
        ++readers[u];
        last_read[u] = std::max(last_read[u], step[i]);
      }
    }
    for (const SegmentPart &part : segments[i].cost.parts)
      for (const TensorDramWords &t : part.tensors) {
        const auto bound = segments[i].graph_tensors.find(t.tensor);
        if (bound != segments[i].graph_tensors.end() &&
            s.resident[static_cast<size_t>(bound->second)])
          moved += t.reads + t.writes;
      }
  }
  expect_near(s.total.dram_words, through.dram_words - moved, "DRAM words kept on chip");

  // Resident tensors are activations passed from one segment to others, and fit. An eliminated
  // movement node's inputs and outputs share one storage (its largest member's words), live from
  // the first member's writer to the last member's reader, recounted here on their own.
  std::vector<size_t> group(g.tensors.size());
  std::iota(group.begin(), group.end(), size_t{0});
  const std::function<size_t(size_t)> root = [&](size_t t) {
    return group[t] == t ? t : root(group[t]);
  };
  for (const Segment &segment : segments)
    if (segment.eliminated)
      for (int in : g.node(segment.nodes.front()).inputs)
        for (int out : g.node(segment.nodes.front()).outputs)
          if (g.tensor(in).kind != TensorKind::Weight)
            group[root(static_cast<size_t>(out))] = root(static_cast<size_t>(in));
  std::vector<double> words(g.tensors.size(), 0);
  std::vector<size_t> first(g.tensors.size(), segments.size()), last(g.tensors.size(), 0);
  std::vector<int> resident(g.tensors.size(), -1);
  for (size_t t = 0; t < g.tensors.size(); ++t) {
    const size_t r = root(t);
    words[r] = std::max(words[r], static_cast<double>(element_count(g.tensors[t].shape)));
    if (writer[t] >= 0)
      first[r] = std::min(first[r], step[static_cast<size_t>(writer[t])]);
    if (readers[t] > 0)
      last[r] = std::max(last[r], last_read[t]);
    if (resident[r] >= 0) { // one storage: kept on chip or not as a whole
      EXPECT_EQ(resident[r], s.resident[t] ? 1 : 0) << g.tensors[t].name;
    }
    resident[r] = s.resident[t] ? 1 : 0;
    if (!s.resident[t])
      continue;
    EXPECT_EQ(g.tensors[t].kind, TensorKind::Activation) << g.tensors[t].name;
    EXPECT_FALSE(g.tensors[t].is_output) << g.tensors[t].name;
  }
  std::vector<double> held(segments.size(), 0);
  for (size_t i = 0; i < segments.size(); ++i)
    held[step[i]] = segments[i].eliminated ? 0 : segments[i].cost.buffer_words;
  for (size_t r = 0; r < g.tensors.size(); ++r) {
    if (root(r) != r || resident[r] != 1)
      continue;
    EXPECT_LE(first[r], last[r]) << g.tensors[r].name; // written, then read, by segments
    for (size_t k = first[r]; k <= last[r] && k < held.size(); ++k)
      held[k] += words[r];
  }
  for (size_t k = 0; k < held.size(); ++k)
    EXPECT_LE(held[k], s.capacity_words) << "step " << k;
  EXPECT_LE(s.peak_words, s.capacity_words);

  check_pass_layouts(g, hw, p, root);

  // The network front holds the schedule (or a point as good on both objectives) and never a
  // point the segment front or a contribution's schedule beats.
  ASSERT_FALSE(s.front.empty());
  const auto on_front = [&](double latency, double energy) {
    return std::any_of(s.front.begin(), s.front.end(), [&](const CostPoint &q) {
      return q.latency_s <= latency && q.energy_pj <= energy;
    });
  };
  EXPECT_TRUE(on_front(s.total.latency_s, s.total.energy_pj));
  for (const CostPoint &q : p.fusion.total.front)
    EXPECT_TRUE(on_front(q.latency_s, q.energy_pj));
  for (const PassContribution &c : s.contributions)
    EXPECT_TRUE(on_front(c.without.latency_s, c.without.energy_pj)) << c.pass;
  for (size_t i = 1; i < s.front.size(); ++i) {
    EXPECT_GT(s.front[i].latency_s, s.front[i - 1].latency_s);
    EXPECT_LT(s.front[i].energy_pj, s.front[i - 1].energy_pj);
  }
}

TEST(NetworkSchedule, ThroughDramItIsTheSegmentsSumAndWhatStaysOnChipFits) {
  const Graph tiny = load_network(testing::repo_file("networks/tiny-cnn.yaml"));
  const Graph chain = parse_graph_yaml(testing::kConvChain, "c.yaml");
  for (long capacity : {3000L, 20000L, 100000L, 1000000L}) {
    check_schedule(tiny, tiny_hardware(capacity), plan_of(tiny, tiny_hardware(capacity)));
    check_schedule(chain, tiny_hardware(capacity), plan_of(chain, tiny_hardware(capacity)));
  }
  // With runs of three searched (the tiny CNN's expand -> depthwise -> project).
  for (long capacity : {3000L, 100000L})
    check_schedule(tiny, tiny_hardware(capacity), plan_of(tiny, tiny_hardware(capacity), 3));
  if (test_common::kSanitizedSuite)
    return; // ResNet-18 is planned in tests/graph/network_plan_test.cpp there
  const Graph resnet = load_network(testing::repo_file("networks/resnet18.onnx"));
  const Hardware dsp = load_hardware(testing::repo_file("hw_configs/vector-dsp-4core-8m.yaml"));
  check_schedule(resnet, dsp, plan_of(resnet, dsp));
}

// VGG-16's second convolution writes 3.2M words that only its pool reads: run in row parts, each
// part's pool reads the part's rows on chip, its searches leaving room for them. On 362 KiB the
// schedule runs it so, and is faster than without splitting.
TEST(NetworkSchedule, ASplitRegionKeepsItsSlabsOnChipWherePartsPay) {
  const Graph g = load_network(testing::repo_file("networks/vgg16-first-five.yaml"));
  const Hardware hw = load_hardware(testing::repo_file("hw_configs/fused-layer-362k.yaml"));
  const NetworkPlan p = plan_of(g, hw);
  check_schedule(g, hw, p);
  const auto region = std::find_if(p.schedule.segments.begin(), p.schedule.segments.end(),
                                   [](const Segment &s) { return s.kind == SegmentKind::Split; });
  ASSERT_NE(region, p.schedule.segments.end());
  EXPECT_GT(without(p.schedule, "splitting").latency_s, p.schedule.total.latency_s);
  EXPECT_LE(region->cost.buffer_words, static_cast<double>(hw.gb_capacity_words()));
  // The pool's input never reaches DRAM: the region moves the words of its input (each part's
  // rows and halo), its weights once per part and its output, no more.
  const SplitRegion &r = region->region;
  const int conv = r.nodes.front();
  const int input = g.node(conv).inputs[0];
  double input_reads = 0;
  for (int part = 0; part < r.parts; ++part)
    input_reads += input_words(g, r, conv, input, r.ranges[0][static_cast<size_t>(part)]);
  const double weights = node_weight_words(g, conv) * r.parts;
  const double output =
      static_cast<double>(element_count(g.tensor(g.node(r.nodes.back()).outputs[0]).shape));
  EXPECT_GE(region->cost.dram_words, input_reads + weights + output);
  // The tensors a part keeps (not shared with the rest of the graph) move no DRAM word.
  int slabs = 0;
  for (const SegmentPart &part : region->cost.parts)
    for (const TensorDramWords &t : part.tensors)
      if (!region->graph_tensors.contains(t.tensor)) {
        ++slabs;
        EXPECT_EQ(t.reads + t.writes, 0.0) << t.tensor;
      }
  EXPECT_GE(slabs, 2 * r.parts); // written by the convolution, read by the pool
}

// GoogLeNet's stem on 362 KiB: the region from its first convolution to its second pays in row
// parts only once the fused run it cuts runs as its singles; both are one change of the schedule.
TEST(NetworkSchedule, ARegionMakesRoomByRunningTheFusedRunsItCutsAsSingles) {
  const Graph g = load_network(testing::repo_file("networks/googlenet.onnx"));
  const Hardware hw = load_hardware(testing::repo_file("hw_configs/fused-layer-362k.yaml"));
  const NetworkPlan p = plan_of(g, hw);
  check_schedule(g, hw, p);
  const auto region = std::find_if(p.schedule.segments.begin(), p.schedule.segments.end(),
                                   [](const Segment &s) { return s.kind == SegmentKind::Split; });
  ASSERT_NE(region, p.schedule.segments.end());
  EXPECT_GT(without(p.schedule, "splitting").latency_s, p.schedule.total.latency_s);
  EXPECT_TRUE(
      std::any_of(p.fusion.segments.begin(), p.fusion.segments.end(), [&](const Segment &s) {
        return s.kind == SegmentKind::Fused && region->region.contains(s.nodes.front()) &&
               std::find(p.schedule.split.begin(), p.schedule.split.end(), s.nodes.front()) !=
                   p.schedule.split.end();
      }));
}

// MobileNetV2 on the 1 MiB design, for energy: the search splits runs and joins others that
// share nodes with them; a refinement that would leave a node out (or run one twice) is never
// taken, however cheap it looks.
TEST(NetworkSchedule, EveryNodeRunsOnceWhereSplitsAndJoinsMeet) {
  const Graph g = load_network(testing::repo_file("networks/mobilenet_v2.onnx"));
  NetworkOptions options = cheap_network_options();
  options.objective = PlanObjective::Energy;
  const Hardware hw = load_hardware(testing::repo_file("hw_configs/sim-1g-1mb-60gbps.yaml"));
  const NetworkPlan p = plan_network(g, hw, options);
  check_schedule(g, hw, p);
  EXPECT_FALSE(p.schedule.split.empty());
  EXPECT_FALSE(p.schedule.joined.empty());
}

TEST(NetworkSchedule, ResidualAddsRideOnTheirConvolutions) {
  // Each add of a block's input to its last convolution's result starts that result: no add runs
  // as a vector pass, and the block's input is read by the convolution's segment.
  const std::string network =
      test_common::per_suite<std::string>("networks/resnet18.onnx", "networks/tiny-cnn.yaml");
  const Graph g = load_network(testing::repo_file(network));
  const Hardware hw = load_hardware(testing::repo_file("hw_configs/vector-dsp-4core-8m.yaml"));
  const NetworkPlan p = plan_of(g, hw);
  int adds = 0;
  for (const Segment &seg : p.schedule.segments)
    for (int node : seg.nodes)
      if (g.node(node).op_type == "Add") {
        ++adds;
        EXPECT_NE(seg.kind, SegmentKind::Vector) << seg.label;
        const GraphNode &add = g.node(node);
        const bool reads_block_input =
            std::any_of(seg.graph_tensors.begin(), seg.graph_tensors.end(), [&](const auto &b) {
              return b.second == add.inputs[0] || b.second == add.inputs[1];
            });
        EXPECT_TRUE(reads_block_input) << seg.label;
      }
  EXPECT_GT(adds, 0);
  check_schedule(g, hw, p);
}

TEST(NetworkSchedule, AResidualAfterABiasRidesOnTheEinsum) {
  // BERT's second FFN MatMul adds its bias, then the block's input: both ride on the MatMul.
  if (test_common::kSanitizedSuite)
    GTEST_SKIP() << "a BERT layer plan is too slow under the sanitizers";
  const Graph g = load_network(testing::repo_file("networks/bert_base_layer_s512.onnx"));
  const Hardware hw = load_hardware(testing::repo_file("hw_configs/vector-dsp-4core-8m.yaml"));
  const NetworkPlan p = plan_of(g, hw);
  const auto has = [&](const Segment &seg, const std::string &name) {
    return std::any_of(seg.nodes.begin(), seg.nodes.end(),
                       [&](int n) { return g.node(n).name == name; });
  };
  int found = 0;
  for (const Segment &seg : p.schedule.segments)
    if (has(seg, "/layer/linear2/MatMul")) {
      ++found;
      EXPECT_TRUE(has(seg, "/layer/linear2/Add")) << seg.label;
      EXPECT_TRUE(has(seg, "/layer/Add_1")) << seg.label;
    }
  EXPECT_EQ(found, 1);
  check_schedule(g, hw, p);
}

TEST(NetworkSchedule, AmpleBufferKeepsEveryIntermediateOnChip) {
  const Graph g = parse_graph_yaml(testing::kConvChain, "c.yaml");
  const NetworkPlan p = plan_of(g, tiny_hardware(1000000));
  // Only the input x, the weights and the output z cross DRAM.
  for (size_t i = 0; i < p.schedule.segments.size(); ++i)
    for (const SegmentPart &part : p.schedule.costs[i].parts)
      for (const TensorDramWords &t : part.tensors) {
        const Segment &s = p.schedule.segments[i];
        const auto bound = s.graph_tensors.find(t.tensor);
        if (bound == s.graph_tensors.end())
          continue; // internal to the segment
        const GraphTensor &tensor = g.tensor(bound->second);
        if (tensor.kind == TensorKind::Activation && !tensor.is_output) {
          EXPECT_EQ(t.reads + t.writes, 0) << s.label << " " << tensor.name;
        }
      }
  // Each intermediate is inside a segment (a fused pair's, or an attached activation's input)
  // or kept on chip between two.
  int kept = 0;
  for (const char *name : {"y1", "a1", "y2", "a2"}) {
    const int t = g.tensor_index(name);
    bool bound = false;
    for (const Segment &s : p.schedule.segments)
      for (const auto &entry : s.graph_tensors)
        bound |= entry.second == t;
    EXPECT_EQ(p.schedule.resident[static_cast<size_t>(t)], bound) << name;
    kept += bound ? 1 : 0;
  }
  EXPECT_GT(kept, 0);
  EXPECT_LT(p.schedule.total.dram_words, p.fusion.total.dram_words);
}

TEST(NetworkSchedule, FusionAndMovementEliminationAreMeasuredOnTheSameSchedule) {
  const Graph g = load_network(testing::repo_file("networks/tiny-cnn.yaml"));
  const NetworkPlan p = plan_of(g, tiny_hardware(20000));
  ASSERT_EQ(p.schedule.contributions.size(), 5u);
  // Every segment alone: the singles the dynamic program compared the pairs with.
  size_t computes = 0;
  for (const GraphNode &n : g.nodes)
    computes += is_compute(n.kind) ? 1 : 0;
  size_t singles = 0;
  for (const Segment &s : p.fusion.unfused)
    singles += s.kind == SegmentKind::Single ? 1 : 0;
  EXPECT_EQ(singles, computes);
  // The flatten moves nothing in the schedule; as a copy it reads and writes DRAM unless both
  // of its tensors stay on chip.
  const ScheduleTotals &copies = without(p.schedule, "movement elimination");
  EXPECT_GE(copies.dram_words, p.schedule.total.dram_words);
  expect_near(copies.macs, p.schedule.total.macs, "MACs with copies");
}

// GoogLeNet's concatenations, eliminated, make each block's branch outputs one buffer for the
// whole block, and some of its pairs pay only with their intermediates through DRAM: its schedule
// splits pairs of the segment plan, joins pairs it left out and copies concatenations. The search
// ends no dearer than the same schedule without any pass, in the plan's objective.
TEST(NetworkSchedule, NoPassMakesTheScheduleDearer) {
  const Hardware hw = load_hardware(testing::repo_file("hw_configs/vector-dsp-4core-8m.yaml"));
  const std::string network =
      test_common::per_suite<std::string>("networks/googlenet.onnx", "networks/tiny-cnn.yaml");
  const Graph g = load_network(testing::repo_file(network));
  const NetworkPlan p = plan_of(g, hw);
  const NetworkSchedule &s = p.schedule;
  for (const PassContribution &c : s.contributions)
    EXPECT_LE(s.total.latency_s, c.without.latency_s * (1 + 1e-12)) << c.pass;
  if (!test_common::kSanitizedSuite) {
    EXPECT_FALSE(s.split.empty() || s.copied.empty());
  }
  for (int node : s.copied)
    EXPECT_EQ(g.node(node).kind, NodeKind::Concat) << g.node(node).name;
  check_schedule(g, hw, p);
}

TEST(NetworkSchedule, RunsLeftOutAreJoinedWhereThatPays) {
  // MobileNetV2 for energy: with tensors kept on chip, two runs the segmentation left out pay.
  if (test_common::kSanitizedSuite)
    GTEST_SKIP() << "a whole MobileNetV2 plan is too slow under the sanitizers";
  const Hardware hw = load_hardware(testing::repo_file("hw_configs/vector-dsp-4core-8m.yaml"));
  const Graph g = load_network(testing::repo_file("networks/mobilenet_v2.onnx"));
  NetworkOptions options = cheap_network_options();
  options.objective = PlanObjective::Energy;
  const NetworkPlan p = plan_network(g, hw, options);
  EXPECT_FALSE(p.schedule.joined.empty());
  for (const PassContribution &c : p.schedule.contributions)
    EXPECT_LE(p.schedule.total.energy_pj, c.without.energy_pj * (1 + 1e-12)) << c.pass;
  check_schedule(g, hw, p);
}

} // namespace
} // namespace dse
