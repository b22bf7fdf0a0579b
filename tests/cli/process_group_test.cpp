// The process group of `dse sweep`: a process that no MPI launcher started is a group of one and
// leaves MPI uninitialised (MPI_Init is not paid by a single process); a launcher's environment
// is recognised. Running under a launcher is covered by the two-rank sweep tests.
#include <cstdlib>
#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "dse/cli/process_group.hpp"

#ifdef DSE_WITH_MPI
#include <mpi.h>
#endif

namespace dse {
namespace {

const std::vector<std::string> kLauncherVariables = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE",
                                                     "PMIX_RANK"};

void clear_launcher_environment() {
  for (const std::string &name : kLauncherVariables)
    unsetenv(name.c_str());
}

TEST(ProcessGroup, WithoutALauncherIsOneProcessAndLeavesMpiUninitialised) {
  clear_launcher_environment();
  ASSERT_FALSE(started_by_mpi_launcher());
  const ProcessGroup group;
  EXPECT_EQ(group.rank(), 0);
  EXPECT_EQ(group.size(), 1);
  EXPECT_EQ(group.gather("rows"), std::vector<std::string>{"rows"});
#ifdef DSE_WITH_MPI
  int initialised = 1;
  MPI_Initialized(&initialised);
  EXPECT_EQ(initialised, 0);
#endif
}

TEST(ProcessGroup, EachLaunchersEnvironmentIsRecognised) {
  for (const std::string &name : kLauncherVariables) {
    clear_launcher_environment();
    setenv(name.c_str(), "2", 1);
    EXPECT_TRUE(started_by_mpi_launcher()) << name;
  }
  clear_launcher_environment();
}

} // namespace
} // namespace dse
