// The whole-node execution plan: each node reads its inputs and writes its outputs whole.
#include "dse/graph/exec_plan.hpp"

#include "dse/graph/node_work.hpp"

namespace dse {

void add_tensor_buffers(const Graph &graph, ExecPlan &plan) {
  for (size_t t = 0; t < graph.tensors.size(); ++t) {
    const GraphTensor &tensor = graph.tensors[t];
    PlanBuffer b;
    b.name = tensor.name;
    b.words =
        tensor.kind == TensorKind::Weight ? 0 : static_cast<double>(element_count(tensor.shape));
    b.graph_input = tensor.kind == TensorKind::Input;
    b.graph_output = tensor.is_output;
    plan.buffers.push_back(std::move(b));
  }
}

std::vector<BufferSpan> buffer_spans(const ExecPlan &plan) {
  std::vector<BufferSpan> spans(plan.buffers.size());
  for (size_t i = 0; i < plan.steps.size(); ++i)
    for (const BufferAccess &a : plan.steps[i].accesses) {
      BufferSpan &span = spans[static_cast<size_t>(a.buffer)];
      span.first = span.first < 0 ? static_cast<int>(i) : span.first;
      span.last = static_cast<int>(i);
    }
  return spans;
}

ExecPlan whole_node_plan(const Graph &graph) {
  ExecPlan plan;
  add_tensor_buffers(graph, plan);
  for (size_t n = 0; n < graph.nodes.size(); ++n) {
    const int node = static_cast<int>(n);
    PlanStep step;
    step.node = node;
    for (int t : graph.nodes[n].inputs)
      if (graph.tensor(t).kind != TensorKind::Weight)
        step.accesses.push_back({t, plan.buffers[static_cast<size_t>(t)].words, false});
    for (int t : graph.nodes[n].outputs)
      step.accesses.push_back({t, plan.buffers[static_cast<size_t>(t)].words, true});
    step.weight_words = node_weight_words(graph, node);
    step.macs = node_macs(graph, node);
    step.vector_ops = node_vector_ops(graph, node);
    plan.steps.push_back(std::move(step));
  }
  return plan;
}

} // namespace dse
