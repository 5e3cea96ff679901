#include <gtest/gtest.h>

#include "adapters/linux_proc/proc_pid_stat_parser.h"
#include "adapters/linux_proc/proc_stat_parser.h"
#include "tests/support/cli_runner.h"

namespace vrecon::linux_proc {
namespace {

using vrecon::testing::Fixture;
using vrecon::testing::ReadText;

TEST(ProcStatParserTest, ReadsSnapshotWithSteal) {
  auto st = ParseProcStat(ReadText(Fixture("linux_proc/proc_stat_1vcpu_steal")));
  ASSERT_TRUE(st);
  ASSERT_TRUE(st->total);
  ASSERT_EQ(st->cpus.size(), 1u);
  const CpuTimes& c = st->cpus[0];
  EXPECT_EQ(c.cpu, 0);
  EXPECT_EQ(c.fields, 10);
  EXPECT_EQ(c.user, 5120u);
  EXPECT_EQ(c.nice, 1310u);
  EXPECT_EQ(c.system, 2688u);
  EXPECT_EQ(c.idle, 12040u);
  EXPECT_EQ(c.iowait, 201u);
  EXPECT_EQ(c.irq, 160u);
  EXPECT_EQ(c.softirq, 41u);
  EXPECT_EQ(c.steal, 7u);
  EXPECT_EQ(c.Total(), 5120u + 1310 + 2688 + 12040 + 201 + 160 + 41 + 7);
  EXPECT_EQ(c.Busy(), 5120u + 1310 + 2688 + 160 + 41);
  EXPECT_EQ(st->total->cpu, -1);
  EXPECT_EQ(st->btime, 1709837786);
}

TEST(ProcStatParserTest, OldKernelMissingTrailingFields) {
  auto st = ParseProcStat(ReadText(Fixture("linux_proc/proc_stat_old_kernel_2cpu")));
  ASSERT_TRUE(st);
  ASSERT_EQ(st->cpus.size(), 2u);
  EXPECT_EQ(st->cpus[1].cpu, 1);
  EXPECT_EQ(st->cpus[1].fields, 7);
  EXPECT_EQ(st->cpus[1].steal, 0u);
  EXPECT_EQ(st->cpus[1].user, 40u);
  EXPECT_EQ(st->total->idle, 1000u);
  // Only four fields (2.4 kernels): still read.
  auto old = ParseProcStat("cpu  1 2 3 4\ncpu0 1 2 3 4\n");
  ASSERT_TRUE(old);
  EXPECT_EQ(old->cpus[0].fields, 4);
  EXPECT_EQ(old->cpus[0].Total(), 10u);
}

TEST(ProcStatParserTest, RejectsTextWithoutCpuLines) {
  EXPECT_FALSE(ParseProcStat(""));
  EXPECT_FALSE(ParseProcStat("intr 1 2 3\nbtime 5\n"));
  // A garbled cpu line is skipped, the others read.
  auto st = ParseProcStat("cpu0 a b c d\ncpu1 1 2 3 4 5 6 7 8\n");
  ASSERT_TRUE(st);
  ASSERT_EQ(st->cpus.size(), 1u);
  EXPECT_EQ(st->cpus[0].cpu, 1);
  EXPECT_EQ(st->cpus[0].steal, 8u);
}

// A real /proc/[pid]/stat line layout (fields 1..52).
std::string PidLine(const std::string& pid, const std::string& comm, uint64_t ut, uint64_t st, uint64_t start) {
  return pid + " (" + comm + ") S 1 1234 1234 0 -1 4194560 1077 0 0 0 " + std::to_string(ut) + " " +
         std::to_string(st) + " 0 0 20 0 1 0 " + std::to_string(start) +
         " 23257088 1386 18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n";
}

TEST(PidStatParserTest, ReadsFields) {
  auto p = ParsePidStat(PidLine("4242", "nginx", 1500, 300, 987654));
  ASSERT_TRUE(p);
  EXPECT_EQ(p->pid, 4242);
  EXPECT_EQ(p->comm, "nginx");
  EXPECT_EQ(p->state, 'S');
  EXPECT_EQ(p->utime, 1500u);
  EXPECT_EQ(p->stime, 300u);
  EXPECT_EQ(p->starttime, 987654u);
}

TEST(PidStatParserTest, CommWithSpacesAndParentheses) {
  auto p = ParsePidStat(PidLine("7", "my (weird) name) x", 11, 22, 33));
  ASSERT_TRUE(p);
  EXPECT_EQ(p->comm, "my (weird) name) x");
  EXPECT_EQ(p->utime, 11u);
  EXPECT_EQ(p->stime, 22u);
  EXPECT_EQ(p->starttime, 33u);
  auto q = ParsePidStat(PidLine("900", "(sd-pam)", 1, 2, 3));
  ASSERT_TRUE(q);
  EXPECT_EQ(q->comm, "(sd-pam)");
}

TEST(PidStatParserTest, RejectsBrokenLines) {
  EXPECT_FALSE(ParsePidStat(""));
  EXPECT_FALSE(ParsePidStat("12 nginx S 1 2 3"));
  EXPECT_FALSE(ParsePidStat("12 (nginx) S 1 2 3"));  // too few fields
  EXPECT_FALSE(ParsePidStat("x (nginx) S 1 1234 1234 0 -1 4194560 1077 0 0 0 1 2 0 0 20 0 1 0 5 0 0"));
}

}  // namespace
}  // namespace vrecon::linux_proc
