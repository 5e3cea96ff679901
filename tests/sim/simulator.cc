#include "tests/sim/simulator.h"
#include "tests/sim/workload.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <sstream>

#include "tests/sim/dumper_text.h"

namespace vrecon::sim {
namespace {

constexpr int kTicksPerSec = 64;
constexpr int kWindowS = 300;

// "MM/DD/YYYY HH:MM:SS.mmm", the PDH-CSV row stamp.
std::string PdhStamp(TimeNs local) {
  const CivilTime c = CivilFromNs(local);
  char b[40];
  std::snprintf(b, sizeof b, "%02d/%02d/%04d %02d:%02d:%02d.%03d", c.month, c.day, c.year, c.hour, c.minute, c.second,
                c.millis);
  return b;
}

std::string Cell(double v) {
  char b[40];
  std::snprintf(b, sizeof b, "\"%.6f\"", v);
  return b;
}

class Model {
 public:
  explicit Model(const Scenario& s) : s_(s), rng_(s.seed), k_(s.vcpus), work_(s, &rng_), np_(work_.processes()) {
    charged_.assign(k_ * (np_ + 1), 0);
    host_run_.assign(k_, 0);
    out_.windows.resize(s.hours * 3600 / kWindowS);
    occupied_.assign(out_.windows.size() * np_, 0);
    for (size_t w = 0; w < out_.windows.size(); ++w) {
      out_.windows[w].start = s.start + static_cast<TimeNs>(w) * kWindowS * kNsPerSec;
      for (int i = 0; i < np_; ++i) out_.windows[w].process_pct[work_.name(i)] = 0;
    }
    etw_from_ = std::llround(s.etw_from_s * kTicksPerSec);
    etw_to_ = s.etw_minutes > 0 ? etw_from_ + std::llround(s.etw_minutes * 60 * kTicksPerSec) : etw_from_;
  }

  SimOutput Run() {
    Headers();
    const int64_t n = static_cast<int64_t>(s_.hours) * 3600 * kTicksPerSec;
    size_t next_resync = 0;
    std::vector<int> now(k_), first(k_);
    last_.assign(k_, -1);
    slices_.assign(static_cast<size_t>(s_.slices_per_tick) * k_, -1);
    for (int64_t j = 0; j < n; ++j) {
      const double t = static_cast<double>(j) / kTicksPerSec;
      work_.Advance(t);
      if (next_resync < s_.resync_at_s.size() && t >= s_.resync_at_s[next_resync]) {
        const double step = t - Apparent();
        offset_s_ += step;
        out_.events.push_back({"clock-step", At(t), At(t), step});
        ++next_resync;
      }
      Trace(j);
      Schedule(t);
      const int window = static_cast<int>(j / (kWindowS * kTicksPerSec));
      if (running_) {
        // Truth: within a tick each vCPU time-slices the processes in proportion to demand;
        // the guest's tick sees only the one running at that instant (the sampling error).
        for (int i = 0; i < np_; ++i)
          out_.windows[window].process_pct[work_.name(i)] += 100.0 * work_.demand(i) / (kWindowS * kTicksPerSec);
        for (int v = 0; v < k_; ++v) host_run_[v] += work_.total_demand() / k_;
        RunSlices(window, &first, &now);
        // The backlog arrives in a burst, every tick of it charged to the thread the vCPU resumed
        // (the timer interrupts are serviced in it).
        const int burst = pending_;
        for (int b = 0; b < burst; ++b) Deliver(first.data(), burst, t);
        pending_ = 0;
        // The trace's switches come after the burst: the thread that ran into a stall holds its
        // vCPU until the clock has caught up.
        TraceSlices();
        last_ = now;
        last_job_ = work_.job();
        // The slot's own tick comes at its end and charges the thread it interrupts.
        Deliver(now.data(), burst, t);
      } else if (pending_ < s_.backlog_cap_ticks) {
        host_ready_ += work_.total_demand();
        ++pending_;
      } else {
        host_ready_ += work_.total_demand();
        ++out_.lost_ticks;
        ++lost_in_episode_;
      }
      if ((j + 1) % (static_cast<int64_t>(s_.host_interval_s) * kTicksPerSec) == 0) HostRow(j + 1);
    }
    Trace(n);
    CloseEpisode();
    for (const auto& [a, b] : s_.idle) out_.events.push_back({"idle-queue", At(a), At(b), 0});
    for (size_t w = 0; w < out_.windows.size(); ++w)
      for (int i = 0; i < np_; ++i) out_.windows[w].occupancy_pct[work_.name(i)] = occupied_[w * np_ + i];
    out_.guest_csv = guest_.str();
    out_.host_csv = host_.str();
    return std::move(out_);
  }

