// Output files: symbolic links followed, regular files replaced through a temporary file beside
// them, special files written in place, several files or a directory swapped in together.
#include "dse/cli/output_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <iostream>
#include <sys/stat.h>
#include <unistd.h>

#include "dse/support/error.hpp"

namespace dse {

namespace {

constexpr int kMaxLinkHops = 40; // as the kernel's ELOOP limit

std::string file_subject(const std::string &path) { return "output file '" + path + "'"; }

std::string directory_subject(const std::string &path) { return "output directory '" + path + "'"; }

[[noreturn]] void fail(const std::string &subject, int error) {
  throw UserError("cannot write " + subject +
                  (error != 0 ? ": " + std::string(std::strerror(error)) : ""));
}

bool is_stdout(const std::string &path) { return path.empty() || path == "-"; }

/// `path` with trailing slashes dropped and symbolic links followed to the final target, which
/// need not exist.
std::string resolve_links(std::string path, const std::string &subject) {
  while (path.size() > 1 && path.back() == '/')
    path.pop_back();
  std::filesystem::path p = path;
  for (int hops = 0; hops < kMaxLinkHops; ++hops) {
    std::error_code ec;
    if (!std::filesystem::is_symlink(std::filesystem::symlink_status(p, ec)))
      return p.string();
    const std::filesystem::path next = std::filesystem::read_symlink(p, ec);
    if (ec)
      fail(subject, ec.value());
    p = next.is_absolute() ? next : p.parent_path() / next;
  }
  fail(subject, ELOOP);
}

/// Whether `target` exists, with its status (of a final link, not followed) in `st`.
bool look_up(const std::string &target, struct stat &st, const std::string &subject) {
  if (::lstat(target.c_str(), &st) == 0)
    return true;
  if (errno != ENOENT)
    fail(subject, errno);
  return false;
}

/// Creates something new beside `target` under the first free name TARGET.TAG.PID[.N]: `create`
/// makes the given name and returns 0 or the errno of its failure.
template <class Create>
std::string create_beside(const std::string &target, const std::string &tag,
                          const std::string &subject, Create create) {
  const std::string stem = target + "." + tag + "." + std::to_string(::getpid());
  for (int n = 0; n < 100; ++n) {
    const std::string name = n == 0 ? stem : stem + "." + std::to_string(n);
    const int error = create(name);
    if (error == 0)
      return name;
    if (error != EEXIST)
      fail(subject, error);
  }
  fail(subject, EEXIST);
}

/// Writes all of `text` to `fd` and closes it; throws naming `subject` on any failure.
void write_and_close(int fd, const std::string &text, const std::string &subject) {
  int error = 0;
  for (size_t done = 0; done < text.size() && error == 0;) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n >= 0)
      done += static_cast<size_t>(n);
    else if (errno != EINTR)
      error = errno;
  }
  if (::close(fd) != 0 && error == 0)
    error = errno;
  if (error != 0)
    fail(subject, error);
}

/// Opens `file` for writing with `flags` added; throws naming `subject` on failure.
int open_for_writing(const std::string &file, int flags, const std::string &subject) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC | flags, 0666);
  if (fd < 0)
    fail(subject, errno);
  return fd;
}

/// A new file beside `target`, holding `text`, with the permission bits of `previous` if given.
std::string write_temporary(const std::string &target, const std::string &text,
                            const struct stat *previous, const std::string &subject) {
  int fd = -1;
  const std::string temp = create_beside(target, "tmp", subject, [&fd](const std::string &name) {
    fd = ::open(name.c_str(), O_WRONLY | O_CLOEXEC | O_CREAT | O_EXCL, 0666);
    return fd < 0 ? errno : 0;
  });
  try {
    write_and_close(fd, text, subject);
    if (previous != nullptr && ::chmod(temp.c_str(), previous->st_mode & 07777) != 0)
      fail(subject, errno);
  } catch (const UserError &) {
    ::unlink(temp.c_str());
    throw;
  }
  return temp;
}

} // namespace

void write_stdout(const std::string &text) {
  errno = 0;
  std::cout << text;
  std::cout.flush();
  if (!std::cout)
    fail("standard output", errno);
}

void flush_stdout() {
  errno = 0;
  std::cout.flush();
  if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout))
    fail("standard output", errno);
}

OutputSet::~OutputSet() {
  for (const Entry &e : entries_) {
    if (!e.temp.empty())
      ::unlink(e.temp.c_str());
    if (!e.backup.empty())
      ::unlink(e.backup.c_str());
  }
}

void OutputSet::stage(const std::string &path, const std::string &text) {
  if (is_stdout(path)) {
    entries_.push_back({path, path, Kind::Stdout, text, "", ""});
    return;
  }
  const std::string subject = file_subject(path);
  const std::string target = resolve_links(path, subject);
  struct stat st {};
  const bool exists = look_up(target, st, subject);
  if (exists && S_ISDIR(st.st_mode))
    fail(subject, EISDIR);
  if (exists && !S_ISREG(st.st_mode)) {
    entries_.push_back({path, target, Kind::InPlace, text, "", ""});
    return;
  }
  entries_.push_back({path, target, Kind::Replace, "",
                      write_temporary(target, text, exists ? &st : nullptr, subject), ""});
}

