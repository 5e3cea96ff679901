#include "src/core/interruptible_sleep.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace vrecon {
namespace {

class RealClock : public SleepClock {
 public:
  TimeNs Now() override {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  void Sleep(TimeNs d) override { std::this_thread::sleep_for(std::chrono::nanoseconds(d)); }
};

bool Stopped(const std::atomic<bool>* stop) { return stop != nullptr && stop->load(); }

}  // namespace

SleepClock& SleepClock::Real() {
  static RealClock clock;
  return clock;
}

bool SleepUntil(TimeNs deadline, const std::atomic<bool>* stop, SleepClock& clock,
                const std::function<void()>& each_slice) {
  for (;;) {
    if (Stopped(stop)) return false;
    const TimeNs left = deadline - clock.Now();
    if (left <= 0) return true;
    if (each_slice) each_slice();
    clock.Sleep(std::min(left, kSleepSliceNs));
  }
}

bool SleepFor(TimeNs d, const std::atomic<bool>* stop, SleepClock& clock) {
  return SleepUntil(clock.Now() + d, stop, clock);
}

}  // namespace vrecon
