// The commands that still run on today's model only refuse a general hierarchy by name.
#include "dse/cli/commands.hpp"

namespace dse {

void require_legacy_hardware(const Hardware &hw, const std::string &command) {
  if (hw.is_legacy())
    return;
  throw UserError(SourceLocation{hw.source_file, 0, 0},
                  "'" + hw.name + "' is a general hierarchy (counting: timeloop); dse " + command +
                      " handles hardware in today's form (counting: legacy) only so far, and dse "
                      "eval evaluates mappings on general hierarchies");
}

} // namespace dse
