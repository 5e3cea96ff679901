#include "tests/sim/dumper_text.h"

#include <cinttypes>
#include <cstdio>

namespace vrecon::sim {
namespace {

// The header xperf prints for the event types this trace holds (CSwitch without the two BamQos
// columns of newer versions).
constexpr const char* kHeader =
    "BeginHeader\n"
    "FirstReliableEventTimeStamp, TimeStamp\n"
    "FirstReliableCSwitchEventTimeStamp, TimeStamp\n"
    "                P-Start,  TimeStamp,     Process Name ( PID),  ParentPID,  SessionID,  UniqueKey,  UserSid,  "
    "Command Line\n"
    "              P-DCStart,  TimeStamp,     Process Name ( PID),  ParentPID,  SessionID,  UniqueKey,  UserSid,  "
    "Command Line\n"
    "                  P-End,  TimeStamp,     Process Name ( PID),  ParentPID,  SessionID,  UniqueKey,  UserSid,  "
    "Command Line\n"
    "                  T-End,  TimeStamp,     Process Name ( PID),   ThreadID,          StackBase,         "
    "StackLimit,         UsrStkBase,          UsrStkLmt,            TebBase, SubProcessTag, BasePri, PagePri, IoPri, "
    "Flags,            Image!Function\n"
    "                CSwitch,  TimeStamp, New Process Name ( PID),    New TID, NPri, NQnt, TmSinceLast, WaitTime, Old "
    "Process Name ( PID),    Old TID, OPri, OQnt,        OldState,      Wait Reason, Swapable, InSwitchTime, CPU, "
    "IdealProc,  OldRemQnt, NewPriDecr, PrevCState\n"
    "EndHeader\n";

// FILETIME: 100 ns since 1601-01-01.
int64_t FileTime(TimeNs utc) { return utc / 100 + 116444736000000000; }

// "sqlservr.exe ( 1200)": the pid right-aligned in the parentheses, as xperf writes it.
std::string ProcessField(const std::string& image, uint32_t pid) {
  char b[96];
  std::snprintf(b, sizeof b, "%s (%5u)", image.c_str(), pid);
  return b;
}

}  // namespace

uint32_t DumperText::Pid(int process, int batch, int job) {
  if (process < 0) return 0;
  if (process == batch) return 10000 + 64 * static_cast<uint32_t>(job < 0 ? 0 : job);
  return 1200 + 400 * static_cast<uint32_t>(process);
}

DumperText::DumperText(const std::vector<std::string>& names, int batch, TimeNs start, const std::vector<int>& running,
                       int job)
    : names_(names), batch_(batch), start_(start), job_(job), on_cpu_(running.size()) {
  body_.reserve(1 << 20);
  for (int i = 0; i < static_cast<int>(names_.size()); ++i)
    if (i != batch_ || job_ >= 0) ProcessLine("P-DCStart", 0, i, job_);
  // Every vCPU's first line, at 0: from Idle to what it runs (Idle to Idle on an idle one), so
  // that each CPU is known from the trace's first event.
  for (size_t v = 0; v < running.size(); ++v)
    Switch(0, static_cast<int>(v), ThreadOf(running[v], job_, static_cast<int>(v)));
}

DumperText::Thread DumperText::ThreadOf(int process, int job, int vcpu) const {
  if (process < 0) return Thread{};
  const uint32_t pid = Pid(process, batch_, job);
  return Thread{process, pid, pid + 4 * static_cast<uint32_t>(vcpu + 1)};
}

std::string DumperText::Image(const Thread& t) const {
  return t.process < 0 ? std::string("Idle") : names_[t.process] + ".exe";
}

void DumperText::Slot(int64_t t_us, const std::vector<int>& running, int job) {
  // A job's process starts before its threads run and ends after they have left (a job that
  // ended or started while the VM waited is seen at the first slot it runs again).
  const int old_job = job_;
  if (job != job_ && job >= 0) ProcessLine("P-Start", t_us, batch_, job);
  job_ = job;
  for (size_t v = 0; v < running.size(); ++v) {
    const Thread next = ThreadOf(running[v], job, static_cast<int>(v));
    if (next.tid != on_cpu_[v].tid || next.pid != on_cpu_[v].pid) Switch(t_us, static_cast<int>(v), next);
  }
  if (job != old_job && old_job >= 0) {
    for (size_t v = 0; v < on_cpu_.size(); ++v) {
      const Thread t = ThreadOf(batch_, old_job, static_cast<int>(v));
      char b[320];
      std::snprintf(b, sizeof b,
                    "%23s, %10" PRId64
                    ", %24s, %10u, 0xffffd28f8a6d0000, 0xffffd28f8a6ca000, 0x000000c2d8d00000, 0x000000c2d8cfc000, "
                    "0x000000c2d8b30000,           0,       8,       5,     2,     0, ntdll.dll!RtlUserThreadStart\n",
                    "T-End", t_us, ProcessField(Image(t), t.pid).c_str(), t.tid);
      body_ += b;
      ++events_;
    }
    ProcessLine("P-End", t_us, batch_, old_job);
  }
}

void DumperText::Switch(int64_t t_us, int cpu, const Thread& to) {
  const Thread from = on_cpu_[cpu];
  // Idle is left Running; a process's thread leaves blocked (the simulated guest has no queue).
  const bool idle = from.process < 0;
  char b[400];
  std::snprintf(b, sizeof b,
                "%23s, %10" PRId64
                ", %24s, %10u, %4d, %4d, %11d, %8d, %24s, %10u, %4d, %4d, %15s, %16s, %8s, %12d, %3d, %9d, %10d, "
                "%10d, %10d\n",
                "CSwitch", t_us, ProcessField(Image(to), to.pid).c_str(), to.tid, to.process < 0 ? 0 : 9, -1, 0, 0,
                ProcessField(Image(from), from.pid).c_str(), from.tid, idle ? 0 : 8, -1, idle ? "Running" : "Waiting",
                idle ? "Executive" : "WrQueue", "NonSwap", 0, cpu, cpu, 0, 0, 0);
  body_ += b;
  ++events_;
  on_cpu_[cpu] = to;
}

void DumperText::ProcessLine(const char* event, int64_t t_us, int process, int job) {
  const Thread t = ThreadOf(process, job, 0);
  const std::string image = Image(t);
  char b[400];
  std::snprintf(b, sizeof b,
                "%23s, %10" PRId64 ", %24s, %10d, %10d, 0x0000938192a1%04x, S-1-5-18, \"C:\\Program Files\\%s\"\n",
                event, t_us, ProcessField(image, t.pid).c_str(), 4, 0, t.pid & 0xffffu, image.c_str());
  body_ += b;
  ++events_;
}

std::string DumperText::Finish(int64_t t_us) {
  for (size_t v = 0; v < on_cpu_.size(); ++v) Switch(t_us, static_cast<int>(v), Thread{});
  char info[320];
  // An ETL holds a CSwitch in about 80 bytes; the size is only shown, never read.
  std::snprintf(info, sizeof info,
                "OS Version: 10.0.20348, Trace Size: %" PRId64
                "KB, Events Lost: 0, Buffers lost: 0, Trace Start: %" PRId64 ", Trace Length: %" PRId64
                " sec, PointerSize: 8, Trace Name: GUEST01.etl\n"
                "FirstReliableEventTimeStamp,          0\n"
                "FirstReliableCSwitchEventTimeStamp,          0\n",
                events_ * 80 / 1024 + 1, FileTime(start_), (t_us + 999'999) / 1'000'000);
  std::string out = kHeader;
  out.reserve(out.size() + body_.size() + 400);
  out += info;
  out += body_;
  body_.clear();
  return out;
}

}  // namespace vrecon::sim