 private:
  TimeNs At(double t) const { return s_.start + static_cast<TimeNs>(std::llround(t * 1e9)); }
  double Apparent() const { return static_cast<double>(delivered_) / kTicksPerSec + offset_s_; }
  // The guest's clock in whole ticks (a resync steps it by whole ticks).
  int64_t ApparentTicks() const { return delivered_ + std::llround(offset_s_ * kTicksPerSec); }
  int64_t TraceUs() const { return (ApparentTicks() - etw_start_ticks_) * 1'000'000 / kTicksPerSec; }

  // Each vCPU's thread in each slice of a slot where the VM runs (slices_, slice-major), what each
  // held counted into the window's occupancy; `first` and `last` get the first and last slices'.
  void RunSlices(int window, std::vector<int>* first, std::vector<int>* last) {
    const int n = s_.slices_per_tick;
    for (int i = 0; i < n; ++i)
      for (int v = 0; v < k_; ++v) {
        const int p = slices_[i * k_ + v] = work_.Running(v, i);
        if (p >= 0) occupied_[window * np_ + p] += 100.0 / (static_cast<double>(kWindowS) * kTicksPerSec * n);
      }
    first->assign(slices_.begin(), slices_.begin() + k_);
    last->assign(slices_.end() - k_, slices_.end());
  }

  // The slot's switches, each slice at its share of the tick (15,625 us) on the guest's clock.
  void TraceSlices() {
    if (!etw_) return;
    const int n = s_.slices_per_tick;
    const int64_t at = TraceUs();
    std::vector<int> slice(k_);
    for (int i = 0; i < n; ++i) {
      slice.assign(slices_.begin() + i * k_, slices_.begin() + (i + 1) * k_);
      etw_->Slot(at + i * (1'000'000 / kTicksPerSec) / n, slice, work_.job());
    }
  }

  // Starts the trace before slot etw_from_, each vCPU running what it ran in the last slot the VM
  // ran, and ends it before slot etw_to_ or at the end of the run, both on the guest's clock.
  void Trace(int64_t j) {
    if (j == etw_from_ && etw_to_ > etw_from_) {
      etw_start_ticks_ = ApparentTicks();
      std::vector<std::string> names(np_);
      for (int i = 0; i < np_; ++i) names[i] = work_.name(i);
      etw_ = std::make_unique<DumperText>(names, work_.batch_index(),
                                          s_.start + etw_start_ticks_ * kNsPerSec / kTicksPerSec, last_, last_job_);
    }
    if (etw_ && (j == etw_to_ || j == static_cast<int64_t>(s_.hours) * 3600 * kTicksPerSec)) {
      out_.etw_dumper = etw_->Finish(TraceUs());
      etw_.reset();
    }
  }

  // Guest time zone: US Eastern across the fall-back (bias 240 -> 300 at 06:00 UTC), else a
  // zone without a change on that day.
  int BiasMinutes(TimeNs utc) const {
    if (!s_.dst) return -60;
    return utc < NsFromCivil(CivilTime{2026, 11, 1, 6, 0, 0, 0}) ? 240 : 300;
  }

