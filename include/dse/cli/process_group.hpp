// The processes a command runs on: the MPI world when dse is built with MPI and started by an MPI
// launcher (mpirun, mpiexec, srun), otherwise this process alone, without initialising MPI. Used
// by `dse sweep` to split cases across ranks.
#pragma once

#include <string>
#include <vector>

namespace dse {

class ProcessGroup {
public:
  ProcessGroup();
  ~ProcessGroup();
  ProcessGroup(const ProcessGroup &) = delete;
  ProcessGroup &operator=(const ProcessGroup &) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  /// On rank 0: every rank's `mine`, in rank order. On other ranks: empty.
  std::vector<std::string> gather(const std::string &mine) const;

private:
  int rank_ = 0;
  int size_ = 1;
  bool using_mpi_ = false;
  bool initialised_here_ = false;
};

/// Whether an MPI launcher started this process (its environment says so).
bool started_by_mpi_launcher();

} // namespace dse
