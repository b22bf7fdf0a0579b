// Nominal peak flops from /proc/cpuinfo.
#include "dse/support/machine_peak.hpp"

#include <fstream>
#include <sstream>
#include <string>
#include <thread>

namespace dse {

namespace {

/// The value of the first `key : value` line of /proc/cpuinfo, empty when absent.
std::string cpuinfo_value(const std::string &key) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(key, 0) == 0)
      if (const size_t colon = line.find(':'); colon != std::string::npos)
        return line.substr(colon + 1);
  return {};
}

bool has_flag(const std::string &flags, const std::string &flag) {
  std::istringstream words(flags);
  std::string word;
  while (words >> word)
    if (word == flag)
      return true;
  return false;
}

} // namespace

double nominal_peak_flops(int threads) {
  const std::string mhz = cpuinfo_value("cpu MHz");
  if (mhz.empty())
    return 0;
  const std::string flags = cpuinfo_value("flags");
  const double per_cycle = has_flag(flags, "avx512f")                          ? 32
                           : has_flag(flags, "avx2") && has_flag(flags, "fma") ? 16
                                                                               : 4;
  const unsigned cores = threads > 0 ? static_cast<unsigned>(threads)
                                     : std::max(1U, std::thread::hardware_concurrency());
  return std::stod(mhz) * 1e6 * per_cycle * static_cast<double>(cores);
}

} // namespace dse
