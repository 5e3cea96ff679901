// Waiting that a stop request ends at once: the collectors' pauses between samples and rounds,
// a drop folder's settle time and a round's retry backoff all sleep through here.
#ifndef VRECON_SRC_CORE_INTERRUPTIBLE_SLEEP_H_
#define VRECON_SRC_CORE_INTERRUPTIBLE_SLEEP_H_

#include <atomic>
#include <functional>

#include "src/core/time_util.h"

namespace vrecon {

// The monotonic clock the sleeps read and wait on; tests give one of their own.
class SleepClock {
 public:
  virtual ~SleepClock() = default;
  virtual TimeNs Now() = 0;          // monotonic nanoseconds
  virtual void Sleep(TimeNs d) = 0;  // d > 0
  static SleepClock& Real();
};

// How long a sleep goes without looking at `stop`: a signal's stop takes effect within it.
inline constexpr TimeNs kSleepSliceNs = 50 * kNsPerMs;

// Sleeps until `deadline` (the clock's monotonic time) in slices of at most kSleepSliceNs, the last
// one ending on the deadline; `each_slice`, if given, runs before every slice (a collector reloads
// its configuration there). Returns true at the deadline, false as soon as `stop` is set (also when
// it was set before the call).
bool SleepUntil(TimeNs deadline, const std::atomic<bool>* stop, SleepClock& clock = SleepClock::Real(),
                const std::function<void()>& each_slice = {});

// SleepUntil(now + d).
bool SleepFor(TimeNs d, const std::atomic<bool>* stop, SleepClock& clock = SleepClock::Real());

}  // namespace vrecon

#endif  // VRECON_SRC_CORE_INTERRUPTIBLE_SLEEP_H_
