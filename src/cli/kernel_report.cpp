// `dse run`'s table: per segment and count, the model's prediction, what the kernel counted and
// whether they match; then the time against the model's latency and the numeric check.
#include "dse/cli/kernel_report.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "dse/support/csv.hpp"

namespace dse {

std::string comparison_text(const std::vector<CountComparison> &rows, const KernelRun &run,
                            double predicted_latency_s, bool &ok) {
  std::ostringstream out;
  ok = run.check_passed;
  // Columns as wide as their longest entry (a fused chain's label, "X (residual)") plus a space.
  int segment_width = 24, name_width = 16;
  for (const CountComparison &r : rows) {
    segment_width = std::max(segment_width, static_cast<int>(r.segment.size()) + 1);
    name_width = std::max(name_width, static_cast<int>(r.name.size()) + 1);
  }
  out << std::left << std::setw(segment_width) << "segment" << std::setw(name_width) << "count"
      << std::setw(8) << "" << std::right << std::setw(18) << "predicted" << std::setw(18)
      << "measured"
      << "  match\n";
  for (const CountComparison &r : rows) {
    ok = ok && r.equal();
    out << std::left << std::setw(segment_width) << r.segment << std::setw(name_width) << r.name
        << std::setw(8) << r.quantity << std::right << std::setw(18) << exact_number(r.predicted)
        << std::setw(18) << exact_number(r.measured) << "  " << (r.equal() ? "yes" : "NO") << "\n";
  }
  out << "time: measured " << exact_number(run.seconds) << " s, model latency "
      << exact_number(predicted_latency_s) << " s\n";
  if (!run.checked)
    out << "check: skipped\n";
  else
    out << "check: " << (run.check_passed ? "passed" : "FAILED") << " (max relative error "
        << exact_number(run.max_relative_error) << ", tolerance " << exact_number(run.tolerance)
        << ")\n";
  out << (ok ? "counts equal the model's prediction\n"
             : "the kernel disagrees with the model or failed its check\n");
  return out.str();
}

} // namespace dse
