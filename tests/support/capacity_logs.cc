#include "tests/support/capacity_logs.h"

#include <cstdio>

#include "src/core/time_util.h"

namespace vrecon::testing {
namespace {

// The quoted PDH time of the i-th 5-minute row (0-based) of a log starting at `start`: rows
// stand at the end of their interval.
std::string RowTime(TimeNs start, int i) {
  const CivilTime c = CivilFromNs(start + static_cast<TimeNs>(i + 1) * 300 * kNsPerSec);
  char b[40];
  std::snprintf(b, sizeof b, "\"%02d/%02d/%04d %02d:%02d:%02d.000\"", c.month, c.day, c.year, c.hour, c.minute,
                c.second);
  return b;
}

TimeNs DayStart(int year, int month, int day) { return DaysFromCivil(year, month, day) * 86400 * kNsPerSec; }

// WEB02's run on esx01 (% of one vCPU): 2 points a day of growth and a small swing within a day.
double Web02Run(int i) { return 60 + 2 * (i / 288.0) + (i % 288) % 7 * 0.5; }

}  // namespace

std::string EsxtopLog() {
  std::string s = "\"(PDH-CSV 4.0) (UTC)(0)\"";
  for (const char* vm : {"101:WEB02", "102:DB02"})
    for (const char* c : {"% Run", "% Ready"})
      s += std::string(",\"\\\\esx01.example.com\\Group Cpu(") + vm + ")\\" + c + "\"";
  for (const char* c : {"% Run", "% CoStop"})
    s += std::string(",\"\\\\esx01.example.com\\Group Cpu(103:APP03)\\") + c + "\"";
  for (const char* pcpu : {"_Total", "0", "1", "2", "3"})
    s += std::string(",\"\\\\esx01.example.com\\Physical Cpu(") + pcpu + ")\\% Util Time\"";
  s += "\n";
  const TimeNs start = DayStart(2026, 10, 1);
  char b[160];
  for (int i = 0; i < kCapacityLogDays * 288; ++i) {
    std::snprintf(b, sizeof b, ",\"%.3f\",\"5\",\"%.3f\",\"1\",\"250\",\"10\",\"40\",\"40\",\"40\",\"40\",\"40\"\n",
                  Web02Run(i), 50 + (i % 288) % 7 * 0.5);
    s += RowTime(start, i) + b;
  }
  return s;
}

std::string HyperVLog() {
  std::string s = "\"(PDH-CSV 4.0) (UTC)(0)\"";
  for (const char* vp : {"0", "1"})
    s += std::string(",\"\\\\HV02\\Hyper-V Hypervisor Virtual Processor(APP01:Hv VP ") + vp + ")\\% Total Run Time\"";
  s += "\n";
  const TimeNs start = DayStart(2026, 10, 14);
  for (int i = 0; i < 22 * 288; ++i) s += RowTime(start, i) + ",\"30\",\"50\"\n";
  return s;
}

std::string CapacityGuests() {
  std::string s = "\"(PDH-CSV 4.0) (UTC)(0)\"";
  for (const char* cpu : {"0", "1"}) s += std::string(",\"\\\\WEB02\\Processor(") + cpu + ")\\% Processor Time\"";
  for (const char* cpu : {"0", "1", "2", "3"})
    s += std::string(",\"\\\\DB02\\Processor(") + cpu + ")\\% Processor Time\"";
  for (const char* cpu : {"0", "1"}) s += std::string(",\"\\\\APP03\\Processor(") + cpu + ")\\% Processor Time\"";
  return s + "\n\"10/01/2026 01:00:00.000\",\"5\",\"5\",\"5\",\"5\",\"5\",\"5\",\"5\",\"5\"\n";
}

std::string Web02HostLog() {
  std::string s = "\"(PDH-CSV 4.0) (UTC)(0)\"";
  for (const char* c : {"% Run", "% Ready", "% Used"})
    s += std::string(",\"\\\\esx01.example.com\\Group Cpu(101:WEB02)\\") + c + "\"";
  s += "\n";
  const TimeNs start = DayStart(2026, 10, 1);
  char b[96];
  for (int i = 0; i < kCapacityLogDays * 288; ++i) {
    std::snprintf(b, sizeof b, ",\"%.3f\",\"5\",\"%.3f\"\n", Web02Run(i), Web02Run(i));
    s += RowTime(start, i) + b;
  }
  return s;
}

std::string GrowingGuestLog() {
  std::string s = "\"(PDH-CSV 4.0) (UTC)(0)\"";
  for (const char* c : {"Processor(_Total)", "Processor(0)", "Processor(1)", "Process(app)", "Process(svc)"})
    s += std::string(",\"\\\\WEB02\\") + c + "\\% Processor Time\"";
  s += "\n";
  const TimeNs start = DayStart(2026, 10, 1);
  char b[128];
  for (int i = 0; i < kCapacityLogDays * 288; ++i) {
    const double cpu = Web02Run(i) / 2;
    std::snprintf(b, sizeof b, ",\"%.4f\",\"%.4f\",\"%.4f\",\"%.4f\",\"10\"\n", cpu, cpu, cpu, 20 + i / 288.0);
    s += RowTime(start, i) + b;
  }
  return s;
}

}  // namespace vrecon::testing
