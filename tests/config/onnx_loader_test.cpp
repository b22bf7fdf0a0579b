// Tests of src/config/onnx_loader.cpp: the shipped networks import with the right structure;
// malformed models, symbolic shapes, unsupported and inconsistent nodes fail with exact messages.
#include "dse/config/onnx_loader.hpp"

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include "common/repo_files.hpp"
#include "config/expect_error.hpp"
#include "dse/config/graph_loader.hpp"

namespace dse {
namespace {

using test_common::repo_file;

/// A one-input model; `add` appends nodes to it.
struct ModelBuilder {
  onnx::ModelProto model;
  onnx::GraphProto *graph = model.mutable_graph();

  ModelBuilder() {
    model.add_opset_import()->set_version(13);
    add_value(graph->add_input(), "x", {1, 4, 8, 8});
  }

  static void add_value(onnx::ValueInfoProto *v, const std::string &name,
                        const std::vector<std::int64_t> &dims) {
    v->set_name(name);
    auto *shape = v->mutable_type()->mutable_tensor_type()->mutable_shape();
    v->mutable_type()->mutable_tensor_type()->set_elem_type(1);
    for (std::int64_t d : dims)
      shape->add_dim()->set_dim_value(d);
  }

  onnx::NodeProto *add(const std::string &op, const std::string &name,
                       std::vector<std::string> inputs, const std::string &output) {
    onnx::NodeProto *n = graph->add_node();
    n->set_op_type(op);
    n->set_name(name);
    for (const std::string &in : inputs)
      n->add_input(in);
    n->add_output(output);
    return n;
  }

  /// A Constant node writing the rank-1 INT64 tensor {value} to `output`.
  void add_constant(const std::string &name, const std::string &output, std::int64_t value) {
    auto *attr = add("Constant", name, {}, output)->add_attribute();
    attr->set_name("value");
    attr->set_type(onnx::AttributeProto::TENSOR);
    attr->mutable_t()->set_data_type(onnx::TensorProto::INT64);
    attr->mutable_t()->add_dims(1);
    attr->mutable_t()->add_int64_data(value);
  }

  /// A Constant node writing the INT64 list `values` to `output` (a value_ints attribute).
  void add_constant_list(const std::string &name, const std::string &output,
                         const std::vector<std::int64_t> &values) {
    auto *attr = add("Constant", name, {}, output)->add_attribute();
    attr->set_name("value_ints");
    attr->set_type(onnx::AttributeProto::INTS);
    for (std::int64_t v : values)
      attr->add_ints(v);
  }

  /// An initializer `name` of float weights with dims `dims` (data kept external).
  void add_weights(const std::string &name, const std::vector<std::int64_t> &dims) {
    onnx::TensorProto *w = graph->add_initializer();
    w->set_name(name);
    w->set_data_type(1);
    for (std::int64_t d : dims)
      w->add_dims(d);
    w->set_data_location(onnx::TensorProto::EXTERNAL);
  }

