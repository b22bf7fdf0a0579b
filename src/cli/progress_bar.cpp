// Progress bar drawing: percentage, bar, count done of the total and remaining time extrapolated
// from the elapsed time.
#include "dse/cli/progress_bar.hpp"

#include <cstdio>
#include <unistd.h>

#include "dse/search/space_limits.hpp"
#include "dse/support/escape.hpp"

namespace dse {

bool ProgressBar::stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

ProgressBar::~ProgressBar() {
  if (drawn_)
    std::fputs("\n", stderr);
}

void ProgressBar::update(const std::string &label, std::uint64_t done, std::uint64_t total) {
  if (!enabled_ || total == 0)
    return;
  const Clock::time_point now = Clock::now();
  if (label != label_) {
    label_ = label;
    started_ = now;
  } else if (done < total && now - last_draw_ < std::chrono::milliseconds(100)) {
    return;
  }
  last_draw_ = now;
  const double fraction = static_cast<double>(done) / static_cast<double>(total);
  const double elapsed = std::chrono::duration<double>(now - started_).count();
  const double eta = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0;
  constexpr int kWidth = 30;
  const int filled = static_cast<int>(fraction * kWidth);
  std::fprintf(stderr, "\r%-24.24s [%.*s%*s] %5.1f%% %7s/%-7s %s ETA %6.1fs",
               escape_control(label).c_str(), filled, "##############################",
               kWidth - filled, "", 100 * fraction, count_text(static_cast<double>(done)).c_str(),
               count_text(static_cast<double>(total)).c_str(), unit_.c_str(), eta);
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressBar::note(const std::string &line) {
  if (drawn_)
    std::fputs("\n", stderr); // the bar stays, finished or not, above the line
  drawn_ = false;
  std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
}

} // namespace dse
