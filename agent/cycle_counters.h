// The `cycles` set as counters: a PdhApi that answers the paths of src/core/cycle_columns.h
// from a CycleApi and passes every other path to the real PDH, so the sampler,
// its columns, refreshes and files treat cycle counts as they treat any counter.
#ifndef VRECON_AGENT_CYCLE_COUNTERS_H_
#define VRECON_AGENT_CYCLE_COUNTERS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "agent/counter_selection.h"
#include "agent/cycle_api.h"
#include "agent/pdh_api.h"

namespace vrecon::agent {

// The set's counters for the local machine; an error for a remote one (cycle counts are read
// from this machine's kernel, not over PDH).
StatusOr<std::vector<CounterSpec>> CycleCounterSet(const std::string& machine);

class CyclePdh : public PdhApi {
 public:
  // A failed read is written to `log` (once until a read succeeds again): its cells are blank.
  CyclePdh(PdhApi& pdh, CycleApi& cycles, std::ostream* log = nullptr) : pdh_(pdh), cycles_(cycles), log_(log) {}
  Status OpenQuery() override { return pdh_.OpenQuery(); }
  StatusOr<CounterHandle> AddEnglishCounter(const std::string& english_path) override;
  StatusOr<std::vector<std::string>> ExpandWildcard(const std::string& english_path) override;
  // Collects the real counters (when any were added) and reads the cycle counts.
  PdhStatus Collect() override;
  PdhArray GetFormattedArray(CounterHandle counter) override;
  void CloseQuery() override { pdh_.CloseQuery(); }

 private:
  // Handles of the cycle counters have this bit set; the rest index own_.
  static constexpr CounterHandle kOwn = CounterHandle{1} << 63;
  std::optional<CounterSpec> OwnSpec(const std::string& path) const;
  std::vector<PdhItem> Items(const CounterSpec& spec) const;
  // Adds the cycles charged since the last read to total_: a process seen before (same pid and
  // start) by its growth, a new one by all of its count, every processor's idle cycles by theirs.
  void Accumulate(const CycleSnapshot& now);

  PdhApi& pdh_;
  CycleApi& cycles_;
  std::ostream* log_;
  bool failure_told_ = false;
  std::vector<CounterSpec> own_;
  bool real_counters_ = false;
  std::optional<CycleSnapshot> last_;                                     // the last good read
  bool last_ok_ = false;                                                  // whether this collection's read succeeded
  std::map<std::pair<std::uint32_t, std::int64_t>, std::uint64_t> seen_;  // (pid, start) -> cycles
  std::vector<std::vector<std::uint64_t>> idle_seen_;
  std::uint64_t total_ = 0;
};

}  // namespace vrecon::agent

#endif  // VRECON_AGENT_CYCLE_COUNTERS_H_