  void output(const std::string &name) { graph->add_output()->set_name(name); }
  std::string bytes() const { return model.SerializeAsString(); }
};

::testing::AssertionResult fails(const std::string &bytes, const std::string &message) {
  return testing::throws_at([&] { parse_onnx(bytes, "m.onnx"); }, "m.onnx", message);
}

TEST(OnnxLoader, ResNet18Structure) {
  const Graph g = load_onnx(repo_file("networks/resnet18.onnx"));
  EXPECT_EQ(g.name, "resnet18");
  ASSERT_EQ(g.inputs.size(), 1u);
  EXPECT_EQ(g.tensor(g.inputs[0]).shape, (Shape{1, 3, 224, 224}));
  ASSERT_EQ(g.outputs.size(), 1u);
  EXPECT_EQ(g.tensor(g.outputs[0]).shape, (Shape{1, 1000}));
  const GraphNode &conv1 = g.nodes.front();
  EXPECT_EQ(conv1.kind, NodeKind::Conv);
  EXPECT_EQ(conv1.attrs.kernel, (Shape{7, 7}));
  EXPECT_EQ(conv1.attrs.strides, (Shape{2, 2}));
  EXPECT_EQ(conv1.attrs.pads, (Shape{3, 3, 3, 3}));
  EXPECT_EQ(g.tensor(conv1.outputs[0]).shape, (Shape{1, 64, 112, 112}));
  EXPECT_EQ(g.tensor(conv1.inputs[1]).kind, TensorKind::Weight);
  int convs = 0;
  for (const GraphNode &n : g.nodes)
    convs += n.kind == NodeKind::Conv ? 1 : 0;
  EXPECT_EQ(convs, 20);
  EXPECT_EQ(g.folded_nodes, 16); // Identity nodes sharing weights
}

TEST(OnnxLoader, MobileNetDepthwiseAndBertShapePlumbing) {
  const Graph m = load_onnx(repo_file("networks/mobilenet_v2.onnx"));
  bool depthwise = false;
  for (const GraphNode &n : m.nodes)
    depthwise |= n.kind == NodeKind::Conv && n.attrs.groups == 32;
  EXPECT_TRUE(depthwise);
  const Graph b = load_onnx(repo_file("networks/bert_base_layer_s512.onnx"));
  EXPECT_EQ(b.tensor(b.outputs[0]).shape, (Shape{1, 512, 768}));
  // The q/k/v slices take their bounds from folded Shape/Gather/Div arithmetic.
  const int q = b.tensor_index("/layer/self_attn/Slice_output_0");
  ASSERT_GE(q, 0);
  EXPECT_EQ(b.tensor(q).shape, (Shape{512, 1, 768}));
  const int scores = b.tensor_index("/layer/self_attn/MatMul_1_output_0");
  EXPECT_EQ(b.tensor(scores).shape, (Shape{12, 512, 512}));
}

TEST(OnnxLoader, EveryShippedModelImports) {
  for (const std::string &name : test_common::shipped_networks()) {
    const Graph g = load_network(repo_file(name));
    EXPECT_FALSE(g.nodes.empty()) << name;
    for (const GraphTensor &t : g.tensors)
      EXPECT_FALSE(t.shape.empty()) << name << ": " << t.name;
  }
}

TEST(OnnxLoader, RejectsBytesThatAreNotAModel) {
  EXPECT_TRUE(fails("", "not a valid ONNX model"));
  EXPECT_TRUE(fails("\xff\xff\xff\xff garbage", "not a valid ONNX model"));
  onnx::ModelProto empty;
  empty.set_ir_version(7);
  EXPECT_TRUE(fails(empty.SerializeAsString(), "the ONNX model has no graph"));
}

TEST(OnnxLoader, ListsEveryUnsupportedOperator) {
  ModelBuilder b;
  b.add("Relu", "ok", {"x"}, "a");
  b.add("NonMaxSuppression", "nms", {"a"}, "b");
  b.add("TopK", "top", {"b"}, "c");
  b.output("c");
  EXPECT_TRUE(fails(b.bytes(), "2 unsupported operators: 'NonMaxSuppression' at node 'nms' (#1), "
                               "'TopK' at node 'top' (#2)"));
}

TEST(OnnxLoader, RejectsSymbolicInputShapes) {
  ModelBuilder b;
  b.graph->mutable_input(0)
      ->mutable_type()
      ->mutable_tensor_type()
      ->mutable_shape()
      ->mutable_dim(0)
      ->set_dim_param("batch");
  b.add("Relu", "r", {"x"}, "y");
  b.output("y");
  EXPECT_TRUE(fails(b.bytes(), "graph input 'x' has no static shape"));
}

TEST(OnnxLoader, RejectsUndefinedInputsAndGatherOnData) {
  ModelBuilder b;
  b.add("Add", "add", {"x", "nowhere"}, "y");
  b.output("y");
  EXPECT_TRUE(fails(b.bytes(), "node 'add' (#0) (Add) reads tensor 'nowhere', which is not "
                               "defined before it"));
  ModelBuilder g;
  g.add("Gather", "g", {"x", "x"}, "y");
  g.output("y");
  EXPECT_TRUE(fails(g.bytes(), "node 'g' (#0) (Gather) reads a computed tensor"));
}

TEST(OnnxLoader, ChecksInferredShapesAgainstValueInfo) {
  ModelBuilder b;
  b.add("Relu", "r", {"x"}, "y");
  ModelBuilder::add_value(b.graph->add_value_info(), "y", {1, 4, 8, 9});
  b.output("y");
  EXPECT_TRUE(fails(b.bytes(), "node 'r' (#0): inferred shape [1, 4, 8, 8] of tensor 'y' differs "
                               "from the declared [1, 4, 8, 9]"));
}

TEST(OnnxLoader, ReportsBadConvolutionShapes) {
  ModelBuilder b;
  b.add_weights("w", {8, 3, 3, 3}); // 3 input channels, but x has 4
  b.add("Conv", "conv", {"x", "w"}, "y");
  b.output("y");
  EXPECT_TRUE(fails(b.bytes(), "node 'conv' (#0) (Conv) has input [1, 4, 8, 8], weights "
                               "[8, 3, 3, 3] and 1 groups, which do not match"));
}

/// x [1, 4, 8, 8] padded by `pads` (ONNX order: begins of N, C, H, W, then ends), then `reader`.
ModelBuilder padded(const std::vector<std::int64_t> &pads, const std::string &reader = "Conv") {
  ModelBuilder b;
  b.add_weights("w", {8, 4, 3, 3});
  b.add_constant_list("pads", "p", pads);
  b.add("Pad", "pad", {"x", "p"}, "xp");
  if (reader == "Conv")
    b.add("Conv", "conv", {"xp", "w"}, "y");
  else
    b.add(reader, "reader", {"xp"}, "y");
  b.output("y");
  return b;
}

TEST(OnnxLoader, FoldsPadIntoTheConvolutionWindow) {
  const Graph g = parse_onnx(padded({0, 0, 1, 1, 0, 0, 1, 2}).bytes(), "m.onnx");
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.folded_nodes, 2); // the pads constant and the Pad
  EXPECT_EQ(g.nodes[0].attrs.pads, (Shape{1, 1, 1, 2}));
  EXPECT_EQ(g.tensor(g.nodes[0].inputs[0]).name, "x");
  EXPECT_EQ(g.tensor(g.outputs[0]).shape, (Shape{1, 8, 8, 9}));
}

TEST(OnnxLoader, AddsPadToTheConvolutionsOwnPadding) {
  ModelBuilder b = padded({0, 0, 1, 0, 0, 0, 1, 0});
  auto *pads = b.graph->mutable_node(2)->add_attribute();
  pads->set_name("pads");
  pads->set_type(onnx::AttributeProto::INTS);
  for (std::int64_t p : {0, 1, 0, 1})
    pads->add_ints(p);
  const Graph g = parse_onnx(b.bytes(), "m.onnx");
  EXPECT_EQ(g.nodes[0].attrs.pads, (Shape{1, 1, 1, 1}));
}

TEST(OnnxLoader, FoldsPadIntoPooling) {
  ModelBuilder b = padded({0, 0, 1, 1, 0, 0, 1, 1}, "MaxPool");
  auto *kernel = b.graph->mutable_node(2)->add_attribute();
  kernel->set_name("kernel_shape");
  kernel->set_type(onnx::AttributeProto::INTS);
  kernel->add_ints(3);
  kernel->add_ints(3);
  const Graph g = parse_onnx(b.bytes(), "m.onnx");
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.tensor(g.outputs[0]).shape, (Shape{1, 4, 8, 8}));
}

