#include "adapters/etw/profile_buckets.h"

#include <algorithm>

#include "adapters/etw/cpu_accounting.h"

namespace vrecon::etw {
namespace {

TimeNs FloorSecond(TimeNs t) { return t - (((t % kNsPerSec) + kNsPerSec) % kNsPerSec); }

}  // namespace

ProfileBuckets::ProfileBuckets(TimeNs trace_start)
    : trace_start_(trace_start), second_zero_(FloorSecond(trace_start)) {}

uint32_t ProfileBuckets::Process(std::string_view image, uint32_t pid) {
  if (pid == 0) return kIdle;
  std::string name = ProcessBaseName(image);
  auto [it, added] = proc_index_.try_emplace({name, pid}, static_cast<uint32_t>(procs_.size()));
  if (added) procs_.push_back(Proc{std::move(name), pid, std::numeric_limits<int64_t>::max()});
  return it->second;
}

void ProfileBuckets::Add(int64_t t_us, double weight_us, int cpu, uint32_t process) {
  // A sample stands for the profile interval before it: one on a whole second closes that second.
  const int64_t second = std::max<int64_t>(0, trace_start_ - second_zero_ + t_us * 1000 - 1) / kNsPerSec;
  Second& s = seconds_[second];
  double& busy = s.cpu_busy_us[cpu];
  if (process != kIdle) {
    busy += weight_us;
    if (process != kUnknown) {
      s.process_us[process] += weight_us;
      procs_[process].first = std::min(procs_[process].first, second);
    }
  }
  auto [c, added] = cpu_first_.try_emplace(cpu, second);
  if (!added) c->second = std::min(c->second, second);
  reach_from_us_ = std::min(reach_from_us_, std::max<int64_t>(0, t_us - static_cast<int64_t>(weight_us)));
  reach_to_us_ = std::max(reach_to_us_, t_us);
}

std::pair<TimeNs, TimeNs> ProfileBuckets::Span(int64_t second) const {
  const TimeNs whole = second_zero_ + second * kNsPerSec;
  const TimeNs start = std::max(whole, trace_start_ + reach_from_us_ * 1000);
  TimeNs end = std::min(whole + kNsPerSec, trace_start_ + reach_to_us_ * 1000);
  // Samples of no length at one instant (weights of 0): a millisecond, one profile interval.
  if (end <= start) end = start + 1'000'000;
  return {start, end};
}

std::vector<SeriesKey> ProfileBuckets::Columns(const std::string& machine) const {
  auto key = [&machine](const char* object, std::string instance) {
    SeriesKey k;
    k.source = SourceKind::kGuest;
    k.machine = machine;
    k.object = object;
    k.instance = std::move(instance);
    k.counter = "% Processor Time";
    k.unit = "percent";
    k.original = "\\\\" + machine + "\\" + object + "(" + k.instance + ")\\" + k.counter;
    return k;
  };
  std::vector<SeriesKey> columns;
  columns.push_back(key(kProfileProcessorObject, "_Total"));
  for (const auto& [cpu, first] : cpu_first_) columns.push_back(key(kProfileProcessorObject, std::to_string(cpu)));
  for (const Proc& p : procs_) columns.push_back(key(kProfileProcessObject, p.name + ":" + std::to_string(p.pid)));
  return columns;
}

Status ProfileBuckets::Write(const std::string& machine, bool quiet, SampleSink* sink, ReadSummary* summary) const {
  summary->columns = Columns(machine);
  if (!quiet) RETURN_IF_ERROR(sink->DeclareColumns(summary->columns));
  const size_t first_proc = 1 + cpu_first_.size();
  std::vector<double> values;
  for (const auto& [second, s] : seconds_) {
    if (quiet) {
      ++summary->rows_already;
      continue;
    }
    const auto [start, end] = Span(second);
    const double len_us = static_cast<double>(end - start) / 1000;
    values.assign(summary->columns.size(), kMissing);
    double total = 0;
    int cpus = 0;
    size_t c = 1;
    for (const auto& [cpu, first] : cpu_first_) {
      if (first <= second) {
        const auto it = s.cpu_busy_us.find(cpu);
        values[c] = it == s.cpu_busy_us.end() ? 0 : 100 * it->second / len_us;
        total += values[c];
        ++cpus;
      }
      ++c;
    }
    if (cpus > 0) values[0] = total / cpus;
    for (size_t i = 0; i < procs_.size(); ++i) {
      if (procs_[i].first > second) continue;
      const auto it = s.process_us.find(static_cast<uint32_t>(i));
      values[first_proc + i] = it == s.process_us.end() ? 0 : 100 * it->second / len_us;
    }
    RETURN_IF_ERROR(sink->AddRow(start, end, values));
    ++summary->rows;
    if (!summary->first_end || end < *summary->first_end) summary->first_end = end;
    if (!summary->last_end || end > *summary->last_end) summary->last_end = end;
  }
  return Status::Ok();
}

}  // namespace vrecon::etw
