// The report layer of `dse run`: the kernel's counts next to the model's, as a text table.
#pragma once

#include <string>
#include <vector>

#include "dse/codegen/kernel_counts.hpp"

namespace dse {

/// The comparison as a text table (every number exact), then time vs model latency and the
/// check; `ok` tells whether every count matched and the check passed.
std::string comparison_text(const std::vector<CountComparison> &rows, const KernelRun &run,
                            double predicted_latency_s, bool &ok);

} // namespace dse
