// Output files that a failed run never leaves half-written or half-replaced: regular files are
// replaced whole through a temporary file beside them, devices and pipes are written in place,
// and several files are staged and swapped in together.
#pragma once

#include <string>
#include <vector>

namespace dse {

/// Writes `text` to standard output; a UserError when it cannot all be written.
void write_stdout(const std::string &text);

/// Flushes standard output; a UserError when something printed earlier did not arrive.
void flush_stdout();

/// Output files replaced all together or not at all. stage() prepares each file beside its
/// target; commit() swaps them in, putting the earlier ones back if a later one fails. Whatever
/// was not committed is cleaned away by the destructor, leaving the previous outputs untouched.
///
/// A path that is empty or "-" is standard output. Symbolic links are followed to their final
/// target (the link stays a link). A regular file or an absent path is replaced through a
/// temporary file, keeping an existing file's permission bits; a character device, pipe or other
/// special file is written in place at commit, before anything is replaced.
class OutputSet {
public:
  OutputSet() = default;
  ~OutputSet();
  OutputSet(const OutputSet &) = delete;
  OutputSet &operator=(const OutputSet &) = delete;

  /// Prepares `text` as the new contents of `path`.
  void stage(const std::string &path, const std::string &text);
  /// Removes the regular file that `path` names, if any, at commit: a stale output of an earlier
  /// run that this run does not produce.
  void stage_removal(const std::string &path);
  void commit();

private:
  enum class Kind { Replace, Remove, InPlace, Stdout };
  struct Entry {
    std::string path;   // as given, for messages
    std::string target; // symbolic links followed
    Kind kind = Kind::Replace;
    std::string text;   // of an in-place write
    std::string temp;   // the staged new file of a replacement
    std::string backup; // a hard link to the previous file while committing several
  };
  void back_up(Entry &e);
  void swap_in(Entry &e);
  void put_back(Entry &e);

  std::vector<Entry> entries_;
};

/// Writes `text` to `path` on its own, as a one-file OutputSet.
void write_output(const std::string &path, const std::string &text);

/// A directory of output files, built in a holding directory beside the target and swapped in
/// whole by commit(): the previous directory and every file in it is replaced, so no stale file
/// survives, and until commit() it is left untouched. Symbolic links are followed as for files.
class OutputDirectory {
public:
  explicit OutputDirectory(const std::string &path);
  ~OutputDirectory();
  OutputDirectory(const OutputDirectory &) = delete;
  OutputDirectory &operator=(const OutputDirectory &) = delete;

  /// Writes `text` to the file `name` of the new directory.
  void write(const std::string &name, const std::string &text);
  void commit();

private:
  std::string path_;    // as given, for messages
  std::string target_;  // symbolic links followed
  std::string holding_; // beside target_: "new" is the directory being built, "old" the previous
};

} // namespace dse
