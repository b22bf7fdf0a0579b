// Chain detection: follows produced tensors from einsum to einsum through attached operators.
#include "dse/ir/chain.hpp"

#include <map>

namespace dse {

std::string link_result_tensor(const Workload &workload, const ChainLink &link) {
  std::string name = workload.ops.at(static_cast<size_t>(link.einsum_op)).einsum.output.tensor;
  for (int a : link.attached_ops)
    name = workload.ops.at(static_cast<size_t>(a)).out;
  return name;
}

namespace {

/// For every einsum, the links it starts, with attached operators gathered along the way.
std::vector<ChainLink> collect_links(const Workload &workload) {
  std::vector<ChainLink> links;
  std::vector<const std::string *> latest;      // per link: its result so far
  std::map<std::string, size_t> link_of_tensor; // tensor -> link that yields it
  for (size_t i = 0; i < workload.ops.size(); ++i) {
    const Operator &op = workload.ops[i];
    if (op.kind == OpKind::Einsum) {
      links.push_back({static_cast<int>(i), {}});
      latest.push_back(&op.einsum.output.tensor);
      link_of_tensor[op.einsum.output.tensor] = links.size() - 1;
      continue;
    }
    auto it = link_of_tensor.find(op.tensor);
    if (it == link_of_tensor.end())
      throw UserError(op.where, "op '" + op.name + "' reads tensor '" + op.tensor +
                                    "', which no einsum before it produces");
    if (*latest[it->second] != op.tensor)
      throw UserError(op.where, "op '" + op.name + "' reads tensor '" + op.tensor +
                                    "', which is not the latest result of its einsum");
    links[it->second].attached_ops.push_back(static_cast<int>(i));
    latest[it->second] = &op.out;
    link_of_tensor[op.out] = it->second;
  }
  return links;
}

} // namespace

std::vector<Chain> detect_chains(const Workload &workload) {
  const std::vector<ChainLink> links = collect_links(workload);
  std::map<std::string, size_t> producer_of; // final tensor -> link
  for (size_t i = 0; i < links.size(); ++i)
    producer_of[link_result_tensor(workload, links[i])] = i;

  std::vector<int> next(links.size(), -1);
  std::vector<int> previous(links.size(), -1);
  for (size_t i = 0; i < links.size(); ++i) {
    const Operator &op = workload.ops[static_cast<size_t>(links[i].einsum_op)];
    for (const TensorAccess &in : op.einsum.inputs) {
      auto it = producer_of.find(in.tensor);
      if (it == producer_of.end())
        continue;
      const size_t from = it->second;
      if (from >= i)
        throw UserError(op.where, "op '" + op.name + "' reads tensor '" + in.tensor +
                                      "', which is produced by itself or a later op");
      if (previous[i] != -1 || next[from] != -1)
        throw UserError(op.where, "op '" + op.name + "' makes the operator graph branch (tensor '" +
                                      in.tensor +
                                      "'); branching graphs are planned by `dse network`");
      previous[i] = static_cast<int>(from);
      next[from] = static_cast<int>(i);
    }
  }

  std::vector<Chain> chains;
  for (size_t i = 0; i < links.size(); ++i) {
    if (previous[i] != -1)
      continue;
    Chain chain;
    for (int at = static_cast<int>(i); at != -1; at = next[static_cast<size_t>(at)])
      chain.links.push_back(links[static_cast<size_t>(at)]);
    chains.push_back(std::move(chain));
  }
  return chains;
}

} // namespace dse
