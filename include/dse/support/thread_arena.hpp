// The task arena of a `--threads` option: the searches, the network passes and the segment
// searches all run in one of these.
#pragma once

#include <tbb/task_arena.h>

namespace dse {

/// A task arena of `threads` threads (every core for 0).
inline tbb::task_arena thread_arena(int threads) {
  return tbb::task_arena(threads > 0 ? threads : tbb::task_arena::automatic);
}

} // namespace dse
