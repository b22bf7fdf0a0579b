// ONNX fuzzing that keeps the protobuf valid: the shipped models with attributes, initializer
// dims and input dims set to edge values (0, negative, huge), nodes dropped or retyped, inputs
// rewired (seeded). Each mutant imports and plans its memory, or fails with a UserError naming
// the file; never another exception, never a crash or an overflow.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <fstream>
#include <random>
#include <sstream>

#include "common/fuzz_outcome.hpp"
#include "dse/config/onnx_loader.hpp"
#include "dse/graph/network_plan.hpp"
#include "test_graphs.hpp"

namespace dse {
namespace {

class ModelMutator {
public:
  explicit ModelMutator(std::uint32_t seed) : rng_(seed) {}

  onnx::ModelProto mutate(const onnx::ModelProto &original) {
    onnx::ModelProto m = original;
    for (int count = pick(1, 3); count > 0; --count)
      mutate_once(*m.mutable_graph());
    return m;
  }

private:
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  std::int64_t edge_value() {
    static const std::int64_t kValues[] = {
        0, -1, 1, 2, 3, 1 << 20, 2147483647, 4294967297, 1LL << 40, 1LL << 62, -(1LL << 62)};
    return kValues[pick(0, static_cast<int>(std::size(kValues)) - 1)];
  }
  template <class Repeated> auto &any_of(Repeated &r) { return *r.Mutable(pick(0, r.size() - 1)); }

  void mutate_once(onnx::GraphProto &g) {
    switch (pick(0, 5)) {
    case 0: // an integer attribute or one entry of an integer list
      if (g.node_size() > 0) {
        onnx::NodeProto &n = any_of(*g.mutable_node());
        if (n.attribute_size() > 0) {
          onnx::AttributeProto &a = any_of(*n.mutable_attribute());
          if (a.ints_size() > 0)
            a.set_ints(pick(0, a.ints_size() - 1), edge_value());
          else
            a.set_i(edge_value());
        }
      }
      return;
    case 1: // a dim of an initializer
      if (g.initializer_size() > 0) {
        onnx::TensorProto &t = any_of(*g.mutable_initializer());
        if (t.dims_size() > 0)
          t.set_dims(pick(0, t.dims_size() - 1), edge_value());
      }
      return;
    case 2: // a dim of a graph input
      if (g.input_size() > 0) {
        auto *shape =
            any_of(*g.mutable_input()).mutable_type()->mutable_tensor_type()->mutable_shape();
        if (shape->dim_size() > 0)
          any_of(*shape->mutable_dim()).set_dim_value(edge_value());
      }
      return;
    case 3: // a node dropped: its consumers read an undefined tensor
      if (g.node_size() > 1)
        g.mutable_node()->DeleteSubrange(pick(0, g.node_size() - 1), 1);
      return;
    case 4: { // a node retyped
      static const char *const kTypes[] = {
          "Conv", "MaxPool", "Gemm",    "MatMul",  "Relu",
          "Add",  "Concat",  "Reshape", "Softmax", "GlobalAveragePool"};
      if (g.node_size() > 0)
        any_of(*g.mutable_node()).set_op_type(kTypes[pick(0, 9)]);
      return;
    }
    default: // an input rewired to another tensor
      if (g.node_size() > 1) {
        onnx::NodeProto &n = any_of(*g.mutable_node());
        const onnx::NodeProto &other = g.node(pick(0, g.node_size() - 1));
        if (n.input_size() > 0 && other.output_size() > 0)
          n.set_input(pick(0, n.input_size() - 1), other.output(0));
      }
      return;
    }
  }

  std::mt19937 rng_;
};

TEST(OnnxFuzz, MutatedModelsImportAndPlanOrFailCleanly) {
  const Hardware hw = load_hardware(testing::repo_file("hw_configs/vector-dsp-4core-8m.yaml"));
  NetworkOptions options;
  options.search_segments = false;
  for (const std::string &path : testing::shipped_networks()) {
    if (path.ends_with(".yaml"))
      continue;
    std::ifstream in(testing::repo_file(path), std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    onnx::ModelProto original;
    ASSERT_TRUE(original.ParseFromString(bytes.str())) << path;
    const std::string name = path.substr(path.rfind('/') + 1);
    ModelMutator mutator(static_cast<std::uint32_t>(std::hash<std::string>{}(name)));
    test_common::FuzzTally tally;
    for (int i = 0; i < 60; ++i) {
      const std::string mutant = mutator.mutate(original).SerializeAsString();
      test_common::run_mutant([&] { plan_network(parse_onnx(mutant, name), hw, options); }, name,
                              name + ", mutant " + std::to_string(i) + " (binary)", tally);
    }
    EXPECT_GT(tally.rejected, 0) << name;
    EXPECT_GT(tally.accepted, 0) << name;
  }
}

} // namespace
} // namespace dse
