// The search statistics `dse explore -v` prints: per problem, pruning, mappings decided, tiling
// boxes and columns visited, mappings whose objectives were computed, and the rate of the matrix
// products against the machine's nominal peak.
#include <iomanip>
#include <sstream>

#include "dse/cli/front_report.hpp"
#include "dse/support/csv.hpp"
#include "dse/support/escape.hpp"
#include "dse/support/machine_peak.hpp"

namespace dse {

std::string search_statistics(const ExploreResult &result, int threads) {
  const double peak = nominal_peak_flops(threads);
  std::ostringstream out;
  for (const ProblemSummary &s : result.summaries) {
    const SearchStats &st = s.stats;
    out << escape_control(s.label) << ": dataflows " << st.pruning.dataflows_enumerated << " -> "
        << st.pruning.dataflows_after_local << " (per-operator pruning) -> "
        << st.pruning.dataflows_kept << " (group pruning); spatial combinations "
        << st.pruning.spatial_combinations << "; candidates " << st.pruning.candidates_before()
        << " -> " << st.pruning.candidates_after() << "; tilings " << st.tilings
        << "; mappings evaluated " << st.mappings << "; basis functions " << st.basis_functions
        << "; tiling boxes visited " << st.boxes << "; tiling columns visited " << st.columns
        << " (mappings found to fit the buffer " << st.feasible_mappings
        << "); objectives computed for " << st.objectives_computed << " mappings; Q x B "
        << csv_number(st.matrix_flops) << " flops; " << csv_number(st.seconds) << " s";
    if (st.seconds > 0) {
      const double rate = st.matrix_flops / st.seconds;
      out << " (" << csv_number(static_cast<double>(st.mappings) / st.seconds) << " mappings/s, "
          << csv_number(rate) << " flop/s";
      if (peak > 0) {
        std::ostringstream percent;
        percent << std::setprecision(2) << 100 * rate / peak;
        out << ", " << percent.str() << "% of the nominal peak " << csv_number(peak);
      }
      out << ")";
    }
    out << "\n";
  }
  out << "total: " << csv_number(result.seconds) << " s, " << result.front.size()
      << " front points\n";
  return out.str();
}

} // namespace dse
