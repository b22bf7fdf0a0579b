// Names with control bytes, quotes and commas, end to end: the front CSV stays one record per
// line, the emitted mapping reads back into `dse eval`, and nothing raw reaches the terminal.
#include "cli/cli_fixture.hpp"

namespace dse::testing {
namespace {

// A workload and an operator whose names hold a line feed, a tab, an ANSI colour sequence, a
// comma and quotes (YAML double-quoted escapes in the file).
const std::string kHostileWorkload = R"(name: "net\e[31mwork"
dims: {m: 16, n: 16, k: 16}
ops:
  - {name: "mm\nline\tx,\"q\"", einsum: "C[m,n] += A[m,k] * B[k,n]"}
)";

bool has_raw_control_byte(const std::string &text) {
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\n') || u == 0x7f)
      return true;
  }
  return false;
}

class NameEscaping : public CliTest {
protected:
  void SetUp() override {
    CliTest::SetUp();
    write("hw.yaml", kTinyHardware);
    write("w.yaml", kHostileWorkload);
  }
};

TEST_F(NameEscaping, FrontCsvHoldsOneRecordPerLine) {
  const RunResult r =
      run({"explore", "--hw", "hw.yaml", "--workload", "w.yaml", "-v", "-o", "front.csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string csv = read("front.csv");
  EXPECT_FALSE(has_raw_control_byte(csv)) << csv;
  const Csv front = parse_csv(csv);
  ASSERT_FALSE(front.rows.empty());
  EXPECT_EQ(front.header.size(), front.rows[0].size());
  EXPECT_NE(front.text(0, "dataflow").find("mm\\nline\\tx,\"q\""), std::string::npos);
  EXPECT_FALSE(has_raw_control_byte(r.err)) << r.err;
}

TEST_F(NameEscaping, EmittedMappingReadsBackIntoEval) {
  const RunResult emitted =
      run_ok({"explore", "--hw", "hw.yaml", "--workload", "w.yaml", "--emit-mapping", "0"});
  EXPECT_FALSE(has_raw_control_byte(emitted.out)) << emitted.out;
  write("m.yaml", emitted.out);
  const RunResult text =
      run_ok({"eval", "--hw", "hw.yaml", "--workload", "w.yaml", "--mapping", "m.yaml"});
  EXPECT_FALSE(has_raw_control_byte(text.out)) << text.out;
  EXPECT_NE(text.out.find("segment: single | mm\\nline\\tx,\"q\": "), std::string::npos)
      << text.out;
  const RunResult json =
      run_ok({"eval", "--hw", "hw.yaml", "--workload", "w.yaml", "--mapping", "m.yaml", "--json"});
  EXPECT_NE(json.out.find(R"("name": "mm\nline\tx,\"q\"")"), std::string::npos) << json.out;
}

TEST_F(NameEscaping, ErrorMessagesEscapeControlBytesButLineFeeds) {
  // Messages keep their line feeds (a name's too); every other control byte is escaped.
  write("dup.yaml", R"(name: dup
dims: {m: 16, n: 16, k: 16}
ops:
  - {name: "clear\e[2J\tme", einsum: "C[m,n] += A[m,k] * B[k,n]"}
  - {name: "clear\e[2J\tme", einsum: "D[m,n] += C[m,k] * B[k,n]"}
)");
  const RunResult dup = run({"explore", "--hw", "hw.yaml", "--workload", "dup.yaml"});
  EXPECT_EQ(dup.exit_code, 1);
  EXPECT_EQ(dup.err, "dup.yaml:5:12: error: ops[1]: duplicate op name 'clear\\x1b[2J\\tme'\n");
}

} // namespace
} // namespace dse::testing
