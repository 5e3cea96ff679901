#include "adapters/perfmon/cycle_shares.h"

#include <algorithm>
#include <cmath>

#include "src/core/cycle_columns.h"

namespace vrecon::perfmon {
namespace {

SeriesKey ShareKey(const SeriesKey& counts) {
  SeriesKey k = counts;
  k.counter = kCyclesPctCounter;
  k.unit = "percent";
  k.original =
      "\\\\" + k.machine + "\\" + k.object + (k.instance.empty() ? "" : "(" + k.instance + ")") + "\\" + k.counter;
  return k;
}

// ARM64 (PROCESSOR_ARCHITECTURE_ARM64) before the build whose kernel estimates idle cycles.
constexpr double kArm64 = 12, kFirstEstimatingBuild = 26100;

}  // namespace

Status CycleShares::DeclareColumns(const std::vector<SeriesKey>& columns) {
  machines_.clear();
  auto machine = [&](const std::string& name) -> Machine& {
    for (Machine& m : machines_)
      if (m.name == name) return m;
    machines_.push_back(Machine{});
    machines_.back().name = name;
    return machines_.back();
  };
  for (size_t i = 0; i < columns.size(); ++i) {
    const SeriesKey& k = columns[i];
    if (k.object == kProcessCyclesObject && k.counter == kCyclesCounter) {
      machine(k.machine).processes.push_back(i);
    } else if (k.object == kProcessorCyclesObject && k.counter == kIdleCyclesCounter) {
      machine(k.machine).idle.push_back(i);
    } else if (k.object == kProcessorCyclesObject && k.instance == "_Total" && k.counter == kCyclesCounter) {
      machine(k.machine).total = i;
    } else if (k.object == kSystemObject && k.counter == kOsBuildCounter) {
      machine(k.machine).build = i;
    } else if (k.object == kSystemObject && k.counter == kArchitectureCounter) {
      machine(k.machine).arch = i;
    }
  }
  // Shares need the total and the processors' idle counts.
  std::erase_if(machines_, [](const Machine& m) { return !m.total || m.idle.empty(); });
  prev_.assign(columns.size(), kMissing);
  if (machines_.empty()) return out_->DeclareColumns(columns);
  std::vector<SeriesKey> all = columns;
  for (Machine& m : machines_) {
    m.shares_at = all.size();
    for (size_t p : m.processes) all.push_back(ShareKey(columns[p]));
    all.push_back(ShareKey(columns[*m.total]));
  }
  row_.assign(all.size(), kMissing);
  return out_->DeclareColumns(all);
}

void CycleShares::Remember(std::span<const double> values) {
  if (machines_.empty()) return;
  for (Machine& m : machines_) Refused(&m, values);  // keeps the build and architecture
  KeepCounts(values);
}

void CycleShares::KeepCounts(std::span<const double> values) {
  // A blank count (a failed read) keeps the last one read: the next share spans both intervals,
  // its process's and the total's growth alike.
  for (size_t i = 0; i < values.size() && i < prev_.size(); ++i)
    if (std::isfinite(values[i])) prev_[i] = values[i];
}

bool CycleShares::Refused(Machine* m, std::span<const double> values) {
  if (m->build && std::isfinite(values[*m->build])) m->last_build = values[*m->build];
  if (m->arch && std::isfinite(values[*m->arch])) m->last_arch = values[*m->arch];
  return m->last_arch == kArm64 && m->last_build > 0 && m->last_build < kFirstEstimatingBuild;
}

void CycleShares::AddShares(Machine* m, std::span<const double> values) {
  const double dt = values[*m->total] - prev_[*m->total];
  const bool refused = Refused(m, values);
  if (refused && !m->refused_told) {
    m->refused_told = true;
    out_->AddIssue(ImportIssue{
        file_, 0, Severity::kWarning, "cycles-idle-unrepresentative",
        m->name + " is ARM64 on Windows build " + std::to_string(static_cast<long long>(m->last_build)) +
            ": before build 26100 its idle threads' cycles read far too low (the core's cycle counter stops "
            "while it waits), so every process's share of all cycles would read too high; the cycle counts are "
            "stored, no share is made of them"});
  }
  const bool ok = !refused && std::isfinite(dt) && dt > 0;
  // The processors are the idle columns: one each, whether or not this row read it.
  const auto processors = static_cast<double>(m->idle.size());
  double idle = 0;
  bool idle_known = true;
  for (size_t i : m->idle) {
    const double d = values[i] - prev_[i];
    if (std::isfinite(d) && d >= 0) {
      idle += d;
    } else {
      idle_known = false;
    }
  }
  size_t out = m->shares_at;
  for (size_t p : m->processes) {
    const double d = values[p] - prev_[p];
    // A count that went down is a pid another process now has: no share for that row.
    row_[out++] = ok && std::isfinite(d) && d >= 0 ? d / dt * 100 * processors : kMissing;
  }
  row_[out] = ok && idle_known ? std::clamp((dt - idle) / dt * 100, 0.0, 100.0) : kMissing;
}

Status CycleShares::AddRow(TimeNs start, TimeNs end, std::span<const double> values) {
  if (machines_.empty()) return out_->AddRow(start, end, values);
  std::copy(values.begin(), values.end(), row_.begin());
  for (Machine& m : machines_) AddShares(&m, values);
  KeepCounts(values);
  return out_->AddRow(start, end, row_);
}

}  // namespace vrecon::perfmon
