// MPI-backed process group (DSE_WITH_MPI, under an MPI launcher) or the single-process
// fallback.
#include "dse/cli/process_group.hpp"

#include <cstdlib>

#ifdef DSE_WITH_MPI
#include <mpi.h>
#endif

namespace dse {

bool started_by_mpi_launcher() {
  // What Open MPI's, MPICH's (Hydra, PMI) and PMIx launchers set in every process they start.
  for (const char *name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (std::getenv(name) != nullptr)
      return true;
  return false;
}

#ifdef DSE_WITH_MPI

ProcessGroup::ProcessGroup() {
  // MPI_Init costs about a third of a second even for one process: a process no launcher
  // started is a group of one and never pays it.
  if (!started_by_mpi_launcher())
    return;
  using_mpi_ = true;
  int ready = 0;
  MPI_Initialized(&ready);
  if (!ready) {
    MPI_Init(nullptr, nullptr);
    initialised_here_ = true;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

ProcessGroup::~ProcessGroup() {
  if (initialised_here_)
    MPI_Finalize();
}

std::vector<std::string> ProcessGroup::gather(const std::string &mine) const {
  if (!using_mpi_)
    return {mine};
  int length = static_cast<int>(mine.size());
  std::vector<int> lengths(static_cast<size_t>(size_));
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> offsets(static_cast<size_t>(size_), 0);
  for (size_t r = 1; r < offsets.size(); ++r)
    offsets[r] = offsets[r - 1] + lengths[r - 1];
  std::string all(rank_ == 0 ? static_cast<size_t>(offsets.back() + lengths.back()) : 0, '\0');
  MPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR,
              0, MPI_COMM_WORLD);
  if (rank_ != 0)
    return {};
  std::vector<std::string> out;
  for (size_t r = 0; r < lengths.size(); ++r)
    out.push_back(all.substr(static_cast<size_t>(offsets[r]), static_cast<size_t>(lengths[r])));
  return out;
}

#else

ProcessGroup::ProcessGroup() = default;
ProcessGroup::~ProcessGroup() = default;

std::vector<std::string> ProcessGroup::gather(const std::string &mine) const { return {mine}; }

#endif

} // namespace dse
