#include "agent/sampler.h"

#include <cmath>
#include <map>
#include <set>
#include <utility>

namespace vrecon::agent {

std::vector<std::string> NameInstances(const std::vector<PdhItem>& items) {
  std::map<std::string, int> seen;
  std::vector<std::string> names;
  names.reserve(items.size());
  for (const PdhItem& it : items) {
    const int n = seen[it.name]++;
    names.push_back(n == 0 ? it.name : it.name + "#" + std::to_string(n));
  }
  return names;
}

Sampler::Sampler(PdhApi& pdh, std::vector<CounterSpec> counters, std::string local_machine)
    : pdh_(pdh), counters_(std::move(counters)), local_machine_(std::move(local_machine)) {}

Sampler::~Sampler() { Stop(); }

void Sampler::Stop() {
  if (open_) pdh_.CloseQuery();
  open_ = false;
}

Status Sampler::Start(std::vector<std::string>* notes) {
  RETURN_IF_ERROR(pdh_.OpenQuery());
  open_ = true;
  std::vector<CounterSpec> kept;
  for (const CounterSpec& spec : counters_) {
    auto h = pdh_.AddEnglishCounter(CounterPath(spec));
    if (!h.ok()) {
      if (spec.optional) {
        if (notes) notes->push_back("skipped: " + h.status().message());
        continue;
      }
      Stop();
      return h.status();
    }
    kept.push_back(spec);
    handles_.push_back(*h);
  }
  counters_ = std::move(kept);
  if (counters_.empty()) {
    Stop();
    return Status::InvalidArgument("no counter to sample: none of the selected counters exists");
  }
  pdh_.Collect();  // first of the two collections rate counters need before a value
  return Status::Ok();
}

std::string Sampler::ColumnPath(const CounterSpec& spec, const std::string& instance) const {
  CounterSpec named = spec;
  named.machine = spec.machine.empty() ? local_machine_ : spec.machine;
  named.instance = instance;
  return CounterPath(named);
}

std::vector<std::string> Sampler::HeaderPaths() const {
  std::vector<std::string> p;
  p.reserve(columns_.size());
  for (const Column& c : columns_) p.push_back(c.path);
  return p;
}

SampleResult Sampler::Sample(bool refresh_columns) {
  SampleResult r;
  r.collect_status = pdh_.Collect();
  const bool collected = PdhItemOk(r.collect_status);
  // (counter, instance) -> value of this collection; absent = no value.
  std::map<std::pair<size_t, std::string>, std::optional<double>> now;
  std::vector<std::vector<std::string>> instances(counters_.size());
  std::vector<bool> array_ok(counters_.size(), false);
  for (size_t i = 0; collected && i < counters_.size(); ++i) {
    PdhArray a = pdh_.GetFormattedArray(handles_[i]);
    if (!PdhItemOk(a.status)) continue;  // e.g. PDH_CSTATUS_INVALID_DATA: all its cells " "
    array_ok[i] = true;
    const CounterSpec& spec = counters_[i];
    std::vector<std::string> names;
    if (spec.instance.find_first_of("*?") != std::string::npos) {
      names = NameInstances(a.items);
    } else {
      // A counter without wildcard: PDH gives one item; name it as the spec does.
      for (size_t k = 0; k < a.items.size() && k < 1; ++k) names.push_back(spec.instance);
    }
    for (size_t k = 0; k < names.size(); ++k) {
      const PdhItem& it = a.items[k];
      std::optional<double> v;
      if (PdhItemOk(it.status) && std::isfinite(it.value)) v = it.value;
      now[{i, names[k]}] = v;
      instances[i].push_back(names[k]);
    }
  }

  if (refresh_columns || columns_.empty()) {
    std::set<std::pair<size_t, std::string>> have;
    for (const Column& c : columns_) have.insert({c.counter, c.instance});
    bool added = false;
    for (size_t i = 0; i < counters_.size(); ++i)
      for (const std::string& inst : instances[i])
        if (!have.contains({i, inst})) added = true;
    if (added) {
      // Rebuild in counter order: current instances, plus the old columns of counters whose
      // array could not be read this time (they are not known to be gone).
      std::vector<Column> next;
      for (size_t i = 0; i < counters_.size(); ++i) {
        if (array_ok[i]) {
          std::set<std::string> dup;
          for (const std::string& inst : instances[i])
            if (dup.insert(inst).second) next.push_back({i, inst, ColumnPath(counters_[i], inst)});
        } else {
          for (const Column& c : columns_)
            if (c.counter == i) next.push_back(c);
        }
      }
      columns_ = std::move(next);
      r.columns_changed = true;
    }
  }

  r.values.reserve(columns_.size());
  for (const Column& c : columns_) {
    auto it = now.find({c.counter, c.instance});
    r.values.push_back(it == now.end() ? std::nullopt : it->second);
    if (!r.values.back()) ++r.missing_cells;
  }
  return r;
}

}  // namespace vrecon::agent
