// A one-line progress bar with ETA on stderr for long searches (only on a terminal unless forced).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>

namespace dse {

class ProgressBar {
public:
  /// `unit` names what update() counts ("mappings", "compute nodes").
  explicit ProgressBar(bool enabled, std::string unit = "mappings")
      : enabled_(enabled), unit_(std::move(unit)) {}
  ~ProgressBar();
  ProgressBar(const ProgressBar &) = delete;
  ProgressBar &operator=(const ProgressBar &) = delete;

  /// Redraws (at most ten times a second) the bar of the search named `label`.
  void update(const std::string &label, std::uint64_t done, std::uint64_t total);

  /// Prints a line on stderr (enabled or not), below the bar if one is drawn.
  void note(const std::string &line);

  /// Whether stderr is a terminal: the default for showing progress.
  static bool stderr_is_terminal();

private:
  using Clock = std::chrono::steady_clock;
  bool enabled_;
  std::string unit_;
  bool drawn_ = false;
  std::string label_;
  Clock::time_point started_;
  Clock::time_point last_draw_;
};

} // namespace dse
