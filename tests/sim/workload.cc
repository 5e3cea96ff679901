#include "tests/sim/workload.h"

#include <algorithm>
#include <iterator>

namespace vrecon::sim {
namespace {

struct Process {
  const char* name;
  double base;  // CPUs demanded on average
};
constexpr Process kProcesses[] = {
    {"sqlservr", 0.50}, {"w3wp", 0.35}, {"backup", 0.25}, {"MsMpEng", 0.10}, {"svchost", 0.05}};

bool Inside(const std::vector<std::pair<double, double>>& spans, double t) {
  for (auto [a, b] : spans)
    if (t >= a && t < b) return true;
  return false;
}

}  // namespace

Workload::Workload(const Scenario& s, std::mt19937_64* rng) : s_(s), rng_(rng), current_(s.vcpus, -2) {
  for (const Process& p : kProcesses) {
    names_.push_back(p.name);
    base_.push_back(p.base);
  }
  if (!s.jobs.empty()) {
    batch_ = static_cast<int>(names_.size());
    names_.push_back("batch");
    base_.push_back(0);
  }
  if (s.tick_locked_slices > 0) {
    ticker_ = static_cast<int>(names_.size());
    names_.push_back("ticker");
    base_.push_back(0);
  }
  minute_.assign(names_.size(), 0);
  demand_.assign(names_.size(), 0);
}

int Workload::JobAt(double t) const {
  for (size_t j = 0; j < s_.jobs.size(); ++j)
    if (t >= s_.jobs[j].from_s && t < s_.jobs[j].to_s) return static_cast<int>(j);
  return -1;
}

void Workload::Advance(double t) {
  const int minute = static_cast<int>(t / 60);
  const int job = batch_ >= 0 ? JobAt(t) : -1;
  if (minute == minute_at_ && job == job_) return;
  if (minute != minute_at_) NewMinute(t);
  minute_at_ = minute;
  job_ = job;
  Rescale();
}

// Demand changes each minute around each process's base; the backup runs in hours 1, 2 and 4.
void Workload::NewMinute(double t) {
  const int hour = static_cast<int>(t / 3600);
  std::normal_distribution<double> noise(0, 0.25);
  for (size_t i = 0; i < std::size(kProcesses); ++i) {
    double d = base_[i] * std::clamp(1 + noise(*rng_), 0.3, 1.7);
    if (names_[i] == "backup" && hour != 1 && hour != 2 && hour != 4) d = 0;
    if (Inside(s_.idle, t)) d *= 0.15;
    minute_[i] = d;
  }
}

// The batch job's demand joins the minute's; beyond 95% of the vCPUs every demand is scaled down.
void Workload::Rescale() {
  if (batch_ >= 0) minute_[batch_] = job_ >= 0 ? s_.jobs[job_].cpus : 0;
  // The ticker's demand is the slices it holds, never scaled down; the others' are drawn around it.
  double fixed = 0;
  if (ticker_ >= 0) fixed = minute_[ticker_] = static_cast<double>(s_.tick_locked_slices) / s_.slices_per_tick;
  double sum = 0;
  for (size_t i = 0; i < minute_.size(); ++i)
    if (static_cast<int>(i) != ticker_) sum += minute_[i];
  const double room = 0.95 * s_.vcpus - fixed;
  const double scale = sum > room ? room / sum : 1.0;
  total_ = 0;
  for (size_t i = 0; i < minute_.size(); ++i)
    total_ += (demand_[i] = static_cast<int>(i) == ticker_ ? minute_[i] : minute_[i] * scale);
}

// A process in proportion to demand (-1: idle). The ticker holds its slices whatever is drawn:
// the others are drawn over the capacity it leaves, so that each still gets its demand.
int Workload::Draw() {
  const double left = ticker_ >= 0 ? demand_[ticker_] : 0;
  double u = std::uniform_real_distribution<double>(0, s_.vcpus - left)(*rng_);
  for (size_t i = 0; i < demand_.size(); ++i) {
    if (static_cast<int>(i) == ticker_) continue;  // it runs only in its slices (Running)
    if (u < demand_[i]) return static_cast<int>(i);
    u -= demand_[i];
  }
  return -1;
}

int Workload::Running(int v, int slice) {
  if (ticker_ >= 0 && v == 0 && slice >= s_.slices_per_tick - s_.tick_locked_slices) return ticker_;
  int& c = current_[v];
  const bool gone = c >= 0 && demand_[c] <= 0;
  const int run_slices = s_.run_slices > 0 ? s_.run_slices : s_.run_ticks * s_.slices_per_tick;
  if (c == -2 || gone || run_slices <= 1 || std::uniform_real_distribution<double>(0, 1)(*rng_) < 1.0 / run_slices)
    c = Draw();
  return c;
}

}  // namespace vrecon::sim