  void Headers() {
    const std::string g = std::string("\\\\") + kGuestName;
    guest_ << (s_.dst ? "\"(PDH-CSV 4.0) (Eastern Daylight Time)(240)\""
                      : "\"(PDH-CSV 4.0) (W. Europe Standard Time)(-60)\"");
    for (int v = 0; v < k_; ++v) guest_ << ",\"" << g << "\\Processor(" << v << ")\\% Processor Time\"";
    guest_ << ",\"" << g << "\\Processor(_Total)\\% Processor Time\"";
    for (int i = 0; i < np_; ++i) guest_ << ",\"" << g << "\\Process(" << work_.name(i) << ")\\% Processor Time\"";
    guest_ << ",\"" << g << "\\Process(Idle)\\% Processor Time\",\"" << g << "\\Process(_Total)\\% Processor Time\"";
    guest_ << ",\"" << g << "\\System\\Processor Queue Length\"";
    const int ids = s_.guest_process_ids ? np_ : 0;
    for (int i = 0; i < ids; ++i) guest_ << ",\"" << g << "\\Process(" << work_.name(i) << ")\\ID Process\"";
    guest_ << "\n\"" << PdhStamp(s_.start - BiasMinutes(s_.start) * 60 * kNsPerSec) << "\"";
    for (int c = 0; c < k_ + 1 + np_ + 3 + ids; ++c) guest_ << ",\" \"";
    guest_ << "\n";
    last_bias_ = BiasMinutes(s_.start);

    host_ << "\"(PDH-CSV 4.0) (Coordinated Universal Time)(0)\"";
    if (s_.esxtop_turbo > 0) {
      for (const char* c : {"% Used", "% Run", "% System", "% Ready"})
        host_ << ",\"\\\\" << kHostName << "\\Group Cpu(4242:" << kGuestName << ")\\" << c << "\"";
    } else {
      for (int v = 0; v < k_; ++v)
        host_ << ",\"\\\\" << kHostName << "\\Hyper-V Hypervisor Virtual Processor(" << kGuestName << ":Hv VP " << v
              << ")\\% Total Run Time\"";
    }
    const int columns = s_.esxtop_turbo > 0 ? 4 : k_;
    host_ << "\n\"" << PdhStamp(s_.start) << "\"";
    for (int c = 0; c < columns; ++c) host_ << ",\" \"";
    host_ << "\n";
  }

  // The VM's run/stall state: a two-state chain whose stationary run share is the episode's.
  void Schedule(double t) {
    const Episode* e = &s_.background;
    for (const Episode& c : s_.contention)
      if (t >= c.from_s && t < c.to_s) e = &c;
    if (e != episode_) {
      CloseEpisode();
      episode_ = e;
      episode_from_ = t;
    }
    const double q = 1.0 / e->mean_stall_ticks;
    const double p = q * (1 - e->run_share) / e->run_share;
    std::uniform_real_distribution<double> u(0, 1);
    if (running_) running_ = !(u(rng_) < p);
    else running_ = u(rng_) < q;
  }

  void CloseEpisode() {
    if (episode_ == nullptr || episode_ == &s_.background) {
      lost_in_episode_ = 0;
      return;
    }
    out_.events.push_back({"contention", At(episode_->from_s), At(episode_->to_s), episode_->run_share});
    if (lost_in_episode_ > 0)
      out_.events.push_back({"lost-ticks", At(episode_->from_s), At(episode_->to_s),
                             static_cast<double>(lost_in_episode_) / kTicksPerSec});
    lost_in_episode_ = 0;
  }

  // One clock tick reaches the guest: it charges each vCPU's current process, advances the
  // guest clock by 1/64 s, and every 960 ticks Perfmon writes a row.
  void Deliver(const int* running, int burst, double t) {
    for (int v = 0; v < k_; ++v) ++charged_[v * (np_ + 1) + running[v] + 1];
    ++delivered_;
    if (++since_row_ < s_.guest_interval_ticks) return;
    since_row_ = 0;
    GuestRow(burst, t);
  }

