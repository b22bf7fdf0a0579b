// Shared emitter helpers: names, pointer and origin expressions, the counter table.
#include "emit_common.hpp"

#include <algorithm>

#include "code_writer.hpp"
#include "dse/codegen/kernel_counts.hpp"
#include "dse/support/contains.hpp"

namespace dse::codegen {

CounterTable counter_table(const std::vector<SegmentPlan> &plans) {
  CounterTable table;
  for (size_t s = 0; s < plans.size(); ++s) {
    const SegmentPlan &plan = plans[s];
    const int segment = static_cast<int>(s);
    table.tensor_entry.emplace_back();
    for (const ProblemTensor &t : plan.problem->tensors) {
      table.tensor_entry.back().push_back(static_cast<int>(table.words.size()));
      table.words.push_back({segment, t.name});
    }
    table.pass_entry.push_back(-1);
    if (plan.softmax.form == SoftmaxForm::Pass) {
      table.pass_entry.back() = static_cast<int>(table.words.size());
      table.words.push_back({segment, kSoftmaxPassCounter});
    }
    table.residual_entry.emplace_back();
    for (const ProblemOp &op : plan.problem->ops) {
      const std::string &r =
          plan.problem->workload->ops.at(static_cast<size_t>(op.workload_op)).einsum.residual;
      table.residual_entry.back().push_back(r.empty() ? -1 : static_cast<int>(table.words.size()));
      if (!r.empty())
        table.words.push_back({segment, residual_counter(r)});
    }
    table.mac_entry.emplace_back();
    for (const OpPlan &op : plan.ops) {
      table.mac_entry.back().push_back(static_cast<int>(table.macs.size()));
      table.macs.push_back({segment, op.name});
    }
  }
  return table;
}

std::string loop_var(const SegmentPlan &plan, int dim) {
  return "i_" + ident(plan.dims[static_cast<size_t>(dim)].name);
}

std::string dram_array(const std::string &tensor) { return "t_" + ident(tensor); }
std::string dram_shape(const std::string &tensor) { return "kShape_" + ident(tensor); }

std::string tile_pointer(const SegmentPlan &plan, int tile, const std::vector<int> &entered) {
  const TilePlan &t = plan.tiles[static_cast<size_t>(tile)];
  std::vector<std::string> terms{"gb", std::to_string(t.offset)};
  if (t.offset == 0)
    terms.pop_back();
  for (int d : entered) {
    const std::int64_t step =
        t.dim_stride[static_cast<size_t>(d)] * plan.dims[static_cast<size_t>(d)].tile;
    if (step != 0 && !contains(t.above, d))
      terms.push_back(loop_var(plan, d) + " * " + std::to_string(step));
  }
  return sum_of(terms);
}

int halo_of_position(const SegmentPlan &plan, int dim) {
  for (size_t k = 0; k < plan.halos.size(); ++k)
    if (plan.halos[k].position_dim == dim)
      return static_cast<int>(k);
  return -1;
}

std::string halo_var(int k, const char *what) { return "h" + std::to_string(k) + "_" + what; }

std::vector<std::int64_t> region_extent(const SegmentPlan &plan, int tile,
                                        const std::vector<int> &entered) {
  const TilePlan &t = plan.tiles[static_cast<size_t>(tile)];
  std::vector<std::int64_t> out;
  for (size_t p = 0; p < t.access.indices.size(); ++p) {
    const int d = plain_dim(t.access.indices[p]);
    out.push_back(contains(entered, d) ? plan.dims[static_cast<size_t>(d)].tile : t.extent[p]);
  }
  return out;
}

std::vector<std::string> box_origin(const SegmentPlan &plan, int tile) {
  const TilePlan &t = plan.tiles[static_cast<size_t>(tile)];
  std::vector<std::string> out;
  for (const IndexExpr &e : t.access.indices) {
    std::vector<std::string> terms;
    for (const IndexTerm &term : e.terms)
      if (contains(t.above, term.dim))
        terms.push_back(loop_var(plan, term.dim) + " * " +
                        std::to_string(term.coef * plan.dims[static_cast<size_t>(term.dim)].tile));
    if (e.offset != 0) // padding: the box starts before the array, and copy_in reads zeros there
      terms.push_back(std::to_string(e.offset));
    out.push_back(sum_of(terms));
  }
  return out;
}

std::string access_text(const Workload &workload, const TensorAccess &access) {
  std::string out = access.tensor + "[";
  for (size_t p = 0; p < access.indices.size(); ++p)
    out += (p ? "," : "") + index_text(access.indices[p], workload.dims);
  return out + "]";
}

} // namespace dse::codegen
