// `vrecon report` through the real binary: golden CSV / JSON / PDH-CSV for the seed example and
// the multi-VM fixture (fixtures/report), the PDH-CSV read back through `vrecon ingest`, and the
// stores a report must survive: empty, one side only, flags everywhere.
#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "src/store/store.h"
#include "tests/support/background.h"
#include "tests/support/cli_runner.h"
#include "tests/support/golden.h"
#include "tests/support/test_store.h"

namespace vrecon {
namespace {

using testing::Background;
using testing::CliResult;
using testing::Exists;
using testing::FilesStartingWith;
using testing::Fixture;
using testing::Ingest;
using testing::LineDiff;
using testing::NewStore;
using testing::ReadText;
using testing::RunVrecon;
using testing::TempDir;
using testing::TestBackend;
using testing::WriteText;

// Compares with fixtures/report/<name>; VRECON_UPDATE_GOLDEN=1 rewrites the file first (then
// review the diff before committing).
void ExpectGolden(const std::string& name, const std::string& actual) {
  const std::string path = Fixture("report/" + name);
  if (const char* u = std::getenv("VRECON_UPDATE_GOLDEN"); u && std::string(u) == "1") WriteText(path, actual);
  ASSERT_TRUE(Exists(path)) << path << " missing (VRECON_UPDATE_GOLDEN=1 writes it)";
  const std::string expected = ReadText(path);
  EXPECT_EQ(expected, actual) << name << ":\n" << LineDiff(expected, actual);
}

std::string IngestInto(const std::string& db, const std::vector<std::string>& files) {
  for (const std::string& f : files) {
    CliResult r = Ingest(db, f);
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
  return db;
}

std::string Report(const std::string& db, const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"report", "--db", db, "--out", "-"};
  args.insert(args.end(), extra.begin(), extra.end());
  CliResult r = RunVrecon(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

const std::vector<std::string> kSeed = {"seed003/guest-web01.csv", "seed003/hyperv-hv01.csv"};
const std::vector<std::string> kFleet = {"report/fleet-guests.csv", "report/fleet-esxtop.csv"};

// The golden and edge cases run on both backends: the same report, byte for byte, from SQLite and
// from PostgreSQL (each store is labelled store.db, as reports print it).
class ReportBackendTest : public ::testing::TestWithParam<TestBackend> {
 protected:
  void SetUp() override { VRECON_NEED_BACKEND(GetParam()); }
  std::string IngestAll(const TempDir& dir, const std::vector<std::string>& files) {
    return IngestInto(NewStore(GetParam(), dir.path()), files);
  }
};
class ReportGoldenTest : public ReportBackendTest {};
class ReportPdhCsvTest : public ReportBackendTest {};
class ReportBackendEdgeTest : public ReportBackendTest {};
INSTANTIATE_TEST_SUITE_P(Backends, ReportGoldenTest, ::testing::Values(TestBackend::kSqlite, TestBackend::kPostgres),
                         testing::BackendParamName);
INSTANTIATE_TEST_SUITE_P(Backends, ReportPdhCsvTest, ::testing::Values(TestBackend::kSqlite, TestBackend::kPostgres),
                         testing::BackendParamName);
INSTANTIATE_TEST_SUITE_P(Backends, ReportBackendEdgeTest,
                         ::testing::Values(TestBackend::kSqlite, TestBackend::kPostgres), testing::BackendParamName);

std::string IngestAll(const TempDir& dir, const std::vector<std::string>& files) {
  return IngestInto(dir.File("store.db"), files);
}

std::vector<std::string> Paths(const std::vector<std::string>& rel) {
  std::vector<std::string> out;
  for (const auto& r : rel) out.push_back(Fixture(r));
  return out;
}

TEST_P(ReportGoldenTest, SeedExampleCsvJsonPdhCsv) {
  TempDir dir;
  const std::string db = IngestAll(dir, Paths(kSeed));
  const std::string csv = Report(db, {"--format", "csv"});
  // The worked example: w = 88 / 73, A = 40 x w, B = 20 x w.
  EXPECT_NE(csv.find("vm,WEB01,WEB01,hyperv,,2026-11-02T15:00:00Z,2026-11-02T15:10:00Z,2,1,73,88,1.2055"),
            std::string::npos);
  EXPECT_NE(csv.find("process,WEB01,A,,,,,2,,,,,,,,,,,40,48.2192,"), std::string::npos);
  ExpectGolden("seed003.expected.csv", csv);
  ExpectGolden("seed003.expected.json", Report(db, {"--format", "json"}));
  ExpectGolden("seed003.expected.pdh.csv", Report(db, {"--format", "pdh-csv"}));
}

TEST_P(ReportGoldenTest, MultiVmFleetCsvJsonPdhCsv) {
  TempDir dir;
  const std::string db = IngestAll(dir, Paths(kFleet));
  const std::string csv = Report(db, {"--format", "csv"});
  // WEB02: esxtop % Used 96 over 2 vCPUs against a guest at 40%: w = 1.2; iis 50 -> 60.
  EXPECT_NE(csv.find("vm,WEB02,WEB02,esxtop,,2026-11-02T10:00:00Z,2026-11-02T10:30:00Z,6,2,40,48,1.2,,7,2.25"),
            std::string::npos);
  EXPECT_NE(csv.find("process,WEB02,iis,,,,,6,,,,,,,,,,,50,60,"), std::string::npos);
  ExpectGolden("fleet.expected.csv", csv);
  ExpectGolden("fleet.expected.json", Report(db, {"--format", "json"}));
  ExpectGolden("fleet.expected.pdh.csv", Report(db, {"--format", "pdh-csv"}));
  // --vm and --from/--to narrow every format.
  const std::string one =
      Report(db, {"--format", "csv", "--vm", "db0*", "--from", "2026-11-02T10:10:00Z", "--to", "2026-11-02T10:20:00Z"});
  EXPECT_EQ(one.find("WEB02"), std::string::npos);
  EXPECT_NE(one.find("window,DB02,,,,2026-11-02T10:10:00Z,2026-11-02T10:15:00Z"), std::string::npos);
  EXPECT_EQ(one.find("window,DB02,,,,2026-11-02T10:05:00Z"), std::string::npos);
  EXPECT_EQ(one.find("window,DB02,,,,2026-11-02T10:20:00Z"), std::string::npos);
}

// A log ingested after a report stored its corrections is in the next report: the ingest
// updates the stored corrections over the new rows' span, giving what a fresh store gives.
TEST_P(ReportGoldenTest, IngestAfterAReportUpdatesTheStoredCorrections) {
  TempDir dir;
  const std::string db = IngestAll(dir, {Fixture("seed003/hyperv-hv01.csv")});
  const std::string host_only = Report(db, {"--format", "csv"});
  EXPECT_NE(host_only.find("no guest data"), std::string::npos) << host_only;
  CliResult r = Ingest(db, Fixture("seed003/guest-web01.csv"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("updated the stored corrections from 2026-11-02T14:"), std::string::npos) << r.err;
  ExpectGolden("seed003.expected.csv", Report(db, {"--format", "csv"}));
  // Ingesting the same file again adds no rows and recomputes nothing.
  r = Ingest(db, Fixture("seed003/guest-web01.csv"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("updated the stored corrections"), std::string::npos) << r.err;
}

TEST_P(ReportPdhCsvTest, ReadsBackThroughIngestUnchanged) {
  TempDir dir;
  const std::string db = IngestAll(dir, Paths(kFleet));
  const std::string out = dir.File("corrected.csv");
  CliResult r = RunVrecon({"report", "--db", db, "--format", "pdh-csv", "--vm", "WEB02", "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string back_db = NewStore(GetParam(), dir.path(), "back.db");
  CliResult in = Ingest(back_db, out);
  ASSERT_EQ(in.exit_code, 0) << in.err;
  EXPECT_EQ(testing::IssuesFromJson(in.out).size(), 0u) << in.out;
  const std::string samples = testing::SamplesCsv(back_db);
  // Every counter comes back with its name and values as written.
  EXPECT_NE(samples.find("guest,WEB02,Process,iis,% Processor Time (corrected),2026-11-02T10:00:00.000Z,"
                         "2026-11-02T10:05:00.000Z,60,percent,\\\\WEB02\\Process(iis)\\% Processor Time (corrected)"),
            std::string::npos)
      << samples;
  EXPECT_NE(samples.find("guest,WEB02,Processor,_Total,% Processor Time (corrected),2026-11-02T10:25:00.000Z,"
                         "2026-11-02T10:30:00.000Z,48,percent"),
            std::string::npos)
      << samples;
  // Read back into the original store, the corrected counters do not disturb the correction.
  ASSERT_EQ(Ingest(db, out).exit_code, 0);
  EXPECT_EQ(Report(db, {"--format", "pdh-csv", "--vm", "WEB02"}), ReadText(out));
}

// Each run writes its own stand-in (PATH.partial-<pid>): two reports to one --out at once both
// succeed and leave the complete report, never one's half renamed by the other.
TEST(ReportEdgeTest, TwoReportsToOneFileAtOnceBothWriteItWhole) {
  TempDir dir;
  const std::string db = IngestAll(dir, Paths(kSeed));
  const std::string out = dir.File("r.csv"), ref = dir.File("ref.csv");
  ASSERT_EQ(RunVrecon({"report", "--db", db, "--format", "csv", "--out", ref}).exit_code, 0);
  for (int i = 0; i < 20; ++i) {
    Background a({"report", "--db", db, "--format", "csv", "--out", out});
    Background b({"report", "--db", db, "--format", "csv", "--out", out});
    const CliResult ra = a.Wait(60), rb = b.Wait(60);
    ASSERT_EQ(ra.exit_code, 0) << "trial " << i << ": " << ra.err;
    ASSERT_EQ(rb.exit_code, 0) << "trial " << i << ": " << rb.err;
    ASSERT_EQ(ReadText(out), ReadText(ref)) << "trial " << i;
    ASSERT_EQ(FilesStartingWith(out + ".partial"), std::vector<std::string>{}) << "trial " << i;
  }
}

// A stand-in whose process is gone (a killed run's) is removed by the next report; one of a
// process that runs is not.
TEST(ReportEdgeTest, AKilledRunsStandInIsRemovedByTheNextReport) {
  TempDir dir;
  const std::string db = IngestAll(dir, Paths(kSeed));
  const std::string out = dir.File("r.csv");
  const pid_t gone = fork();
  if (gone == 0) _exit(0);
  ASSERT_GT(gone, 0);
  waitpid(gone, nullptr, 0);
  const std::string stale = out + ".partial-" + std::to_string(gone);
  const std::string live = out + ".partial-" + std::to_string(getpid());
  WriteText(stale, "half a report");
  WriteText(live, "another run's report in progress");
  ASSERT_EQ(RunVrecon({"report", "--db", db, "--format", "csv", "--out", out}).exit_code, 0);
  EXPECT_FALSE(Exists(stale));
  EXPECT_TRUE(Exists(live));
}

TEST(ReportEdgeTest, EmptyStoreIsAClearError) {
  TempDir dir;
  CliResult missing = RunVrecon({"report", "--db", dir.File("nope.db"), "--out", dir.File("r.html")});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("nope.db does not exist"), std::string::npos) << missing.err;
  // A store file that exists, migrated, but holds nothing.
  const std::string db = dir.File("empty.db");
  ASSERT_TRUE(Store::Open(db).ok());
  CliResult r = RunVrecon({"report", "--db", db, "--out", dir.File("r.html")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("empty.db holds no samples and no stored corrections"), std::string::npos) << r.err;
  EXPECT_FALSE(Exists(dir.File("r.html")));
  EXPECT_EQ(FilesStartingWith(dir.File("r.html.partial")), std::vector<std::string>{});
}

// `--out /dev/null` or a FIFO is written in place; renaming a finished report over it would have
// replaced the device by a regular file (as root, /dev/null itself).
TEST(ReportEdgeTest, ADeviceOrPipeIsWrittenNotReplaced) {
  TempDir dir;
  const std::string db = IngestAll(dir, Paths(kSeed));
  const std::string fifo = dir.File("report.pipe");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] { got = ReadText(fifo); });
  CliResult r = RunVrecon({"report", "--db", db, "--format", "csv", "--out", fifo});
  // Had vrecon not opened the pipe, the reader would wait for a writer forever: be one.
  if (const int fd = open(fifo.c_str(), O_WRONLY | O_NONBLOCK); fd >= 0) close(fd);
  reader.join();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(got.find("record,"), std::string::npos);
  struct stat st {};
  ASSERT_EQ(stat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_EQ(FilesStartingWith(fifo + ".partial"), std::vector<std::string>{});
}

TEST(ReportEdgeTest, UsageErrorsExitTwo) {
  TempDir dir;
  const std::string db = IngestAll(dir, Paths(kSeed));
  EXPECT_EQ(RunVrecon({"report", "--db", db, "--format", "pdf", "--out", "-"}).exit_code, 2);
  EXPECT_EQ(RunVrecon({"report", "--db", db}).exit_code, 2);  // --out is required
  CliResult bad = RunVrecon({"report", "--db", db, "--from", "yesterday", "--out", "-"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--from \"yesterday\""), std::string::npos) << bad.err;
  CliResult help = RunVrecon({"report", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("--format"), std::string::npos);
  CliResult vm = RunVrecon({"report", "--db", db, "--vm", "NOPE", "--out", "-"});
  EXPECT_EQ(vm.exit_code, 1);
  EXPECT_NE(vm.err.find("no VM or guest named \"NOPE\""), std::string::npos) << vm.err;
}

TEST_P(ReportBackendEdgeTest, OneSideOnlySaysWhatIsMissing) {
  TempDir dir;
  const std::string guest_db = IngestAll(dir, {Fixture("seed003/guest-web01.csv")});
  CliResult r = RunVrecon({"report", "--db", guest_db, "--out", dir.File("g.html")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("computing them from its samples"), std::string::npos) << r.err;
  const std::string html = ReadText(dir.File("g.html"));
  EXPECT_NE(html.find("Missing: no host-side data"), std::string::npos);
  EXPECT_NE(html.find("no data for this chart"), std::string::npos);  // a labelled empty chart, not a blank one
  EXPECT_NE(html.find("href=\"#flag-missing-host\""), std::string::npos);
  EXPECT_NE(html.find("id=\"flag-missing-host\""), std::string::npos);
  // The log's own time zone, with the guest that wrote in it, beside "All times are UTC".
  EXPECT_NE(html.find("written in local time Eastern Standard Time (UTC-05:00) (WEB01)"), std::string::npos);
  const std::string csv = Report(guest_db, {"--format", "csv"});
  EXPECT_NE(csv.find("no host-side data"), std::string::npos);

  TempDir dir2;
  const std::string host_db = IngestAll(dir2, {Fixture("seed003/hyperv-hv01.csv")});
  const std::string json = Report(host_db, {"--format", "json"});
  EXPECT_NE(json.find("\"missing\": \"no guest data"), std::string::npos) << json;
}

TEST_P(ReportBackendEdgeTest, FlagsEverywhereStillRenders) {
  TempDir dir;
  // A guest that is idle (1%) with a process above 100% of its single CPU in every row, and no
  // host side: every window carries several flags.
  std::string csv =
      "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\IDLE9\\Processor(0)\\% Processor Time\",\"\\\\IDLE9\\Processor(_Total)\\% "
      "Processor Time\",\"\\\\IDLE9\\Process(x)\\% Processor Time\"\r\n\"11/02/2026 10:00:00.000\",\" \",\" \",\" "
      "\"\r\n";
  for (int s = 15; s <= 3600; s += 15) {
    char ts[40];
    std::snprintf(ts, sizeof ts, "11/02/2026 %02d:%02d:%02d.000", 10 + s / 3600, (s / 60) % 60, s % 60);
    csv += std::string("\"") + ts + "\",\"1\",\"1\",\"150\"\r\n";
  }
  WriteText(dir.File("idle.csv"), csv);
  const std::string db = IngestAll(dir, {dir.File("idle.csv")});
  CliResult r = RunVrecon({"report", "--db", db, "--out", dir.File("r.html")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string html = ReadText(dir.File("r.html"));
  EXPECT_NE(html.find("<svg class=\"chart strip\""), std::string::npos);
  EXPECT_EQ(html.find("no flags in this period"), std::string::npos);  // the strip has marks
  EXPECT_NE(html.find("<title>"), std::string::npos);
  const std::string md = Report(db, {"--format", "markdown"});
  EXPECT_NE(md.find("`missing-host` 12"), std::string::npos) << md;
}

}  // namespace
}  // namespace vrecon
