// The search statistics `dse explore -v` prints: per problem, pruning and mappings decided.
#include <sstream>

#include "dse/cli/front_report.hpp"
#include "dse/support/csv.hpp"
#include "dse/support/escape.hpp"

namespace dse {

std::string search_statistics(const ExploreResult &result) {
  std::ostringstream out;
  for (const ProblemSummary &s : result.summaries) {
    const SearchStats &st = s.stats;
    out << escape_control(s.label) << ": dataflows " << st.pruning.dataflows_enumerated << " -> "
        << st.pruning.dataflows_after_local << " (per-operator pruning) -> "
        << st.pruning.dataflows_kept << " (group pruning); spatial combinations "
        << st.pruning.spatial_combinations << "; candidates " << st.pruning.candidates_before()
        << " -> " << st.pruning.candidates_after() << "; tilings " << st.tilings
        << "; mappings evaluated " << st.mappings << " (" << st.feasible_mappings
        << " fit the buffer); basis functions " << st.basis_functions << "; "
        << csv_number(st.seconds) << " s";
    if (st.seconds > 0)
      out << " (" << csv_number(static_cast<double>(st.mappings) / st.seconds) << " mappings/s)";
    out << "\n";
  }
  out << "total: " << csv_number(result.seconds) << " s, " << result.front.size()
      << " front points\n";
  return out.str();
}

} // namespace dse
