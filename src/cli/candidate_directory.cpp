// The candidate cache's directory: entries read whole (anything unreadable is absent), written as
// output files are (a temporary file renamed over the entry); a directory that cannot be written
// is reported once and the cache goes on in memory.
#include "dse/cli/candidate_directory.hpp"

#include <fstream>
#include <iostream>
#include <sstream>

#include "dse/cli/output_file.hpp"
#include "dse/search/candidate_entry.hpp"
#include "dse/support/error.hpp"
#include "dse/support/escape.hpp"

namespace dse {

CandidateDirectory::CandidateDirectory(std::filesystem::path dir,
                                       std::function<void(const std::string &)> warn)
    : dir_(std::move(dir)), warn_(std::move(warn)) {}

std::filesystem::path CandidateDirectory::entry_path(const std::string &key) const {
  return dir_ / candidate_entry_name(key);
}

std::optional<std::string> CandidateDirectory::load(const std::string &key) {
  const std::filesystem::path path = entry_path(key);
  std::error_code ec;
  // Only regular files: opening a pipe or device planted there could block or never end.
  if (!std::filesystem::is_regular_file(path, ec) ||
      std::filesystem::file_size(path, ec) > kMaxEntryBytes || ec)
    return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (!in || in.bad())
    return std::nullopt;
  return std::move(bytes).str();
}

void CandidateDirectory::save(const std::string &key, const std::string &entry) {
  if (unwritable_)
    return;
  const std::filesystem::path path = entry_path(key);
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  std::string why;
  if (ec) {
    why = "cannot create directory '" + dir_.string() + "': " + ec.message();
  } else if (const auto status = std::filesystem::status(path, ec);
             std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
    // A pipe or device there would be written in place (and could block): left alone.
    why = "'" + path.string() + "' is not a regular file";
  } else {
    try {
      write_output(path.string(), entry);
      return;
    } catch (const UserError &e) {
      why = e.message();
    }
  }
  unwritable_ = true;
  std::call_once(warned_, [&] {
    if (warn_)
      warn_(why);
  });
}

std::shared_ptr<CandidateCache> make_candidate_cache(const std::string &dir) {
  if (dir.empty())
    return std::make_shared<CandidateCache>();
  return std::make_shared<CandidateCache>(
      std::make_shared<CandidateDirectory>(dir, [](const std::string &why) {
        std::cerr << escape_control_in_text("warning: candidate cache: " + why +
                                            "; candidate spaces are not saved")
                  << "\n";
      }));
}

std::string candidate_cache_report(const std::string &dir, const CandidateCache &cache) {
  if (dir.empty())
    return {};
  const CandidateCacheCounts counts = cache.counts();
  std::ostringstream out;
  out << "candidate cache '" << escape_control(dir) << "': " << counts.loaded << " read, "
      << counts.built << " built";
  if (!counts.rejected.empty()) {
    out << " (" << counts.rejected.size() << " refused:";
    for (size_t i = 0; i < counts.rejected.size(); ++i)
      out << (i ? ", " : " ") << counts.rejected[i];
    out << ")";
  }
  out << "\n";
  return out.str();
}

} // namespace dse
