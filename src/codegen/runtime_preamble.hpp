// The fixed part of every generated kernel: portable vector helpers, the register-level
// accumulator block, DMA-style tile copies with zero fill, and the vectorised softmax pieces.
#pragma once

namespace dse::codegen {

/// C++ text to place after the constants kLanes, kMr and kNr (inside an anonymous namespace).
const char *runtime_preamble();

} // namespace dse::codegen
