// Halo emission: run-time position ranges, input boxes that follow them, pointers into the
// windows, MACs per computed position, and the overlap stores' copies.
#include "halo_emitter.hpp"

#include <algorithm>

#include "dse/support/contains.hpp"
#include "emit_common.hpp"
#include "halo_plan.hpp"

namespace dse::codegen {

namespace {

std::string num(std::int64_t v) { return std::to_string(v); }

const TilePlan &tile_of(const SegmentPlan &plan, int t) {
  return plan.tiles[static_cast<size_t>(t)];
}

/// The intermediate tile of link `link`.
int intermediate(const SegmentPlan &plan, int link) {
  return plan.problem->links[static_cast<size_t>(link)].intermediate;
}

/// Whether op `op` produces an intermediate (its halos are those of its link).
bool produces(const SegmentPlan &plan, int op) {
  return op < static_cast<int>(plan.problem->links.size());
}

/// `entered` without the halo dims of link `link`.
std::vector<int> without_halo_dims(const SegmentPlan &plan, int link,
                                   const std::vector<int> &entered) {
  std::vector<int> out;
  for (int d : entered)
    if (std::none_of(plan.halos.begin(), plan.halos.end(),
                     [&](const HaloPlan &h) { return h.link == link && h.dim == d; }))
      out.push_back(d);
  return out;
}

/// Along its halo axis, input `x` reads position c * q + own_offset + (its own window) for each
/// position q of the intermediate: c and the span of its own window.
struct InputAxis {
  std::int64_t coef = 1;
  std::int64_t offset = 0;
  std::int64_t own_span = 1;
};

InputAxis input_axis(const SegmentPlan &plan, const TilePlan &x, size_t axis, const HaloPlan &h) {
  const IndexExpr &e = x.access.indices[axis];
  const IndexExpr &read =
      tile_of(plan, intermediate(plan, h.link)).access.indices[static_cast<size_t>(h.axis)];
  InputAxis out;
  out.coef = e.coefficient(h.dim) / h.stride;
  out.offset = e.offset - out.coef * h.offset;
  for (const IndexTerm &t : e.terms)
    if (read.coefficient(t.dim) == 0) {
      const DimPlan &d = plan.dims[static_cast<size_t>(t.dim)];
      out.own_span += t.coef * ((contains(x.above, t.dim) ? d.tile : d.padded()) - 1);
    }
  return out;
}

} // namespace

void emit_halo_ranges(CodeWriter &out, const SegmentPlan &plan, int dim) {
  for (size_t k = 0; k < plan.halos.size(); ++k) {
    const HaloPlan &h = plan.halos[k];
    if (dim >= 0 ? !h.looped || h.dim != dim : h.looped)
      continue;
    const int ki = static_cast<int>(k);
    const std::string step = h.looped ? loop_var(plan, h.dim) : "0";
    const std::string lo = halo_var(ki, "lo"), end = halo_var(ki, "end");
    out.line("// " + plan.dims[static_cast<size_t>(h.position_dim)].name + ": window [" + lo +
             ", " + end + "), computed within [" + num(h.begin) + ", " + num(h.end) + ")" +
             (h.cached ? ", the first " + num(h.overlap) + " kept from the step before" : ""));
    if (h.chained < 0) {
      out.line("const i64 " + lo + " = " +
               sum_of({h.looped ? step + " * " + num(h.step) : "", num(h.offset)}) + ";");
      out.line("const i64 " + end + " = " + lo + " + " + num(h.window) + ";");
    } else { // what the next link's producer reads for the positions it computes
      const std::string first = halo_var(h.chained, "first"), n = halo_var(h.chained, "n");
      const std::string at = num(h.coef) + " * " + first + " + " + num(h.shift);
      out.line("const i64 " + lo + " = " + at + ";");
      out.line("const i64 " + end + " = " + n + " > 0 ? " + at + " + " + num(h.coef) + " * (" + n +
               " - 1) + " + num(h.own_span) + " : " + lo + ";");
    }
    const std::string kept = h.cached ? " + (" + step + " > 0 ? " + num(h.overlap) + " : 0)" : "";
    out.line("const i64 " + halo_var(ki, "first") + " = std::max<i64>(" + lo + kept + ", " +
             num(h.begin) + ");");
    out.line("const i64 " + halo_var(ki, "n") + " = std::max<i64>(std::min<i64>(" + end + ", " +
             num(h.end) + ") - " + halo_var(ki, "first") + ", 0);");
  }
}

bool follows_halos(const SegmentPlan &plan, int tile) {
  if (plan.halos.empty() || tile >= static_cast<int>(plan.problem->tensors.size()))
    return false;
  const TilePlan &x = tile_of(plan, tile);
  const int owner = plan.problem->tensors[static_cast<size_t>(tile)].owner;
  return x.role == TensorRole::Input && produces(plan, owner) &&
         std::any_of(x.access.indices.begin(), x.access.indices.end(),
                     [&](const IndexExpr &e) { return halo_of(plan.halos, owner, e) >= 0; });
}

namespace {

/// A producer input's box along its halo axes: from the first position of the halo that its
/// producer computes (held under the halo's loop: of this step; above it: of all steps), as
/// many as those positions read; the other axes as box_origin and the tile's extent. Also the
/// conditions under which the box is not empty.
struct HaloBox {
  std::vector<std::string> origin, extent, nonempty;
};

HaloBox halo_box(const SegmentPlan &plan, int tile) {
  const TilePlan &x = tile_of(plan, tile);
  HaloBox box{box_origin(plan, tile), {}, {}};
  for (std::int64_t e : x.extent)
    box.extent.push_back(num(e));
  const int owner = plan.problem->tensors[static_cast<size_t>(tile)].owner;
  for (size_t a = 0; a < x.access.indices.size(); ++a) {
    const int k = halo_of(plan.halos, owner, x.access.indices[a]);
    if (k < 0)
      continue;
    const HaloPlan &h = plan.halos[static_cast<size_t>(k)];
    const InputAxis in = input_axis(plan, x, a, h);
    const bool per_step = contains(x.above, h.dim);
    const std::string first = per_step ? halo_var(k, "first") : num(h.begin);
    const std::string count = per_step ? halo_var(k, "n") : num(h.end - h.begin);
    box.origin[a] = sum_of({num(in.coef) + " * " + first, num(in.offset)});
    box.extent[a] = num(in.coef) + " * (" + count + " - 1) + " + num(in.own_span);
    if (per_step)
      box.nonempty.push_back(halo_var(k, "n") + " > 0");
  }
  return box;
}

} // namespace

std::vector<std::string> stored_origin(const SegmentPlan &plan, int tile) {
  return follows_halos(plan, tile) ? halo_box(plan, tile).origin : box_origin(plan, tile);
}

std::string halo_box_load(const SegmentPlan &plan, int tile, const std::string &counter) {
  const TilePlan &x = tile_of(plan, tile);
  const HaloBox box = halo_box(plan, tile);
  const std::vector<std::string> &origin = box.origin, &extent = box.extent,
                                 &nonempty = box.nonempty;
  std::string when;
  for (const std::string &c : nonempty)
    when += (when.empty() ? "if (" : " && ") + c;
  const std::string rank = num(static_cast<std::int64_t>(x.extent.size()));
  return (when.empty() ? "" : when + ") ") + counter + " += copy_in_box<" + rank + ">(gb + " +
         num(x.offset) + ", " + dram_array(x.name) + ".data(), " + dram_shape(x.name) + ", " +
         braced(origin) + ", " + braced(extent) + ", " + braced(x.extent) + ", " + braced(x.order) +
         ", " + num(x.block) + ");";
}

std::string operand_pointer(const SegmentPlan &plan, int op, int tile,
                            const std::vector<int> &entered) {
  if (!produces(plan, op) || plan.halos.empty())
    return tile_pointer(plan, tile, entered);
  const TilePlan &x = tile_of(plan, tile);
  const int output = intermediate(plan, op);
  std::vector<std::string> terms{tile_pointer(plan, tile, without_halo_dims(plan, op, entered))};
  for (size_t k = 0; k < plan.halos.size(); ++k) {
    const HaloPlan &h = plan.halos[k];
    const std::int64_t stride = x.dim_stride[static_cast<size_t>(h.position_dim)];
    if (h.link != op || stride == 0)
      continue;
    // An input held under the loop starts at the first position computed, so does the previous
    // link's window (it follows what this op computes); the output's window starts at lo, an
    // input held above the loop at `begin`.
    const bool held_above = !contains(x.above, h.dim);
    if (tile != output && (!held_above || (op > 0 && tile == intermediate(plan, op - 1))))
      continue;
    const std::string from = tile == output ? halo_var(static_cast<int>(k), "lo") : num(h.begin);
    terms.push_back("(" + halo_var(static_cast<int>(k), "first") + " - " + from + ") * " +
                    num(stride));
  }
  return sum_of(terms);
}

std::string halo_counts(const SegmentPlan &plan, int op) {
  std::string out;
  for (int d : plan.ops[static_cast<size_t>(op)].outer_dims)
    if (const int k = halo_of_position(plan, d); k >= 0)
      out += ", " + halo_var(k, "n");
  return out;
}

std::string macs_expression(const SegmentPlan &plan, int op) {
  std::string out = num(plan.ops[static_cast<size_t>(op)].macs_per_tile);
  for (int d : plan.ops[static_cast<size_t>(op)].outer_dims)
    if (const int k = halo_of_position(plan, d); k >= 0)
      out += " * " + halo_var(k, "n");
  return out;
}

std::string overlap_copy(const SegmentPlan &plan, const Step &step) {
  const TilePlan &store = tile_of(plan, step.tile);
  const int k = store.halo;
  const HaloPlan &h = plan.halos[static_cast<size_t>(k)];
  const int inter_tile = intermediate(plan, h.link);
  const TilePlan &inter = tile_of(plan, inter_tile);
  // The current region of the intermediate, but only the overlap along the halo's axis.
  std::vector<std::int64_t> count;
  for (size_t a = 0; a < inter.extent.size(); ++a) {
    const IndexExpr &e = inter.access.indices[a];
    const int d = plain_dim(e);
    if (static_cast<int>(a) == h.axis)
      count.push_back(h.overlap);
    else if (e.is_plain() && contains(step.entered, d) && !contains(inter.above, d))
      count.push_back(plan.dims[static_cast<size_t>(d)].tile);
    else
      count.push_back(inter.extent[a]);
  }
  std::vector<int> outside_store;
  for (int d : step.entered)
    if (d != h.dim)
      outside_store.push_back(d);
  const std::string rank = num(static_cast<std::int64_t>(count.size()));
  const std::string kept = tile_pointer(plan, step.tile, outside_store);
  const std::string region = tile_pointer(plan, inter_tile, step.entered);
  if (step.kind == StepKind::HaloLoad)
    return "if (" + loop_var(plan, h.dim) + " > 0) copy_region<" + rank + ">(" + region + ", " +
           braced(inter.position_stride) + ", " + kept + ", " + braced(store.position_stride) +
           ", " + braced(count) + "); // " + store.name;
  // The window's last positions, where the next step's window starts.
  const std::string tail = region + " + (" + halo_var(k, "end") + " - " + halo_var(k, "lo") +
                           " - " + num(h.overlap) + ") * " +
                           num(inter.position_stride[static_cast<size_t>(h.axis)]);
  std::string when;
  for (int d : h.save_at_last)
    when += (when.empty() ? "if (" : " && ") + loop_var(plan, d) +
            " == " + num(plan.dims[static_cast<size_t>(d)].trips - 1);
  return (when.empty() ? "" : when + ") ") + "copy_region<" + rank + ">(" + kept + ", " +
         braced(store.position_stride) + ", " + tail + ", " + braced(inter.position_stride) + ", " +
         braced(count) + "); // " + store.name;
}

} // namespace dse::codegen
