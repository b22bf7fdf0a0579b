// One front point as a mapping file, the format `dse eval --mapping` reads back.
#include <algorithm>
#include <cctype>
#include <sstream>

#include "dse/cli/front_report.hpp"
#include "dse/support/escape.hpp"

namespace dse {

namespace {

/// A name as a YAML flow scalar: bare when it is an identifier, else double-quoted.
std::string yaml_name(const std::string &name) {
  const bool bare =
      !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
      std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
      });
  return bare ? name : yaml_double_quoted(name);
}

/// A pair's cached halo dims as a list, a longer chain's per intermediate.
template <class Names>
std::string cache_text(const Problem &p, const Dataflow &df, const Names &names) {
  if (df.cached.size() == 1)
    return names(p, df.cached.front());
  std::string s;
  for (size_t l = 0; l < df.cached.size(); ++l)
    if (!df.cached[l].empty())
      s += (s.empty() ? "" : ", ") +
           yaml_name(p.tensors[static_cast<size_t>(p.links[l].intermediate)].name) + ": " +
           names(p, df.cached[l]);
  return "{" + s + "}";
}

} // namespace

std::string mapping_yaml(const ExploreResult &result, const Workload &workload, size_t index) {
  const FrontPoint &point = result.front.at(index);
  std::ostringstream out;
  out << "# front point " << index << " of workload '" << escape_control(workload.name) << "'\n";
  out << "workload: " << yaml_name(workload.name) << "\nsegments:\n";
  auto names = [](const Problem &p, const std::vector<int> &dims) {
    std::string s;
    for (int d : dims)
      s += (s.empty() ? "" : ", ") + p.dim_name(d);
    return "[" + s + "]";
  };
  for (const MappingPart &part : point.parts) {
    const Problem &p = result.problems[part.problem];
    const Dataflow &df = part.candidate.dataflow;
    out << "  - ops: [";
    for (size_t o = 0; o < p.ops.size(); ++o)
      out << (o ? ", " : "") << yaml_name(p.op(static_cast<int>(o)).name);
    out << "]\n";
    if (p.fused())
      out << "    prefix: " << names(p, df.prefix) << "\n";
    if (df.caches_halo())
      out << "    cache: " << cache_text(p, df, names) << "\n";
    out << "    loops: {";
    for (size_t o = 0; o < p.ops.size(); ++o)
      out << (o ? ", " : "") << yaml_name(p.op(static_cast<int>(o)).name) << ": "
          << names(p, df.subnests[o]);
    out << "}\n    retention: {";
    for (size_t t = 0; t < p.tensors.size(); ++t)
      out << (t ? ", " : "") << p.tensors[t].name << ": " << df.retention[t];
    out << "}\n    spatial: {";
    for (size_t o = 0; o < p.ops.size(); ++o) {
      const SpatialMapping &s = part.candidate.spatial[o];
      out << (o ? ", " : "") << yaml_name(p.op(static_cast<int>(o)).name) << ": ["
          << (s.row_dim < 0 ? "'-'" : p.dim_name(s.row_dim)) << ", "
          << (s.col_dim < 0 ? "'-'" : p.dim_name(s.col_dim)) << "]";
    }
    out << "}\n    tiles: {";
    bool first = true;
    for (int d : p.dims)
      if (!p.is_window[static_cast<size_t>(d)]) {
        out << (first ? "" : ", ") << p.dim_name(d) << ": "
            << part.tiling.tile[static_cast<size_t>(d)];
        first = false;
      }
    out << "}\n";
  }
  return out.str();
}

} // namespace dse
