#include "src/core/interruptible_sleep.h"

#include <gtest/gtest.h>

#include <atomic>
#include <vector>

namespace vrecon {
namespace {

// Time moves only when slept; `stop_after` sleeps it sets `stop`, as a signal handler would.
class FakeClock : public SleepClock {
 public:
  TimeNs Now() override { return now_; }
  void Sleep(TimeNs d) override {
    slept.push_back(d);
    now_ += d;
    if (stop != nullptr && static_cast<int>(slept.size()) == stop_after) stop->store(true);
  }
  std::vector<TimeNs> slept;
  std::atomic<bool>* stop = nullptr;
  int stop_after = -1;

 private:
  TimeNs now_ = 1'000 * kNsPerSec;
};

TEST(InterruptibleSleepTest, SleepsToTheDeadlineInSlicesTheLastEndingOnIt) {
  FakeClock clock;
  std::atomic<bool> stop{false};
  EXPECT_TRUE(SleepFor(120 * kNsPerMs, &stop, clock));
  EXPECT_EQ(clock.slept, (std::vector<TimeNs>{kSleepSliceNs, kSleepSliceNs, 20 * kNsPerMs}));
  EXPECT_EQ(clock.Now(), 1'000 * kNsPerSec + 120 * kNsPerMs);
}

TEST(InterruptibleSleepTest, AStopEndsItAfterTheSliceItCameIn) {
  FakeClock clock;
  std::atomic<bool> stop{false};
  clock.stop = &stop;
  clock.stop_after = 2;
  EXPECT_FALSE(SleepFor(10 * kNsPerSec, &stop, clock));
  EXPECT_EQ(clock.slept.size(), 2U);
}

TEST(InterruptibleSleepTest, AStopBeforeTheCallSleepsNotAtAll) {
  FakeClock clock;
  std::atomic<bool> stop{true};
  EXPECT_FALSE(SleepFor(kNsPerSec, &stop, clock));
  EXPECT_TRUE(clock.slept.empty());
}

TEST(InterruptibleSleepTest, APastDeadlineReturnsAtOnceAndNoStopFlagIsFine) {
  FakeClock clock;
  EXPECT_TRUE(SleepUntil(clock.Now() - kNsPerSec, nullptr, clock));
  EXPECT_TRUE(SleepFor(0, nullptr, clock));
  EXPECT_TRUE(clock.slept.empty());
  EXPECT_TRUE(SleepFor(kNsPerMs, nullptr, clock));
  EXPECT_EQ(clock.slept, std::vector<TimeNs>{kNsPerMs});
}

TEST(InterruptibleSleepTest, TheSliceCallbackRunsBeforeEverySlice) {
  FakeClock clock;
  int calls = 0;
  std::vector<size_t> slept_before;
  EXPECT_TRUE(SleepUntil(clock.Now() + 3 * kSleepSliceNs, nullptr, clock, [&] {
    ++calls;
    slept_before.push_back(clock.slept.size());
  }));
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(slept_before, (std::vector<size_t>{0, 1, 2}));
}

TEST(InterruptibleSleepTest, TheRealClockSleepsAtLeastTheTimeAsked) {
  SleepClock& real = SleepClock::Real();
  const TimeNs t0 = real.Now();
  EXPECT_TRUE(SleepFor(2 * kNsPerMs, nullptr));
  EXPECT_GE(real.Now() - t0, 2 * kNsPerMs);
}

}  // namespace
}  // namespace vrecon
