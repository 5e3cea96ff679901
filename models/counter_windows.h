// Per window, what vrecon reports for one typed guest counter (docs/counter-types.md):
// percent-time corrected with w, a difference counter's count kept and its rate re-derived over
// the true (host-side) interval, instantaneous values and unknown counters passed through, and
// QPC-timed disk latency less the host root's latency as the virtualization delay.
#ifndef VRECON_MODELS_COUNTER_WINDOWS_H_
#define VRECON_MODELS_COUNTER_WINDOWS_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "models/counter_types.h"
#include "models/window_series.h"

namespace vrecon::models {

// Maps a time on the guest's apparent clock (as the guest log wrote it) to host (true) time,
// e.g. ClockModel::ToHost. An empty function is the identity: the guest was not aligned.
using ToTrueTime = std::function<TimeNs(TimeNs)>;

// A difference counter summed per window: the events the guest counted and the apparent and
// true seconds they were counted over.
class RateWindows {
 public:
  struct Cell {
    double count = 0, apparent_s = 0, true_s = 0;
  };
  explicit RateWindows(const WindowGrid& grid) : grid_(grid), cells_(grid.count) {}
  // One stored sample: `rate` events/s over the guest's apparent interval [start, end], so
  // rate x (end - start) events. They are spread over the windows the TRUE interval overlaps,
  // in proportion to the overlap. Instantaneous samples (start == end) carry no count.
  void Add(TimeNs start, TimeNs end, double rate, const ToTrueTime& to_true);
  const Cell& at(int i) const { return cells_[i]; }

 private:
  WindowGrid grid_;
  std::vector<Cell> cells_;
};

struct CounterWindowInput {
  CounterClass cls;
  std::optional<double> guest_mean;  // time-weighted mean of the guest's values in the window
  RateWindows::Cell rate;            // rate counters only
  bool aligned = false;              // a clock model mapped the guest's times
  std::optional<double> w;
  bool linux_steal = false;              // the guest kernel has a steal clock: its CPU times are already real
  std::optional<double> host_latency_s;  // qpc-latency: the matching host disk's mean latency
  std::string host_disk;                 // that disk, e.g. "HV01 LogicalDisk(D:)"
  std::string no_host_reason;            // why there is none, when there is none
};

struct CounterValue {
  std::string path;  // the counter path as the guest log spelled it
  CounterType type = CounterType::kUnknown;
  std::optional<double> guest_value;  // as the guest reported it (window mean)
  std::optional<double> value;        // what vrecon reports (see docs/counter-types.md)
  std::optional<double> count;        // rate: events counted in the window
  std::string unit;
  std::string note;
};

// Nothing when the window holds no guest value of the counter.
std::optional<CounterValue> EvaluateCounter(const std::string& path, const std::string& unit,
                                            const CounterWindowInput& in);

}  // namespace vrecon::models

#endif  // VRECON_MODELS_COUNTER_WINDOWS_H_