  void GuestRow(int burst, double t) {
    const double now = Apparent();
    // PDH divides by the elapsed wall time of the guest, which includes any clock step.
    const double elapsed_ticks = (now - last_row_s_) * kTicksPerSec;
    last_row_s_ = now;
    const TimeNs utc = s_.start + static_cast<TimeNs>(std::llround(now * 1e3)) * kNsPerMs;
    const int bias = BiasMinutes(utc);
    if (bias != last_bias_) {
      out_.events.push_back({"dst-shift", At(t), At(t), (bias - last_bias_) * 60.0});
      last_bias_ = bias;
    }
    guest_ << "\"" << PdhStamp(utc - bias * 60 * kNsPerSec) << "\"";
    double total = 0, idle = 0;
    std::vector<double> per_process(np_, 0);
    for (int v = 0; v < k_; ++v) {
      const int64_t* c = &charged_[v * (np_ + 1)];
      const double busy = 100.0 * (s_.guest_interval_ticks - c[0]) / elapsed_ticks;
      guest_ << "," << Cell(busy);
      total += busy / k_;
      idle += 100.0 * c[0] / elapsed_ticks;
      for (int i = 0; i < np_; ++i) per_process[i] += 100.0 * c[i + 1] / elapsed_ticks;
    }
    guest_ << "," << Cell(total);
    // PDH rates a process from two readings of its CPU time: a batch job has no value in the row
    // it started in (no earlier reading) nor in the one it ended in (gone when read), so its
    // first and last partial intervals are never seen, and Perfmon leaves those cells blank.
    const int job = work_.batch_index() >= 0 ? work_.JobAt(t) : -1;
    const bool job_seen = job >= 0 && job == last_row_job_;
    last_row_job_ = job;
    double sum = idle;
    for (int i = 0; i < np_; ++i) {
      if (i == work_.batch_index() && !job_seen) {
        guest_ << ",\" \"";
        continue;
      }
      guest_ << "," << Cell(per_process[i]);
      sum += per_process[i];
    }
    // Queue: a few waiting threads under load; a burst of late ticks expires many timers at once.
    std::poisson_distribution<int> waiting(0.2 + 1.5 * std::pow(work_.total_demand() / k_, 2));
    const int queue = waiting(rng_) + (burst >= 4 ? burst : 0);
    guest_ << "," << Cell(idle) << "," << Cell(sum) << ",\"" << queue << "\"";
    for (int i = 0; s_.guest_process_ids && i < np_; ++i) {
      if (i == work_.batch_index() && !job_seen) guest_ << ",\" \"";
      else guest_ << ",\"" << DumperText::Pid(i, work_.batch_index(), job) << "\"";
    }
    guest_ << "\n";
    std::fill(charged_.begin(), charged_.end(), 0);
  }

  void HostRow(int64_t tick) {
    host_ << "\"" << PdhStamp(s_.start + tick * kNsPerSec / kTicksPerSec) << "\"";
    const double ticks = static_cast<double>(s_.host_interval_s) * kTicksPerSec;
    if (s_.esxtop_turbo > 0) {
      double run = 0;
      for (double& v : host_run_) {
        run += 100.0 * v / ticks;
        v = 0;
      }
      constexpr double kSystem = 2;
      host_ << "," << Cell(run * s_.esxtop_turbo + kSystem) << "," << Cell(run) << "," << Cell(kSystem) << ","
            << Cell(100.0 * host_ready_ / ticks) << "\n";
      host_ready_ = 0;
      return;
    }
    for (int v = 0; v < k_; ++v) {
      host_ << "," << Cell(100.0 * host_run_[v] / (s_.host_interval_s * kTicksPerSec));
      host_run_[v] = 0;
    }
    host_ << "\n";
  }

  const Scenario& s_;
  std::mt19937_64 rng_;
  const int k_;
  SimOutput out_;
  std::ostringstream guest_, host_;
  Workload work_;
  const int np_;
  bool running_ = true;
  const Episode* episode_ = nullptr;
  double episode_from_ = 0;
  int64_t lost_in_episode_ = 0;
  int pending_ = 0;               // ticks deferred while the VM waits
  std::vector<int64_t> charged_;  // per vCPU: idle, then each process, since the last row
  std::vector<double> host_run_;  // per VP: ticks run since the last host row
  double host_ready_ = 0;         // vCPU ticks of demand the VM waited with since the last host row
  std::vector<double> occupied_;  // per window and process: % of one CPU held while the VM ran
  std::unique_ptr<DumperText> etw_;
  int64_t etw_from_ = 0, etw_to_ = 0, etw_start_ticks_ = 0;
  std::vector<int> slices_;  // per slice of the current slot and vCPU: the process run (-1: idle)
  std::vector<int> last_;    // per vCPU: the process it ran in the last slot the VM ran (-1: idle)
  int last_job_ = -1;        // the batch job then
  int64_t delivered_ = 0;
  int since_row_ = 0;
  double offset_s_ = 0, last_row_s_ = 0;
  int last_bias_ = 0;
  int last_row_job_ = -1;  // the batch job that existed at the last row (-1: none)
};

}  // namespace

SimOutput Simulate(const Scenario& scenario) { return Model(scenario).Run(); }

}  // namespace vrecon::sim
