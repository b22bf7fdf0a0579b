// Input files are read only up to a size limit: larger regular files are refused before they
// are read, endless devices once the limit is passed.
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

#include "config/expect_error.hpp"
#include "dse/config/graph_loader.hpp"
#include "dse/config/hardware_loader.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/support/error.hpp"

namespace dse {
namespace {

class InputSize : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("dse-input-size-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(InputSize, EndlessDeviceStopsAtTheLimit) {
  EXPECT_EQ(testing::error_what([] { load_hardware("/dev/zero"); }),
            "error: cannot read file '/dev/zero': it holds more than 16 MiB, the input size limit "
            "(raise it with --max-input-mib)");
  EXPECT_EQ(testing::error_what([] { load_workload("/dev/zero", 1); }),
            "error: cannot read file '/dev/zero': it holds more than 1 MiB, the input size limit "
            "(raise it with --max-input-mib)");
}

TEST_F(InputSize, RegularFileAboveTheLimitIsRefusedUnread) {
  const std::string path = (dir_ / "big.yaml").string();
  {
    std::ofstream out(path);
    out << "# " << std::string((1 << 20) + 16, 'x') << "\n";
  }
  EXPECT_EQ(testing::error_what([&] { load_hardware(path, 1); }),
            "error: cannot read file '" + path +
                "': it holds more than 1 MiB, the input size limit (raise it with "
                "--max-input-mib)");
  // Within a raised limit the file is read and parsed (and is then an empty document).
  EXPECT_EQ(testing::error_what([&] { load_hardware(path, 2); }).find("input size limit"),
            std::string::npos);
}

TEST_F(InputSize, OnnxFilesStopAtProtobufsLimit) {
  const std::filesystem::path path = dir_ / "huge.onnx";
  std::ofstream(path).put('\0');
  std::filesystem::resize_file(path, (std::uintmax_t{2} << 30) + 1); // sparse: nothing written
  EXPECT_EQ(testing::error_what([&] { load_network(path.string()); }),
            "error: cannot read file '" + path.string() +
                "': it holds more than 2048 MiB, the input size limit of protobuf");
}

} // namespace
} // namespace dse
