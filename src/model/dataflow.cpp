// Loop-tree queries, legality rules and readable descriptions of candidate dataflows.
#include "dse/model/dataflow.hpp"

#include <algorithm>
#include <sstream>

#include "dse/support/contains.hpp"

namespace dse {

std::vector<int> Dataflow::path(int op) const {
  std::vector<int> out = prefix;
  const auto &own = subnests.at(static_cast<size_t>(op));
  out.insert(out.end(), own.begin(), own.end());
  return out;
}

std::vector<int> Dataflow::recompute_dims(const Problem &problem) const {
  return prefix_recompute_dims(problem, prefix);
}

bool Dataflow::caches_halo() const {
  return std::any_of(cached.begin(), cached.end(),
                     [](const std::vector<int> &dims) { return !dims.empty(); });
}

std::vector<int> prefix_recompute_dims(const Problem &problem, const std::vector<int> &prefix) {
  std::vector<int> out;
  for (int d : prefix)
    if (contains(problem.recompute_dims, d))
      out.push_back(d);
  return out;
}

std::vector<int> op_recompute_dims(const Problem &problem, const std::vector<int> &recompute_dims,
                                   int op) {
  std::vector<int> out;
  for (int d : recompute_dims)
    if (!contains(problem.ops.at(static_cast<size_t>(op)).dims, d))
      out.push_back(d);
  return out;
}

namespace {

/// Retention depths worth considering are 0 or right below a loop that indexes the tensor.
bool depth_is_meaningful(const std::vector<int> &path, const TensorAccess &access, int depth) {
  if (depth == 0)
    return true;
  if (depth < 0 || depth > static_cast<int>(path.size()))
    return false;
  return access.uses(path[static_cast<size_t>(depth) - 1]);
}

std::string check_nests(const Problem &problem, const Dataflow &df) {
  if (df.subnests.size() != problem.ops.size())
    return "expected one sub-nest per operator";
  if (!problem.fused() && !df.prefix.empty())
    return "a single operator has no shared prefix";
  for (int d : df.prefix)
    if (!contains(problem.prefix_dims, d))
      return "dimension '" + problem.dim_name(d) +
             "' may not be in the shared prefix (a producer reduction or unknown dimension)";
  for (int d : problem.halo_dims)
    if (!contains(df.prefix, d))
      return "dimension '" + problem.dim_name(d) +
             "' reads an intermediate through a window and must be in the shared prefix";
  for (size_t o = 0; o < problem.ops.size(); ++o) {
    std::vector<int> have = df.path(static_cast<int>(o));
    std::vector<int> want = problem.ops[o].tiled_dims;
    for (int d : df.prefix)
      if (!contains(want, d))
        want.push_back(d); // recompute loops enclose the producer too
    std::sort(have.begin(), have.end());
    std::sort(want.begin(), want.end());
    if (have != want)
      return "the loops of op '" + problem.op(static_cast<int>(o)).name +
             "' must cover each of its tiled dimensions exactly once";
  }
  return {};
}

bool is_intermediate(const Problem &problem, size_t tensor) {
  return problem.tensors[tensor].role == TensorRole::Intermediate;
}

std::string check_cached(const Problem &problem, const Dataflow &df) {
  if (df.cached.size() != problem.links.size())
    return "expected one list of cached halo dims per intermediate";
  for (size_t l = 0; l < df.cached.size(); ++l) {
    const std::vector<int> &cached = df.cached[l];
    if (!std::is_sorted(cached.begin(), cached.end()) ||
        std::adjacent_find(cached.begin(), cached.end()) != cached.end())
      return "a halo dim is cached twice";
    const std::vector<int> cacheable = problem.cacheable_halo_dims(static_cast<int>(l));
    for (int d : cached)
      if (!contains(cacheable, d))
        return "dimension '" + problem.dim_name(d) + "' has no halo overlap of '" +
               problem.tensors[static_cast<size_t>(problem.links[l].intermediate)].name +
               "' to keep on chip (a halo dim whose windows overlap, read once by every "
               "producer access; when padding as wide as the stride follows the "
               "intermediate's last position, the producer has no window of its own along it)";
  }
  return {};
}

/// Every recompute and halo loop of a link lies above its intermediate's depth.
std::string check_enclosing(const Problem &problem, const Dataflow &df) {
  for (size_t l = 0; l < problem.links.size(); ++l) {
    const int depth = df.retention[static_cast<size_t>(problem.links[l].intermediate)];
    for (size_t i = 0; i < df.prefix.size(); ++i)
      if (problem.encloses_intermediate(static_cast<int>(l), df.prefix[i]) &&
          static_cast<int>(i) >= depth)
        return std::string(problem.links[l].has_halo(df.prefix[i]) ? "halo" : "recompute") +
               " loop '" + problem.dim_name(df.prefix[i]) +
               "' lies below the retention depth of '" +
               problem.tensors[static_cast<size_t>(problem.links[l].intermediate)].name + "'";
  }
  return {};
}

std::string check_retention(const Problem &problem, const Dataflow &df) {
  if (df.retention.size() != problem.tensors.size())
    return "expected one retention depth per tensor";
  for (size_t t = 0; t < problem.tensors.size(); ++t) {
    const ProblemTensor &tensor = problem.tensors[t];
    const int depth = df.retention[t];
    const std::vector<int> path = is_intermediate(problem, t) ? df.prefix : df.path(tensor.owner);
    if (!depth_is_meaningful(path, tensor.access, depth))
      return "retention depth " + std::to_string(depth) + " of tensor '" + tensor.name +
             "' is not 0 or right below a loop that indexes it" +
             (is_intermediate(problem, t) ? " within the shared prefix" : "");
  }
  if (std::string why = check_cached(problem, df); !why.empty())
    return why;
  return check_enclosing(problem, df);
}

} // namespace

std::string legality_problem(const Problem &problem, const Dataflow &dataflow) {
  std::string why = check_nests(problem, dataflow);
  return why.empty() ? check_retention(problem, dataflow) : why;
}

bool residual_held(const Problem &problem, const Dataflow &dataflow) {
  return problem.held_residual >= 0 && !dataflow.caches_halo() &&
         dataflow.retention[static_cast<size_t>(problem.held_residual)] <
             static_cast<int>(dataflow.prefix.size());
}

std::string describe(const Problem &problem, const Candidate &candidate) {
  const Dataflow &df = candidate.dataflow;
  std::ostringstream out;
  auto loops = [&](const std::vector<int> &dims) {
    std::string s;
    for (int d : dims)
      s += (s.empty() ? "" : " ") + problem.dim_name(d);
    return s.empty() ? std::string("-") : s;
  };
  if (problem.fused())
    out << "fused prefix[" << loops(df.prefix) << "]";
  else
    out << "single";
  for (size_t o = 0; o < problem.ops.size(); ++o)
    out << " | " << problem.op(static_cast<int>(o)).name << ": " << loops(df.subnests[o]);
  out << " | keep";
  for (size_t t = 0; t < problem.tensors.size(); ++t)
    out << " " << problem.tensors[t].name << "@" << df.retention[t];
  if (residual_held(problem, df))
    out << " | residual " << problem.tensors[static_cast<size_t>(problem.held_residual)].name
        << " held";
  const std::vector<int> recompute = df.recompute_dims(problem);
  if (!recompute.empty())
    out << " | recompute " << loops(recompute);
  for (size_t l = 0; l < df.cached.size(); ++l)
    if (!df.cached[l].empty())
      out << " | cache "
          << (df.cached.size() > 1
                  ? problem.tensors[static_cast<size_t>(problem.links[l].intermediate)].name + " "
                  : std::string())
          << loops(df.cached[l]);
  out << " | spatial";
  for (size_t o = 0; o < candidate.spatial.size(); ++o) {
    const SpatialMapping &s = candidate.spatial[o];
    out << " " << problem.op(static_cast<int>(o)).name << "("
        << (s.row_dim < 0 ? "-" : problem.dim_name(s.row_dim)) << ","
        << (s.col_dim < 0 ? "-" : problem.dim_name(s.col_dim)) << ")";
  }
  return out.str();
}

} // namespace dse
