// What the front reports show of a point beyond its totals: buffer words per operator,
// utilisation, fusion and the readable dataflow, all from what the search returned.
#include "dse/cli/front_report.hpp"

namespace dse {

namespace {

std::string tiles_text(const Problem &p, const Tiling &t) {
  std::string out;
  for (int d : p.dims)
    if (!p.is_window[static_cast<size_t>(d)])
      out += (out.empty() ? "" : " ") + p.dim_name(d) + "=" +
             std::to_string(t.tile[static_cast<size_t>(d)]);
  return out;
}

} // namespace

PointDetail point_detail(const ExploreResult &r, const FrontPoint &point, const Hardware &hw) {
  PointDetail d;
  for (const MappingPart &part : point.parts) {
    const Problem &p = r.problems[part.problem];
    for (size_t o = 0; o < p.ops.size(); ++o)
      d.buffer_words[p.op(static_cast<int>(o)).name] = part.op_buffer_words.at(o);
    d.fused = d.fused || p.fused();
    d.dataflow += (d.dataflow.empty() ? "" : " ; ") + describe(p, part.candidate) + " | tiles " +
                  tiles_text(p, part.tiling);
  }
  const double array = static_cast<double>(hw.effective_rows() * hw.effective_cols());
  d.utilisation = point.totals.cycles > 0 ? point.totals.macs / (point.totals.cycles * array) : 0;
  return d;
}

} // namespace dse