void OutputSet::stage_removal(const std::string &path) {
  if (is_stdout(path))
    return;
  const std::string subject = file_subject(path);
  const std::string target = resolve_links(path, subject);
  struct stat st {};
  if (look_up(target, st, subject) && S_ISREG(st.st_mode))
    entries_.push_back({path, target, Kind::Remove, "", "", ""});
}

void OutputSet::commit() {
  // Writes in place cannot be taken back, so they go first: when one fails, nothing is replaced.
  for (const Entry &e : entries_) {
    if (e.kind == Kind::Stdout)
      write_stdout(e.text);
    if (e.kind == Kind::InPlace)
      write_and_close(open_for_writing(e.target, 0, file_subject(e.path)), e.text,
                      file_subject(e.path));
  }
  size_t replaced = 0;
  for (const Entry &e : entries_)
    replaced += e.kind == Kind::Replace || e.kind == Kind::Remove;
  if (replaced > 1)
    for (Entry &e : entries_)
      back_up(e);
  size_t done = 0;
  try {
    for (; done < entries_.size(); ++done)
      swap_in(entries_[done]);
  } catch (const UserError &) {
    for (size_t i = 0; i < done; ++i)
      put_back(entries_[i]);
    throw;
  }
  for (const Entry &e : entries_)
    if (!e.backup.empty())
      ::unlink(e.backup.c_str());
  entries_.clear();
}

/// Keeps the previous file under a second name until every file of the set is in place.
void OutputSet::back_up(Entry &e) {
  struct stat st {};
  if ((e.kind != Kind::Replace && e.kind != Kind::Remove) ||
      !look_up(e.target, st, file_subject(e.path)) || !S_ISREG(st.st_mode))
    return;
  e.backup = create_beside(e.target, "old", file_subject(e.path), [&e](const std::string &name) {
    return ::link(e.target.c_str(), name.c_str()) == 0 ? 0 : errno;
  });
}

void OutputSet::swap_in(Entry &e) {
  if (e.kind == Kind::Replace) {
    if (::rename(e.temp.c_str(), e.target.c_str()) != 0)
      fail(file_subject(e.path), errno);
    e.temp.clear();
  }
  if (e.kind == Kind::Remove && ::unlink(e.target.c_str()) != 0 && errno != ENOENT)
    fail(file_subject(e.path), errno);
}

/// Undoes swap_in (best effort: the set is failing already): the previous file, or none.
void OutputSet::put_back(Entry &e) {
  if (!e.backup.empty() && ::rename(e.backup.c_str(), e.target.c_str()) == 0)
    e.backup.clear();
  else if (e.backup.empty() && e.kind == Kind::Replace)
    ::unlink(e.target.c_str());
}

void write_output(const std::string &path, const std::string &text) {
  OutputSet output;
  output.stage(path, text);
  output.commit();
}

OutputDirectory::OutputDirectory(const std::string &path)
    : path_(path), target_(resolve_links(path, directory_subject(path))) {
  const std::string subject = directory_subject(path_);
  struct stat st {};
  const bool exists = look_up(target_, st, subject);
  if (exists && !S_ISDIR(st.st_mode))
    fail(subject, ENOTDIR);
  std::error_code ec;
  if (const std::filesystem::path parent = std::filesystem::path(target_).parent_path();
      !parent.empty() && !std::filesystem::create_directories(parent, ec) && ec)
    fail(subject, ec.value());
  holding_ = create_beside(target_, "tmp", subject, [](const std::string &name) {
    return ::mkdir(name.c_str(), 0700) == 0 ? 0 : errno;
  });
  const std::string fresh = holding_ + "/new";
  if (::mkdir(fresh.c_str(), 0777) != 0 ||
      (exists && ::chmod(fresh.c_str(), st.st_mode & 07777) != 0)) {
    const int error = errno;
    std::filesystem::remove_all(holding_, ec);
    fail(subject, error);
  }
}

OutputDirectory::~OutputDirectory() {
  std::error_code ignored;
  if (!holding_.empty())
    std::filesystem::remove_all(holding_, ignored);
}

void OutputDirectory::write(const std::string &name, const std::string &text) {
  const std::string subject = file_subject((std::filesystem::path(path_) / name).string());
  write_and_close(open_for_writing(holding_ + "/new/" + name, O_CREAT | O_EXCL, subject), text,
                  subject);
}

void OutputDirectory::commit() {
  const std::string subject = directory_subject(path_);
  const std::string fresh = holding_ + "/new", old = holding_ + "/old";
  struct stat st {};
  const bool exists = look_up(target_, st, subject);
  if (exists && ::rename(target_.c_str(), old.c_str()) != 0)
    fail(subject, errno);
  if (::rename(fresh.c_str(), target_.c_str()) != 0) {
    const int error = errno;
    if (exists)
      ::rename(old.c_str(), target_.c_str());
    fail(subject, error);
  }
  std::error_code ignored;
  std::filesystem::remove_all(holding_, ignored); // and the previous directory in it
  holding_.clear();
}

} // namespace dse
