// A scripted PDH for the agent's portable code: objects with instances that come and go,
// per-collection values (rate counters invalid on the first collection, as in PDH), injected
// data errors, and an average counter computed from value/base deltas like PDH formats
// "CPU Wait Time Per Dispatch".
#ifndef VRECON_TESTS_AGENT_FAKE_PDH_H_
#define VRECON_TESTS_AGENT_FAKE_PDH_H_

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "agent/agent.h"
#include "agent/counter_selection.h"
#include "agent/pdh_api.h"

namespace vrecon::agent::testing {

class FakePdh : public PdhApi {
 public:
  // value(collection_number, instance) -> PdhItem status/value; collection numbers start at 1.
  using ValueFn = std::function<PdhItem(int, const std::string&)>;
  struct Counter {
    std::vector<std::string> instances;  // as PDH names them (duplicates repeated); {""} = no instances
    ValueFn value;
  };
  // key: English "\\machine\Object\Counter" without instance ("" machine = local).
  std::map<std::string, Counter> counters;
  std::map<int, PdhStatus> array_status_at;  // collection -> status of every array
  std::map<int, PdhStatus> collect_status_at;
  int collections = 0;
  int open_queries = 0;
  std::vector<std::string> added;

  static std::string Key(const CounterSpec& s) { return s.machine + "|" + s.object + "|" + s.counter; }

  Status OpenQuery() override {
    ++open_queries;
    return Status::Ok();
  }
  StatusOr<CounterHandle> AddEnglishCounter(const std::string& path) override {
    auto spec = ParseCounterPath(path);
    if (!spec.ok() || !counters.count(Key(*spec))) return Status::NotFound(path + ": PDH error 0xC0000BB9");
    added.push_back(path);
    specs_.push_back(*spec);
    return static_cast<CounterHandle>(specs_.size() - 1);
  }
  StatusOr<std::vector<std::string>> ExpandWildcard(const std::string& path) override {
    auto spec = ParseCounterPath(path);
    if (!spec.ok() || !counters.count(Key(*spec))) return Status::NotFound(path);
    return counters[Key(*spec)].instances;
  }
  PdhStatus Collect() override {
    ++collections;
    auto it = collect_status_at.find(collections);
    return it == collect_status_at.end() ? kPdhValidData : it->second;
  }
  PdhArray GetFormattedArray(CounterHandle h) override {
    PdhArray a;
    auto st = array_status_at.find(collections);
    if (st != array_status_at.end()) {
      a.status = st->second;
      return a;
    }
    const CounterSpec& spec = specs_.at(h);
    Counter& c = counters[Key(spec)];
    for (const std::string& inst : c.instances) {
      if (spec.instance != "*" && spec.instance != inst) continue;
      PdhItem item = c.value(collections, inst);
      item.name = inst;
      a.items.push_back(item);
    }
    return a;
  }
  void CloseQuery() override { --open_queries; }

 private:
  std::vector<CounterSpec> specs_;
};

// A clock that jumps to whatever time the agent sleeps until; optionally asks to stop.
class FakeClock : public Clock {
 public:
  std::int64_t now_ms = 1793613600000;  // 2026-11-02 10:00:00 UTC
  int bias_minutes = 300;               // EST
  std::string zone = "Eastern Standard Time";
  std::int64_t stop_at_ms = 0;

  Stamp Now() override {
    Stamp s;
    s.utc_ms = now_ms;
    const std::int64_t local = now_ms - bias_minutes * 60000LL;
    std::int64_t days = local / 86400000, ms = local % 86400000;
    // civil_from_days (H. Hinnant)
    days += 719468;
    const std::int64_t era = days / 146097, doe = days - era * 146097;
    const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
    const int d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1), m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
    const int y = static_cast<int>(yoe + era * 400 + (m <= 2));
    s.local = perfmon::LocalTime{y,
                                 m,
                                 d,
                                 static_cast<int>(ms / 3600000),
                                 static_cast<int>(ms / 60000 % 60),
                                 static_cast<int>(ms / 1000 % 60),
                                 static_cast<int>(ms % 1000)};
    s.zone = perfmon::TimeZone{zone, bias_minutes};
    return s;
  }
  bool SleepUntil(std::int64_t utc_ms) override {
    if (utc_ms > now_ms) now_ms = utc_ms;
    return !StopRequested();
  }
  bool StopRequested() override { return stop_at_ms && now_ms >= stop_at_ms; }
};

// OutputFiles in memory.
class MemoryFiles : public OutputFiles {
 public:
  std::map<std::string, std::string> files;
  std::string current;
  bool Exists(const std::string& name) override { return files.count(name) > 0; }
  Status Create(const std::string& name) override {
    current = name;
    files[name].clear();
    return Status::Ok();
  }
  Status Append(std::string_view bytes) override {
    files[current].append(bytes);
    return Status::Ok();
  }
  void Close() override { current.clear(); }
};

}  // namespace vrecon::agent::testing

#endif  // VRECON_TESTS_AGENT_FAKE_PDH_H_
