#include "agent/cycle_counters.h"

#include "src/core/cycle_columns.h"

namespace vrecon::agent {

StatusOr<std::vector<CounterSpec>> CycleCounterSet(const std::string& machine) {
  if (!machine.empty())
    return Status::InvalidArgument("--set cycles reads this machine's own cycle counts and cannot sample \\\\" +
                                   machine + ": run the agent on " + machine);
  return std::vector<CounterSpec>{
      {"", kProcessCyclesObject, "*", kCyclesCounter},        {"", kProcessorCyclesObject, "*", kIdleCyclesCounter},
      {"", kProcessorCyclesObject, "_Total", kCyclesCounter}, {"", kSystemObject, "", kOsBuildCounter},
      {"", kSystemObject, "", kArchitectureCounter},
  };
}

std::optional<CounterSpec> CyclePdh::OwnSpec(const std::string& path) const {
  StatusOr<CounterSpec> spec = ParseCounterPath(path);
  if (!spec.ok()) return std::nullopt;
  const std::string& o = spec->object;
  if (o != kProcessCyclesObject && o != kProcessorCyclesObject && o != kSystemObject) return std::nullopt;
  return *spec;
}

StatusOr<CounterHandle> CyclePdh::AddEnglishCounter(const std::string& english_path) {
  const std::optional<CounterSpec> spec = OwnSpec(english_path);
  if (!spec) {
    real_counters_ = true;
    return pdh_.AddEnglishCounter(english_path);
  }
  const std::string& o = spec->object;
  const std::string& c = spec->counter;
  const bool known =
      spec->machine.empty() && ((o == kProcessCyclesObject && c == kCyclesCounter) ||
                                (o == kProcessorCyclesObject && (c == kIdleCyclesCounter || c == kCyclesCounter)) ||
                                (o == kSystemObject && (c == kOsBuildCounter || c == kArchitectureCounter)));
  if (!known)
    return Status::NotFound(english_path + ": not a counter of the cycles set (docs/windows-agent.md lists them)");
  own_.push_back(*spec);
  return kOwn | (own_.size() - 1);
}

StatusOr<std::vector<std::string>> CyclePdh::ExpandWildcard(const std::string& english_path) {
  const std::optional<CounterSpec> spec = OwnSpec(english_path);
  if (!spec) return pdh_.ExpandWildcard(english_path);
  if (!last_) {
    StatusOr<CycleSnapshot> now = cycles_.Read();
    if (!now.ok()) return now.status();
    Accumulate(*now);
    last_ = std::move(*now);
  }
  std::vector<std::string> names;
  for (const PdhItem& item : Items(*spec)) names.push_back(item.name);
  return names;
}

PdhStatus CyclePdh::Collect() {
  const PdhStatus status = real_counters_ ? pdh_.Collect() : kPdhValidData;
  StatusOr<CycleSnapshot> now = cycles_.Read();
  last_ok_ = now.ok();
  if (last_ok_) {
    Accumulate(*now);
    last_ = std::move(*now);
    failure_told_ = false;
  } else if (log_ && !failure_told_) {
    *log_ << "vrecon-agent: cycle counts not read (" << now.status().message() << "); their cells stay blank\n";
    failure_told_ = true;
  }
  return status;
}

PdhArray CyclePdh::GetFormattedArray(CounterHandle counter) {
  if ((counter & kOwn) == 0) return pdh_.GetFormattedArray(counter);
  PdhArray a;
  if (!last_ok_ || !last_) {
    a.status = kPdhCStatusInvalidData;
    return a;
  }
  const CounterSpec& spec = own_.at(counter & ~kOwn);
  for (PdhItem& item : Items(spec))
    if (spec.instance == "*" || spec.instance == item.name) a.items.push_back(std::move(item));
  return a;
}

std::vector<PdhItem> CyclePdh::Items(const CounterSpec& spec) const {
  std::vector<PdhItem> items;
  if (!last_) return items;
  auto add = [&](std::string name, double value) { items.push_back({std::move(name), kPdhValidData, value}); };
  if (spec.object == kProcessCyclesObject) {
    for (const ProcessCycles& p : last_->processes)
      add(p.name + ":" + std::to_string(p.pid), static_cast<double>(p.cycles));
  } else if (spec.object == kProcessorCyclesObject && spec.counter == kIdleCyclesCounter) {
    for (size_t g = 0; g < last_->idle_cycles.size(); ++g)
      for (size_t i = 0; i < last_->idle_cycles[g].size(); ++i)
        add(std::to_string(g) + "," + std::to_string(i), static_cast<double>(last_->idle_cycles[g][i]));
  } else if (spec.object == kProcessorCyclesObject) {
    add("_Total", static_cast<double>(total_));
  } else {
    const SystemIdentity id = cycles_.Identity();
    add("", spec.counter == kOsBuildCounter ? id.os_build : id.architecture);
  }
  return items;
}

void CyclePdh::Accumulate(const CycleSnapshot& now) {
  const bool first = !last_.has_value();
  std::map<std::pair<std::uint32_t, std::int64_t>, std::uint64_t> seen;
  for (const ProcessCycles& p : now.processes) {
    const auto key = std::make_pair(p.pid, p.create_time);
    seen[key] = p.cycles;
    if (first) continue;
    const auto before = seen_.find(key);
    if (before == seen_.end()) {
      total_ += p.cycles;  // started since the last read: all of its cycles are new
    } else if (p.cycles >= before->second) {
      total_ += p.cycles - before->second;
    }
  }
  for (size_t g = 0; !first && g < now.idle_cycles.size() && g < idle_seen_.size(); ++g)
    for (size_t i = 0; i < now.idle_cycles[g].size() && i < idle_seen_[g].size(); ++i)
      if (now.idle_cycles[g][i] >= idle_seen_[g][i]) total_ += now.idle_cycles[g][i] - idle_seen_[g][i];
  seen_ = std::move(seen);
  idle_seen_ = now.idle_cycles;
}

}  // namespace vrecon::agent
