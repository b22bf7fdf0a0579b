// Tests of src/config/onnx_loader.cpp: the shipped networks import with the right structure;
// malformed models, symbolic shapes, unsupported and inconsistent nodes fail with exact messages.
#include "dse/config/onnx_loader.hpp"

#include <limits>
#include <optional>

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include "common/repo_files.hpp"
#include "config/expect_error.hpp"
#include "dse/config/graph_loader.hpp"

namespace dse {
namespace {

using test_common::repo_file;

/// A one-input model (input `x`, float, of shape `dims`); `add` appends nodes to it.
struct ModelBuilder {
  onnx::ModelProto model;
  onnx::GraphProto *graph = model.mutable_graph();

  explicit ModelBuilder(const std::vector<std::int64_t> &dims = {1, 4, 8, 8}) {
    model.add_opset_import()->set_version(13);
    add_value(graph->add_input(), "x", dims);
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

  /// A tensor of element type `type` (INT64, BOOL or FLOAT) holding `values`.
  static onnx::TensorProto tensor(const std::vector<std::int64_t> &dims,
                                  const std::vector<std::int64_t> &values,
                                  int type = onnx::TensorProto::INT64) {
    onnx::TensorProto t;
    t.set_data_type(type);
    for (std::int64_t d : dims)
      t.add_dims(d);
    for (std::int64_t v : values)
      if (type == onnx::TensorProto::FLOAT)
        t.add_float_data(static_cast<float>(v));
      else if (type == onnx::TensorProto::BOOL)
        t.add_int32_data(static_cast<std::int32_t>(v));
      else
        t.add_int64_data(v);
    return t;
  }

  /// Sets tensor attribute `name` of `node`.
  static void set_tensor(onnx::NodeProto *node, const std::string &name,
                         const onnx::TensorProto &t) {
    auto *attr = node->add_attribute();
    attr->set_name(name);
    attr->set_type(onnx::AttributeProto::TENSOR);
    *attr->mutable_t() = t;
  }

  /// Sets integer attribute `name` of `node`.
  static void set_int(onnx::NodeProto *node, const std::string &name, std::int64_t value) {
    auto *attr = node->add_attribute();
    attr->set_name(name);
    attr->set_type(onnx::AttributeProto::INT);
    attr->set_i(value);
  }

  /// Sets integer-list attribute `name` of `node`.
  static void set_ints(onnx::NodeProto *node, const std::string &name,
                       const std::vector<std::int64_t> &values) {
    auto *attr = node->add_attribute();
    attr->set_name(name);
    attr->set_type(onnx::AttributeProto::INTS);
    for (std::int64_t v : values)
      attr->add_ints(v);
  }

  /// A Constant node writing `tensor(dims, values, type)` to `output`.
  void add_tensor_constant(const std::string &name, const std::string &output,
                           const std::vector<std::int64_t> &dims,
                           const std::vector<std::int64_t> &values,
                           int type = onnx::TensorProto::INT64) {
    set_tensor(add("Constant", name, {}, output), "value", tensor(dims, values, type));
  }

  /// A Constant node writing the rank-1 INT64 tensor {value} to `output`.
  void add_constant(const std::string &name, const std::string &output, std::int64_t value) {
    add_tensor_constant(name, output, {1}, {value});
  }

  /// A Constant node writing the INT64 list `values` to `output` (a value_ints attribute).
  void add_constant_list(const std::string &name, const std::string &output,
                         const std::vector<std::int64_t> &values) {
    set_ints(add("Constant", name, {}, output), "value_ints", values);
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
  ModelBuilder::set_ints(b.graph->mutable_node(2), "pads", {0, 1, 0, 1});
  const Graph g = parse_onnx(b.bytes(), "m.onnx");
  EXPECT_EQ(g.nodes[0].attrs.pads, (Shape{1, 1, 1, 1}));
}

TEST(OnnxLoader, FoldsPadIntoPooling) {
  ModelBuilder b = padded({0, 0, 1, 1, 0, 0, 1, 1}, "MaxPool");
  ModelBuilder::set_ints(b.graph->mutable_node(2), "kernel_shape", {3, 3});
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

/// `b`'s bytes with output `y`, a Reshape of x by the folded value `t`.
std::string reshape_by(ModelBuilder &b) {
  b.add("Reshape", "reshape", {"x", "t"}, "y");
  b.output("y");
  return b.bytes();
}

/// The shape of `y` in reshape_by(b), checking that every other node folded.
Shape reshaped(ModelBuilder &b) {
  const Graph g = parse_onnx(reshape_by(b), "m.onnx");
  EXPECT_EQ(g.nodes.size(), 1u); // everything but the Reshape folded
  return g.tensor(g.outputs[0]).shape;
}

TEST(OnnxLoader, FoldsConstantOfShapeEqualAndWhere) {
  ModelBuilder b;
  b.add_constant("two", "n", 2);
  b.add("ConstantOfShape", "zeros", {"n"}, "z"); // no value: float 0
  ModelBuilder::set_int(b.add("Cast", "to_int", {"z"}, "zi"), "to", onnx::TensorProto::INT64);
  b.add_constant_list("probe", "p", {0, 5});
  b.add("Equal", "is_zero", {"zi", "p"}, "eq"); // [true, false]
  b.add_constant_list("big", "hi", {64, 64});
  b.add_constant_list("small", "lo", {4, 4});
  b.add("Where", "pick", {"eq", "hi", "lo"}, "t");
  EXPECT_EQ(reshaped(b), (Shape{64, 4}));
}

TEST(OnnxLoader, FoldsConstantOfShapeValueAndTwoWayExpand) {
  ModelBuilder v({64});
  v.add_constant("three", "n", 3);
  ModelBuilder::set_tensor(v.add("ConstantOfShape", "fours", {"n"}, "t"), "value",
                           ModelBuilder::tensor({1}, {4}));
  EXPECT_EQ(reshaped(v), (Shape{4, 4, 4}));
  ModelBuilder b({256});
  b.add_tensor_constant("column", "c", {2, 1}, {2, 8});
  b.add_constant_list("to", "s", {1, 2});
  b.add("Expand", "widen", {"c", "s"}, "e"); // [2, 1] and [1, 2] broadcast to [[2, 2], [8, 8]]
  b.add_constant("minus_one", "m", -1);
  b.add("Reshape", "flat", {"e", "m"}, "t"); // [2, 2, 8, 8]
  EXPECT_EQ(reshaped(b), (Shape{2, 2, 8, 8}));
}

TEST(OnnxLoader, FoldsBroadcastArithmeticAndGather) {
  ModelBuilder b({352});
  b.add_tensor_constant("rows", "r", {2, 1}, {1, 2});
  b.add_tensor_constant("cols", "c", {3}, {10, 20, 30});
  b.add("Add", "grid", {"r", "c"}, "g"); // [[11, 21, 31], [12, 22, 32]]
  b.add_constant("minus_one", "m", -1);
  b.add("Reshape", "flat", {"g", "m"}, "f");
  b.add_constant_list("picks", "i", {5, 0}); // 32, 11
  b.add("Gather", "pick", {"f", "i"}, "t");
  EXPECT_EQ(reshaped(b), (Shape{32, 11}));
}

TEST(OnnxLoader, FoldsRangeAndSliceWithNegativeSteps) {
  ModelBuilder b({80});
  b.add_tensor_constant("start", "s", {}, {2});
  b.add_tensor_constant("limit", "l", {}, {10});
  b.add_tensor_constant("delta", "d", {}, {3});
  b.add("Range", "range", {"s", "l", "d"}, "r"); // [2, 5, 8]
  b.add_constant("from", "st", -1);
  b.add_constant("until", "en", std::numeric_limits<std::int64_t>::min());
  b.add_constant("axis", "ax", 0);
  b.add_constant("step", "sp", -1);
  b.add("Slice", "reverse", {"r", "st", "en", "ax", "sp"}, "t"); // [8, 5, 2]
  EXPECT_EQ(reshaped(b), (Shape{8, 5, 2}));
}

TEST(OnnxLoader, FoldsShapeBoundsCastsAndDivisionByType) {
  ModelBuilder s;
  auto *shape = s.add("Shape", "tail", {"x"}, "t");
  ModelBuilder::set_int(shape, "start", 1);
  ModelBuilder::set_int(shape, "end", 100); // clamped to the rank
  EXPECT_EQ(reshaped(s), (Shape{4, 8, 8}));
  // Integer division truncates: -7 / 2 = -3, so the target is [3, -1].
  ModelBuilder i({15});
  i.add_constant("seven", "a", -7);
  i.add_constant("two", "b", 2);
  i.add("Div", "div", {"a", "b"}, "q");
  i.add_constant("minus_one", "m", -1);
  i.add("Mul", "negate", {"q", "m"}, "q3");
  i.add("Concat", "target", {"q3", "m"}, "t")->add_attribute()->set_name("axis");
  EXPECT_EQ(reshaped(i), (Shape{3, 5}));
  // The same quotient in float is 3.5: no integer shape.
  ModelBuilder f({15});
  f.add_constant("seven", "a", 7);
  ModelBuilder::set_int(f.add("Cast", "to_float", {"a"}, "af"), "to", onnx::TensorProto::FLOAT);
  f.add_tensor_constant("two", "b", {1}, {2}, onnx::TensorProto::FLOAT);
  f.add("Div", "div", {"af", "b"}, "t");
  f.add("Reshape", "reshape", {"x", "t"}, "y");
  f.output("y");
  EXPECT_TRUE(fails(f.bytes(), "node 'reshape' (#4) (Reshape) has no constant target shape"));
}

/// x [15] reshaped to [(0 + 7) / 2, -1], the 0 a ConstantOfShape of `fill` (default: none).
ModelBuilder seven_halves(const std::optional<onnx::TensorProto> &fill) {
  ModelBuilder b({15});
  b.add_constant("one", "n", 1);
  auto *zero = b.add("ConstantOfShape", "zero", {"n"}, "z");
  if (fill)
    ModelBuilder::set_tensor(zero, "value", *fill);
  const int type = fill ? fill->data_type() : onnx::TensorProto::FLOAT;
  b.add_tensor_constant("seven", "a", {1}, {7}, type);
  b.add("Add", "add", {"z", "a"}, "s");
  b.add_tensor_constant("two", "d", {1}, {2}, type);
  b.add("Div", "half", {"s", "d"}, "h");
  b.add_constant("minus_one", "m", -1);
  ModelBuilder::set_int(b.add("Concat", "target", {"h", "m"}, "t"), "axis", 0);
  return b;
}

TEST(OnnxLoader, FoldsConstantOfShapeWithItsValuesType) {
  ModelBuilder integer = seven_halves(ModelBuilder::tensor({1}, {0}));
  EXPECT_EQ(reshaped(integer), (Shape{3, 5})); // 7 / 2 truncates
  ModelBuilder by_default = seven_halves(std::nullopt);
  EXPECT_TRUE(fails(reshape_by(by_default),
                    "node 'reshape' (#8) (Reshape) has no constant target shape")); // 3.5
}

/// A ViT-like front end on a [batch, 3, 32, 32] image: a 16x16 patch embedding flattened by a
/// folded shape, the class token expanded to the batch as torch exports `expand(n, -1, -1)`
/// (Shape, Gather, Unsqueeze, Concat, ConstantOfShape, Mul, Equal, Where, Expand), position
/// embeddings, then one attention head.
ModelBuilder vit(std::int64_t batch) {
  ModelBuilder b({batch, 3, 32, 32});
  b.add_weights("w_patch", {64, 3, 16, 16});
  auto *conv = b.add("Conv", "patch_embed", {"x", "w_patch"}, "p"); // [batch, 64, 2, 2]
  ModelBuilder::set_ints(conv, "kernel_shape", {16, 16});
  ModelBuilder::set_ints(conv, "strides", {16, 16});
  b.add("Shape", "shape_x", {"x"}, "sx");
  b.add_tensor_constant("zero", "i0", {}, {0});
  b.add("Gather", "batch", {"sx", "i0"}, "n0");
  b.add_constant("axis0", "ax", 0);
  b.add("Unsqueeze", "n", {"n0", "ax"}, "n1");
  b.add_constant_list("hidden", "h", {64, -1});
  ModelBuilder::set_int(b.add("Concat", "flat_shape", {"n1", "h"}, "fs"), "axis", 0);
  b.add("Reshape", "flatten", {"p", "fs"}, "pf");
  ModelBuilder::set_ints(b.add("Transpose", "tokens", {"pf"}, "tok"), "perm", {0, 2, 1});
  b.add_constant_list("keep", "m11", {-1, -1});
  ModelBuilder::set_int(b.add("Concat", "size", {"n1", "m11"}, "size"), "axis", 0);
  b.add("Shape", "size_rank", {"size"}, "sr");
  ModelBuilder::set_tensor(b.add("ConstantOfShape", "ones", {"sr"}, "ones"), "value",
                           ModelBuilder::tensor({1}, {1}));
  b.add_tensor_constant("minus_one", "neg", {}, {-1});
  b.add("Mul", "neg_ones", {"ones", "neg"}, "no");
  b.add("Equal", "is_kept", {"size", "no"}, "eq");
  b.add("Where", "expand_shape", {"eq", "ones", "size"}, "es");
  b.add_weights("cls", {1, 1, 64});
  b.add("Expand", "cls_batch", {"cls", "es"}, "cb");
  ModelBuilder::set_int(b.add("Concat", "with_cls", {"cb", "tok"}, "z"), "axis", 1);
  b.add_weights("pos", {1, 5, 64});
  b.add("Add", "pos_add", {"z", "pos"}, "z1");
  for (const char *w : {"q", "k", "v"}) {
    b.add_weights(std::string("w") + w, {64, 64});
    b.add("MatMul", std::string("proj_") + w, {"z1", std::string("w") + w}, w);
  }
  ModelBuilder::set_ints(b.add("Transpose", "k_t", {"k"}, "kt"), "perm", {0, 2, 1});
  b.add("MatMul", "scores", {"q", "kt"}, "s");
  ModelBuilder::set_int(b.add("Softmax", "softmax", {"s"}, "a"), "axis", -1);
  b.add("MatMul", "context", {"a", "v"}, "y");
  b.output("y");
  return b;
}

TEST(OnnxLoader, ImportsAVitClassTokenPatchEmbeddingAndAttention) {
  const Graph g = parse_onnx(vit(1).bytes(), "m.onnx");
  EXPECT_EQ(g.nodes.size(), 12u);
  EXPECT_EQ(g.folded_nodes, 16); // 5 constants and the 11 shape nodes, Expand included
  EXPECT_EQ(g.tensor(g.tensor_index("tok")).shape, (Shape{1, 4, 64}));
  const int concat = g.tensor(g.tensor_index("z")).producer;
  ASSERT_GE(concat, 0);
  EXPECT_EQ(g.node(concat).kind, NodeKind::Concat);
  const GraphTensor &cls = g.tensor(g.node(concat).inputs[0]);
  EXPECT_EQ(cls.name, "cls"); // the Expand keeps the token's shape: the token itself
  EXPECT_EQ(cls.kind, TensorKind::Weight);
  EXPECT_EQ(g.tensor(g.tensor_index("z")).shape, (Shape{1, 5, 64}));
  EXPECT_EQ(g.tensor(g.tensor_index("s")).shape, (Shape{1, 5, 5}));
  EXPECT_EQ(g.tensor(g.outputs[0]).shape, (Shape{1, 5, 64}));
}

TEST(OnnxLoader, ExpandsAnInitializerToTheBatch) {
  const Graph g = parse_onnx(vit(2).bytes(), "m.onnx");
  const int cb = g.tensor_index("cb");
  ASSERT_GE(cb, 0);
  EXPECT_EQ(g.tensor(cb).kind, TensorKind::Weight);
  EXPECT_EQ(g.tensor(cb).shape, (Shape{2, 1, 64}));
  EXPECT_EQ(g.tensor(g.tensor_index("z")).shape, (Shape{2, 5, 64}));
  EXPECT_EQ(g.tensor(g.outputs[0]).shape, (Shape{2, 5, 64}));
}

TEST(OnnxLoader, RejectsShapeSubgraphsThatDoNotFold) {
  ModelBuilder w;
  w.add_tensor_constant("cond", "c", {2}, {1, 0}, onnx::TensorProto::BOOL);
  w.add_constant_list("a", "a", {1, 2, 3});
  w.add_constant_list("b", "b", {4, 5, 6});
  w.add("Where", "pick", {"c", "a", "b"}, "t");
  EXPECT_TRUE(fails(reshape_by(w), "node 'pick' (#3) (Where) cannot be folded: its inputs of "
                                   "shapes [2], [3], [3] do not broadcast"));
  ModelBuilder e;
  e.add_constant_list("data", "d", {1, 2, 3});
  e.add_constant_list("to", "s", {2});
  e.add("Expand", "widen", {"d", "s"}, "t");
  EXPECT_TRUE(fails(reshape_by(e), "node 'widen' (#2) (Expand) cannot be folded: its input of "
                                   "shape [3] does not expand to [2]"));
  ModelBuilder c;
  c.add_constant_list("dims", "d", {2, -1});
  c.add("ConstantOfShape", "fill", {"d"}, "t");
  EXPECT_TRUE(fails(reshape_by(c), "node 'fill' (#1) (ConstantOfShape) cannot be folded: its "
                                   "shape [2, -1] has a negative dimension"));
  ModelBuilder r;
  r.add_tensor_constant("start", "s", {}, {0});
  r.add_tensor_constant("delta", "d", {}, {0});
  r.add("Range", "range", {"s", "s", "d"}, "t");
  EXPECT_TRUE(fails(reshape_by(r), "node 'range' (#2) (Range) cannot be folded: its delta is 0"));
}

TEST(OnnxLoader, RejectsExpandAndWhereOnComputedData) {
  ModelBuilder grow;
  grow.add_constant_list("to", "s", {2, 4, 8, 8});
  grow.add("Expand", "grow", {"x", "s"}, "y");
  grow.output("y");
  EXPECT_TRUE(fails(grow.bytes(), "node 'grow' (#1) (Expand) broadcasts computed tensor 'x' of "
                                  "shape [1, 4, 8, 8] to [2, 4, 8, 8]; only an Expand of a "
                                  "constant or an initializer, or one that keeps its input's "
                                  "shape, is supported"));
  ModelBuilder clash;
  clash.add_constant_list("to", "s", {3, 8, 8});
  clash.add("Expand", "clash", {"x", "s"}, "y");
  clash.output("y");
  EXPECT_TRUE(fails(clash.bytes(), "node 'clash' (#1) (Expand) cannot expand tensor 'x': its "
                                   "input of shape [1, 4, 8, 8] does not expand to [3, 8, 8]"));
  ModelBuilder where;
  where.add_tensor_constant("cond", "c", {1}, {1}, onnx::TensorProto::BOOL);
  where.add("Where", "mask", {"c", "x", "x"}, "y");
  where.output("y");
  EXPECT_TRUE(fails(where.bytes(), "node 'mask' (#1) (Where) reads a computed tensor ('x'); only "
                                   "shape computations on constants are supported for it"));
}

TEST(OnnxLoader, KeepsAnExpandThatKeepsTheShape) {
  ModelBuilder b;
  b.add_constant_list("to", "s", {4, 1, 1});
  b.add("Expand", "same", {"x", "s"}, "e");
  b.add("Relu", "relu", {"e"}, "y");
  b.output("y");
  const Graph g = parse_onnx(b.bytes(), "m.onnx");
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.tensor(g.nodes[0].inputs[0]).name, "x");
  EXPECT_EQ(g.tensor(g.outputs[0]).shape, (Shape{1, 4, 8, 8}));
}

} // namespace
} // namespace dse
