// Chain detection: follows produced tensors from einsum to einsum through attached operators.
#include "dse/ir/chain.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "dse/ir/sibling_stack.hpp"
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

ChainLink einsum_link(const Workload &workload, int einsum) {
  for (ChainLink &link : workload_links(workload))
    if (link.einsum_op == einsum)
      return link;
  return {einsum, {}};
}

namespace {

/// Per einsum input tensor: how many of the einsums of `links` read it.
std::map<std::string, int> einsum_readers(const Workload &workload,
                                          const std::vector<ChainLink> &links) {
  std::map<std::string, int> readers;
  for (const ChainLink &link : links) {
    std::set<std::string> read;
    for (const TensorAccess &in : workload.ops[static_cast<size_t>(link.einsum_op)].einsum.inputs)
      if (read.insert(in.tensor).second)
        ++readers[in.tensor];
  }
  return readers;
}

/// The tensors that `link` yields for later einsums: its result, or a stack's members' results.
std::vector<std::string> link_results(const Workload &workload, const ChainLink &link) {
  std::vector<std::string> stacked = stacked_results(workload, link.einsum_op);
  return stacked.empty() ? std::vector<std::string>{link_result_tensor(workload, link)} : stacked;
}

/// Whether an einsum of `reader` reads a result of `writer`'s last link (through DRAM).
bool reads_result_of(const Workload &workload, const Chain &reader, const Chain &writer) {
  const std::vector<std::string> results = link_results(workload, writer.links.back());
  return std::any_of(reader.links.begin(), reader.links.end(), [&](const ChainLink &link) {
    const Einsum &e = workload.ops[static_cast<size_t>(link.einsum_op)].einsum;
    return std::any_of(e.inputs.begin(), e.inputs.end(), [&](const TensorAccess &in) {
      return std::find(results.begin(), results.end(), in.tensor) != results.end();
    });
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
  const auto reads_result = [&](int op) {
    const Einsum &e = workload.ops.at(static_cast<size_t>(op)).einsum;
    return std::any_of(e.inputs.begin(), e.inputs.end(),
                       [&](const TensorAccess &in) { return in.tensor == result; });
  };
  // A stack reads for its members; no other einsum may read the result.
  const std::vector<int> &members =
      workload.ops.at(static_cast<size_t>(consumer.einsum_op)).stacked;
  int others = 0;
  for (const ChainLink &link : workload_links(workload))
    if (link.einsum_op != consumer.einsum_op &&
        workload.ops[static_cast<size_t>(link.einsum_op)].stacked.empty() &&
        std::find(members.begin(), members.end(), link.einsum_op) == members.end() &&
        reads_result(link.einsum_op))
      ++others;
  return consumer.einsum_op > producer.einsum_op && reads_result(consumer.einsum_op) && others == 0;
}

namespace {

/// The sets of stacked einsums (their links' indices) that run together: no two share a member.
/// The empty set first.
std::vector<std::vector<size_t>> stack_choices(const Workload &workload,
                                               const std::vector<ChainLink> &links) {
  const auto members = [&](size_t link) -> const std::vector<int> & {
    return workload.ops[static_cast<size_t>(links[link].einsum_op)].stacked;
  };
  std::vector<std::vector<size_t>> choices{{}};
  for (size_t s = 0; s < links.size(); ++s) {
    if (members(s).empty())
      continue;
    const size_t before = choices.size();
    for (size_t c = 0; c < before; ++c) {
      const bool disjoint = std::none_of(choices[c].begin(), choices[c].end(), [&](size_t t) {
        return std::any_of(members(s).begin(), members(s).end(), [&](int m) {
          return std::find(members(t).begin(), members(t).end(), m) != members(t).end();
        });
      });
      if (disjoint) {
        choices.push_back(choices[c]);
        choices.back().push_back(s);
      }
    }
  }
  return choices;
}

/// The links that run when the stacks `chosen` do: each stack in place of its first member,
/// its other members and every stack not chosen left out.
std::vector<ChainLink> running_links(const Workload &workload, const std::vector<ChainLink> &links,
                                     const std::vector<size_t> &chosen) {
  std::map<int, size_t> stack_of_member;
  for (size_t s : chosen)
    for (int m : workload.ops[static_cast<size_t>(links[s].einsum_op)].stacked)
      stack_of_member.emplace(m, s);
  std::vector<ChainLink> out;
  for (const ChainLink &link : links) {
    if (!workload.ops[static_cast<size_t>(link.einsum_op)].stacked.empty())
      continue;
    const auto stack = stack_of_member.find(link.einsum_op);
    if (stack == stack_of_member.end())
      out.push_back(link);
    else if (workload.ops[static_cast<size_t>(links[stack->second].einsum_op)].stacked.front() ==
             link.einsum_op)
      out.push_back(links[stack->second]);
  }
  return out;
}

/// Whether the workload holds stacked einsums (with_sibling_stacks).
bool has_stacks(const Workload &workload) {
  return std::any_of(workload.ops.begin(), workload.ops.end(),
                     [](const Operator &op) { return !op.stacked.empty(); });
}

/// Appends every split of `links` into chains to `out`: each link continues the chain of one
/// link whose result it reads and no other einsum reads (a stack's results go through DRAM).
void append_splits(const Workload &workload, const std::vector<ChainLink> &links,
                   std::vector<std::vector<Chain>> &out) {
  std::map<std::string, size_t> producer_of; // tensor -> link that yields it
  for (size_t i = 0; i < links.size(); ++i)
    for (const std::string &result : link_results(workload, links[i]))
      producer_of[result] = i;
  std::map<std::string, int> readers = einsum_readers(workload, links);

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
      const bool stack =
          !workload.ops[static_cast<size_t>(links[it->second].einsum_op)].stacked.empty();
      if (readers[in.tensor] == 1 && !stack &&
          std::find(choices[i].begin(), choices[i].end(), from) == choices[i].end())
        choices[i].push_back(from);
    }
    splits *= std::max<std::uint64_t>(1, choices[i].size());
    if (out.size() + splits > kMaxChainSplits)
      throw UserError(op.where,
                      "op '" + op.name + "': the einsums of workload '" + workload.name +
                          "' chain in more than " + std::to_string(kMaxChainSplits) +
                          " ways (each einsum that reads the results of several "
                          "others continues the chain of one of them" +
                          (has_stacks(workload) ? std::string(", and siblings stack in several "
                                                              "ways: --no-stacking leaves them "
                                                              "apart")
                                                : std::string()) +
                          "); `dse network` plans graphs this branched");
  }
  // Every combination of choices, the first choice of each link varying slowest.
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
      return;
  }
}

} // namespace

std::vector<std::vector<Chain>> chain_splits(const Workload &workload) {
  const std::vector<ChainLink> links = workload_links(workload);
  std::vector<std::vector<Chain>> out;
  for (const std::vector<size_t> &chosen : stack_choices(workload, links))
    append_splits(workload, running_links(workload, links, chosen), out);
  return out;
}

} // namespace dse
