// A network as plain data: tensors with static shapes and operator nodes in topological order,
// with the attributes the graph passes need. Built by the ONNX and YAML graph loaders.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dse/ir/limits.hpp"
#include "dse/support/error.hpp"

namespace dse {

using Shape = std::vector<std::int64_t>;

/// What a node does, grouped by how the graph passes treat it.
enum class NodeKind {
  // compute: lowered to einsums and searched by the matrix engine
  Conv,
  Gemm,
  MatMul,
  // vector work on the vector unit / array
  MaxPool,
  AveragePool,
  GlobalAveragePool,
  BatchNorm,
  Elementwise,
  Softmax,
  LayerNorm,
  ReduceMean,
  // data movement: affine access maps (movement elimination)
  Reshape,
  Flatten,
  Transpose,
  Concat,
  Slice,
  Split,
  Identity,
};

bool is_compute(NodeKind kind);
bool is_movement(NodeKind kind);

/// How an operator type name (ONNX spelling, also used by YAML graphs) maps to a node kind, and
/// the vector operations charged per output element (estimates: a compare or an add is 1, a
/// transcendental 4).
struct OpTypeInfo {
  NodeKind kind = NodeKind::Identity;
  double ops_per_element = 1;
};
std::optional<OpTypeInfo> op_type_info(const std::string &op_type);
/// Every operator type name op_type_info knows, sorted, comma-separated (for messages).
std::string supported_op_types();

enum class TensorKind {
  Input,      // a graph input, read from DRAM
  Weight,     // a parameter (initializer), read from DRAM by the node that uses it
  Activation, // produced by a node
};

struct GraphTensor {
  std::string name;
  Shape shape;
  TensorKind kind = TensorKind::Activation;
  int producer = -1;          // node index, activations only
  std::vector<int> consumers; // node indices in order, one entry per node that reads it
  bool is_output = false;     // a graph output (kept until the end, written to DRAM)
};

/// Attributes of every node kind; each kind reads only its own (see the comments).
struct NodeAttributes {
  Shape kernel;               // Conv, pools: spatial kernel extents
  Shape strides;              // Conv, pools
  Shape pads;                 // Conv, pools: all begins, then all ends
  Shape dilations;            // Conv
  std::int64_t groups = 1;    // Conv
  bool trans_a = false;       // Gemm
  bool trans_b = false;       // Gemm
  Shape perm;                 // Transpose
  std::int64_t axis = 0;      // Concat, Split, Softmax, LayerNorm (first normalised), Flatten
  Shape axes;                 // ReduceMean, Slice (normalised to non-negative)
  Shape starts;               // Slice, clamped to the input extent
  Shape ends;                 // Slice, clamped
  Shape steps;                // Slice
  Shape shape;                // Reshape: the target shape as written (0 copies, -1 infers)
  Shape split;                // Split: sizes along `axis` (empty: equal parts)
  bool ceil_mode = false;     // pools
  bool keepdims = true;       // ReduceMean
  double ops_per_element = 1; // Elementwise, BatchNorm: vector operations per output element
};

struct GraphNode {
  std::string name;
  std::string op_type; // as spelled in the source ("Relu", "Clip", "Conv", ...)
  NodeKind kind = NodeKind::Identity;
  std::vector<int> inputs;  // tensor indices: activations and weights, in operator order
  std::vector<int> outputs; // tensor indices
  NodeAttributes attrs;
  SourceLocation where;  // the node in its source file (line 0 for ONNX)
  int source_index = -1; // position in the source file's node list
};

/// How a node is named in messages: "node 'conv1' (#3)".
std::string node_label(const GraphNode &node);

struct Graph {
  std::string name;
  std::string source_file;
  std::vector<GraphTensor> tensors;
  std::vector<GraphNode> nodes; // topological order
  std::vector<int> inputs;      // graph input tensors
  std::vector<int> outputs;     // graph output tensors
  int folded_nodes = 0;         // shape-plumbing nodes folded away on import

  int tensor_index(const std::string &tensor_name) const; // -1 if unknown
  const GraphTensor &tensor(int index) const { return tensors.at(static_cast<size_t>(index)); }
  const GraphNode &node(int index) const { return nodes.at(static_cast<size_t>(index)); }
  /// The first input that is not a weight (the node's main operand), or -1.
  int data_input(int node_index) const;
};

/// Elements of a shape that within_tensor_limits accepts (every shape of a loaded Graph).
std::int64_t element_count(const Shape &shape);
/// Every dimension in 0..kMaxDimensionSize and at most kMaxTensorElements elements, checked
/// without overflowing.
bool within_tensor_limits(const Shape &shape);
/// "shape [..] has a dimension over ... or more than ... elements": why a shape is refused.
std::string beyond_tensor_limits(const Shape &shape);
std::string shape_text(const Shape &shape); // "[1, 64, 56, 56]"

/// Fills producers, consumers and output flags from the nodes, and checks that every input is
/// defined before use and every tensor has one producer. Throws UserError naming the node.
void link_graph(Graph &graph);

} // namespace dse
