// Chain detection: follows produced tensors from einsum to einsum through attached operators.
#include "dse/ir/chain.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "dse/support/dependency_order.hpp"

namespace dse {

std::string link_result_tensor(const Workload &workload, const ChainLink &link) {
  std::string name = workload.ops.at(static_cast<size_t>(link.einsum_op)).einsum.output.tensor;
  for (int a : link.attached_ops)
    name = workload.ops.at(static_cast<size_t>(a)).out;
  return name;
}

const Chain *only_chain(const std::vector<std::vector<Chain>> &splits) {
  return splits.size() == 1 && splits[0].size() == 1 ? &splits[0][0] : nullptr;
}

std::vector<int> chain_einsums(const Chain &chain) {
  std::vector<int> out;
  for (const ChainLink &link : chain.links)
    out.push_back(link.einsum_op);
  return out;
}

std::vector<ChainLink> workload_links(const Workload &workload) {
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

namespace {

/// Per einsum input tensor: how many einsums read it.
std::map<std::string, int> einsum_readers(const Workload &workload) {
  std::map<std::string, int> readers;
  for (const Operator &op : workload.ops) {
    if (op.kind != OpKind::Einsum)
      continue;
    std::set<std::string> read;
    for (const TensorAccess &in : op.einsum.inputs)
      if (read.insert(in.tensor).second)
        ++readers[in.tensor];
  }
  return readers;
}

/// Whether an einsum of `reader` reads the result of `writer`'s last link (through DRAM).
bool reads_result_of(const Workload &workload, const Chain &reader, const Chain &writer) {
  const std::string result = link_result_tensor(workload, writer.links.back());
  return std::any_of(reader.links.begin(), reader.links.end(), [&](const ChainLink &link) {
    const Einsum &e = workload.ops[static_cast<size_t>(link.einsum_op)].einsum;
    return std::any_of(e.inputs.begin(), e.inputs.end(),
                       [&](const TensorAccess &in) { return in.tensor == result; });
  });
}

/// The chains of `links` when link i continues the chain of link previous[i] (-1: it starts
/// one), in an order they can run in: by first link, each after the chains whose results it
/// reads. (A chain reads only other chains' last results, which come before its own last link,
/// so the chains read one another without a cycle.)
std::vector<Chain> chains_of(const Workload &workload, const std::vector<ChainLink> &links,
                             const std::vector<int> &previous) {
  std::vector<int> next(links.size(), -1);
  for (size_t i = 0; i < links.size(); ++i)
    if (previous[i] >= 0)
      next[static_cast<size_t>(previous[i])] = static_cast<int>(i);
  std::vector<Chain> chains;
  for (size_t i = 0; i < links.size(); ++i) {
    if (previous[i] != -1)
      continue;
    Chain chain;
    for (int at = static_cast<int>(i); at != -1; at = next[static_cast<size_t>(at)])
      chain.links.push_back(links[static_cast<size_t>(at)]);
    chains.push_back(std::move(chain));
  }
  return dependency_order(chains, [&](const Chain &reader, const Chain &writer) {
    return reads_result_of(workload, reader, writer);
  });
}

} // namespace

bool links_follow(const Workload &workload, const ChainLink &producer, const ChainLink &consumer) {
  const std::string result = link_result_tensor(workload, producer);
  const Einsum &e = workload.ops.at(static_cast<size_t>(consumer.einsum_op)).einsum;
  return consumer.einsum_op > producer.einsum_op &&
         std::any_of(e.inputs.begin(), e.inputs.end(),
                     [&](const TensorAccess &in) { return in.tensor == result; }) &&
         einsum_readers(workload)[result] == 1;
}

std::vector<std::vector<Chain>> chain_splits(const Workload &workload) {
  const std::vector<ChainLink> links = workload_links(workload);
  std::map<std::string, size_t> producer_of; // final tensor -> link
  for (size_t i = 0; i < links.size(); ++i)
    producer_of[link_result_tensor(workload, links[i])] = i;
  std::map<std::string, int> readers = einsum_readers(workload);

  // Per link, the links whose results it may continue: produced tensors no other einsum reads.
  std::vector<std::vector<int>> choices(links.size());
  std::uint64_t splits = 1;
  for (size_t i = 0; i < links.size(); ++i) {
    const Operator &op = workload.ops[static_cast<size_t>(links[i].einsum_op)];
    for (const TensorAccess &in : op.einsum.inputs) {
      auto it = producer_of.find(in.tensor);
      if (it == producer_of.end())
        continue;
      if (it->second >= i)
        throw UserError(op.where, "op '" + op.name + "' reads tensor '" + in.tensor +
                                      "', which is produced by itself or a later op");
      const int from = static_cast<int>(it->second);
      if (readers[in.tensor] == 1 &&
          std::find(choices[i].begin(), choices[i].end(), from) == choices[i].end())
        choices[i].push_back(from);
    }
    splits *= std::max<std::uint64_t>(1, choices[i].size());
    if (splits > kMaxChainSplits)
      throw UserError(op.where, "op '" + op.name + "': the einsums of workload '" + workload.name +
                                    "' chain in more than " + std::to_string(kMaxChainSplits) +
                                    " ways (each einsum that reads the results of several "
                                    "others continues the chain of one of them); `dse network` "
                                    "plans graphs this branched");
  }
  // Every combination of choices, the first choice of each link varying slowest.
  std::vector<std::vector<Chain>> out;
  std::vector<size_t> pick(links.size(), 0);
  for (;;) {
    std::vector<int> previous(links.size(), -1);
    for (size_t i = 0; i < links.size(); ++i)
      if (!choices[i].empty())
        previous[i] = choices[i][pick[i]];
    out.push_back(chains_of(workload, links, previous));
    size_t i = links.size();
    while (i-- > 0 && (choices[i].empty() || ++pick[i] == choices[i].size()))
      pick[i] = 0;
    if (i == static_cast<size_t>(-1))
      return out;
  }
}

} // namespace dse