TEST(OnnxLoader, RejectsPadsItCannotFold) {
  EXPECT_TRUE(fails(padded({0, 0, 1, 1, 0, 0, 1, 1}, "Relu").bytes(),
                    "node 'pad' (#1) (Pad) feeds node 'reader' (#2) (Relu); a Pad is supported "
                    "only as the data input of a Conv, MaxPool or AveragePool without auto_pad"));
  EXPECT_TRUE(fails(padded({0, 1, 1, 1, 0, 0, 1, 1}).bytes(),
                    "node 'pad' (#1) (Pad) pads [0, 1, 1, 1, 0, 0, 1, 1] a tensor of shape "
                    "[1, 4, 8, 8]; only non-negative padding of the two spatial axes"));
  ModelBuilder reflect = padded({0, 0, 1, 1, 0, 0, 1, 1});
  auto *mode = reflect.graph->mutable_node(1)->add_attribute();
  mode->set_name("mode");
  mode->set_type(onnx::AttributeProto::STRING);
  mode->set_s("reflect");
  EXPECT_TRUE(fails(reflect.bytes(), "node 'pad' (#1) (Pad) has mode 'reflect'; only constant "
                                     "padding is supported"));
}

TEST(OnnxLoader, FoldsShapePlumbingIntoReshape) {
  ModelBuilder b;
  b.add("Shape", "shape", {"x"}, "s");
  b.add_constant("c", "minus_one", -1);
  b.add_constant("zero", "idx", 0);
  b.add("Gather", "batch", {"s", "idx"}, "n");
  b.add("Concat", "target", {"n", "minus_one"}, "t")->add_attribute()->set_name("axis");
  b.add("Reshape", "flat", {"x", "t"}, "y");
  b.output("y");
  const Graph g = parse_onnx(b.bytes(), "m.onnx");
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.folded_nodes, 5);
  EXPECT_EQ(g.tensor(g.outputs[0]).shape, (Shape{1, 256}));
}

TEST(OnnxLoader, RejectsFoldedArithmeticThatOverflows) {
  ModelBuilder b;
  b.add("Shape", "shape", {"x"}, "s");
  b.add_constant("big", "b", std::int64_t{1} << 62);
  b.add("Mul", "scale", {"s", "b"}, "t");
  b.add("Reshape", "r", {"x", "t"}, "y");
  b.output("y");
  EXPECT_TRUE(fails(b.bytes(), "node 'scale' (#2) (Mul) cannot be folded: Mul of 4 and "
                               "4611686018427387904 overflows 64-bit integers"));
}

} // namespace
} // namespace dse
