// /proc/stat text (adapters/linux_proc/proc_stat_parser): the "cpu" and "cpuN" lines with 4 to
// 10 jiffy fields (old kernels print fewer) and btime.
// Property: what was read, printed back in /proc/stat's own form, reads back the same.
#include <cstddef>
#include <cstdint>
#include <string>

#include "adapters/linux_proc/proc_stat_parser.h"
#include "fuzz/fuzz_check.h"

using namespace vrecon::linux_proc;

namespace {

void Print(const CpuTimes& c, std::string* out) {
  *out += c.cpu < 0 ? "cpu " : "cpu" + std::to_string(c.cpu) + " ";
  const uint64_t v[] = {c.user, c.nice, c.system, c.idle, c.iowait, c.irq, c.softirq, c.steal, c.guest, c.guest_nice};
  for (int i = 0; i < c.fields; ++i) *out += " " + std::to_string(v[i]);
  *out += "\n";
}

bool Same(const CpuTimes& a, const CpuTimes& b) {
  return a.cpu == b.cpu && a.fields == b.fields && a.user == b.user && a.nice == b.nice && a.system == b.system &&
         a.idle == b.idle && a.iowait == b.iowait && a.irq == b.irq && a.softirq == b.softirq && a.steal == b.steal &&
         a.guest == b.guest && a.guest_nice == b.guest_nice;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto st = ParseProcStat(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!st) return 0;
  std::string text;
  if (st->total) Print(*st->total, &text);
  for (const CpuTimes& c : st->cpus) Print(c, &text);
  if (st->btime) text += "btime " + std::to_string(*st->btime) + "\n";
  const auto again = ParseProcStat(text);
  FUZZ_CHECK(again.has_value(), "printed /proc/stat reads back");
  FUZZ_CHECK(again->total.has_value() == st->total.has_value() && (!st->total || Same(*again->total, *st->total)),
             "the aggregate cpu line reads back the same");
  FUZZ_CHECK(again->cpus.size() == st->cpus.size(), "every cpuN line reads back");
  for (size_t i = 0; i < st->cpus.size(); ++i)
    FUZZ_CHECK(Same(again->cpus[i], st->cpus[i]), "a cpuN line reads back the same");
  FUZZ_CHECK(again->btime == st->btime, "btime reads back the same");
  for (const CpuTimes& c : st->cpus)
    FUZZ_CHECK(c.fields >= 4 && c.fields <= 10 && c.cpu >= 0, "a cpuN line has 4..10 fields");
  return 0;
}
