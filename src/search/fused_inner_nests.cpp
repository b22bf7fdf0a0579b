// Enumeration of one fused operator's nests below level 0.
#include "fused_inner_nests.hpp"

#include "dse/search/hier_space.hpp"

namespace dse {

namespace {

using FanoutRow = std::vector<std::vector<FanoutMapping>>;

/// The workload with the operator's dimensions at their level-1 extents.
Workload level1_workload(const Problem &problem, int o, const FusedTiles &tiles) {
  Workload w = *problem.workload;
  for (int d : problem.ops[static_cast<size_t>(o)].dims)
    w.dims[static_cast<size_t>(d)].size = tiles.extent[static_cast<size_t>(d)];
  return w;
}

/// Every way to write `n` as an ordered product of `parts` factors.
std::vector<std::vector<std::int64_t>> ordered_factorisations(std::int64_t n, size_t parts) {
  if (parts == 1)
    return {{n}};
  std::vector<std::vector<std::int64_t>> out;
  for (std::int64_t f : divisors(n))
    for (std::vector<std::int64_t> rest : ordered_factorisations(n / f, parts - 1)) {
      rest.insert(rest.begin(), f);
      out.push_back(std::move(rest));
    }
  return out;
}

/// Enumerates the orders of levels [level, L) of `m` (whose factors are set), then the keeps.
class NestVisitor {
public:
  NestVisitor(const Operator &op, const std::vector<std::vector<std::uint32_t>> &keeps, bool prune,
              const std::function<void(const OpMapping &)> &visit)
      : op_(op), keeps_(keeps), prune_(prune), visit_(visit) {}

  void orders(OpMapping &m, size_t level) const {
    if (level == m.levels.size()) {
      for (const std::vector<std::uint32_t> &keep : keeps_) {
        for (size_t l = 0; l < m.levels.size(); ++l)
          m.levels[l].keep = keep[l];
        visit_(m);
      }
      return;
    }
    std::vector<int> present;
    for (int d : op_.dims())
      if (m.levels[level].factor[static_cast<size_t>(d)] > 1)
        present.push_back(d);
    for (std::vector<int> &order : level_orders(op_, present, prune_)) {
      m.levels[level].order = std::move(order);
      orders(m, level + 1);
    }
  }

private:
  const Operator &op_;
  const std::vector<std::vector<std::uint32_t>> &keeps_;
  bool prune_;
  const std::function<void(const OpMapping &)> &visit_;
};

/// Splits of each dimension's remaining extent over levels 1..L, dimension by dimension.
void splits(const std::vector<int> &dims, size_t at,
            const std::vector<std::vector<std::vector<std::int64_t>>> &choices, OpMapping &m,
            const NestVisitor &visitor) {
  if (at == dims.size()) {
    visitor.orders(m, 1);
    return;
  }
  const auto d = static_cast<size_t>(dims[at]);
  for (const std::vector<std::int64_t> &split : choices[at]) {
    for (size_t l = 1; l < m.levels.size(); ++l)
      m.levels[l].factor[d] = split[l - 1];
    splits(dims, at + 1, choices, m, visitor);
  }
}

} // namespace

void for_each_inner_nest(const Hardware &hw, const Problem &problem, int o, const FusedTiles &tiles,
                         bool prune_orders, const std::function<void(const OpMapping &)> &visit) {
  const Hierarchy &h = hw.hierarchy;
  const Workload w = level1_workload(problem, o, tiles);
  const Operator &op = w.ops[static_cast<size_t>(problem.ops[static_cast<size_t>(o)].workload_op)];
  const std::uint32_t all = (std::uint32_t{1} << operator_tensors(op).size()) - 1;
  std::vector<std::vector<std::uint32_t>> keeps = keep_vectors(h, w, op);
  std::erase_if(keeps, [all](const std::vector<std::uint32_t> &k) { return k[1] != all; });
  const NestVisitor visitor(op, keeps, prune_orders, visit);
  const std::vector<int> dims = op.dims();
  for (const FanoutRow &row : spatial_rows(h, w, op)) {
    OpMapping m;
    m.levels.assign(h.levels.size(),
                    LevelMapping{{}, std::vector<std::int64_t>(w.dims.size(), 1), all});
    m.fanouts = row;
    if (fans_out_below_level0(m, dims))
      continue;
    std::vector<std::vector<std::vector<std::int64_t>>> choices;
    for (int d : dims) {
      std::int64_t left = tiles.extent[static_cast<size_t>(d)];
      for (const std::vector<FanoutMapping> &gap : row)
        for (const FanoutMapping &f : gap)
          left /= f.factor(d);
      choices.push_back(ordered_factorisations(left, h.levels.size() - 1));
    }
    splits(dims, 0, choices, m, visitor);
  }
}

} // namespace dse
