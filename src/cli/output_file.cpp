// Atomic output: temporary file, flush, rename.
#include "dse/cli/output_file.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <unistd.h>

#include "dse/support/error.hpp"

namespace dse {

void write_output(const std::string &path, const std::string &text) {
  if (path.empty() || path == "-") {
    std::cout << text;
    std::cout.flush();
    return;
  }
  const std::string temp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out)
      throw UserError("cannot write output file '" + path + "'");
    out << text;
    out.flush();
    if (!out) {
      std::remove(temp.c_str());
      throw UserError("cannot write output file '" + path + "'");
    }
  }
  std::error_code ec;
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    std::remove(temp.c_str());
    throw UserError("cannot write output file '" + path + "': " + ec.message());
  }
}

} // namespace dse
