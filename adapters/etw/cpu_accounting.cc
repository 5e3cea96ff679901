#include "adapters/etw/cpu_accounting.h"

#include <algorithm>
#include <tuple>

#include "src/core/text_util.h"

namespace vrecon::etw {
namespace {

// The first boundary of the grid phase + k x step that is after t.
int64_t NextBoundary(int64_t t, int64_t phase, int64_t step) {
  int64_t k = (t - phase) / step;
  if (phase + k * step <= t) ++k;
  return phase + k * step;
}

}  // namespace

std::string ProcessBaseName(std::string_view image) {
  if (image.size() > 4 && EqualsFolded(image.substr(image.size() - 4), ".exe")) image.remove_suffix(4);
  return std::string(image);
}

CpuAccounting::CpuAccounting(Options options, BucketFn on_bucket, WindowFn on_window, BreakFn on_break)
    : options_(options),
      on_bucket_(std::move(on_bucket)),
      on_window_(std::move(on_window)),
      on_break_(std::move(on_break)) {}

void CpuAccounting::Begin(int64_t t_us) {
  begun_ = true;
  begin_us_ = bucket_start_ = window_start_ = t_us;
  bucket_end_ = NextBoundary(t_us, options_.phase_us, options_.bucket_us);
  window_end_ = NextBoundary(t_us, options_.phase_us, options_.window_us);
}

namespace {

// Sorts a bucket's processes by pid and name and adds up the entries of one process (a pid that
// went to a new process of the same name within the bucket: one series, name:pid).
void MergeSameProcess(std::vector<ProcessFigures>* processes) {
  std::sort(processes->begin(), processes->end(), [](const ProcessFigures& x, const ProcessFigures& y) {
    return std::tie(x.pid, x.name) < std::tie(y.pid, y.name);
  });
  size_t kept = 0;
  for (size_t i = 0; i < processes->size(); ++i) {
    ProcessFigures& p = (*processes)[i];
    ProcessFigures* last = kept > 0 ? &(*processes)[kept - 1] : nullptr;
    if (last != nullptr && last->pid == p.pid && last->name == p.name) {
      last->cpu_us += p.cpu_us;
      last->union_us += p.union_us;
      last->queue_us += p.queue_us;
      last->switch_ins += p.switch_ins;
    } else {
      if (kept != i) (*processes)[kept] = std::move(p);
      ++kept;
    }
  }
  processes->resize(kept);
}

}  // namespace

CpuAccounting::Process& CpuAccounting::ProcessOf(uint32_t pid, std::string_view image) {
  auto [it, added] = processes_.try_emplace(pid);
  Process& p = it->second;
  if (added) p.bucket.pid = pid;
  if (!image.empty() && (added || p.name.empty())) p.name = ProcessBaseName(image);
  return p;
}

// Only the CPUs events name exist: a stray CPU number in damaged text is one CPU more, not a
// thousand.
CpuAccounting::Cpu& CpuAccounting::CpuOf(int cpu) {
  const auto n = static_cast<size_t>(cpu);
  if (n >= slot_.size()) slot_.resize(n + 1, -1);
  if (slot_[n] < 0) {
    slot_[n] = static_cast<int>(cpus_.size());
    Cpu& c = cpus_.emplace_back();
    c.since = bucket_start_;
    c.bucket.cpu = cpu;
  }
  return cpus_[static_cast<size_t>(slot_[n])];
}

// A DPC or ISR runs on its CPU at the expense of the thread it interrupted, whose thread and
// process times do not count it (Windows charges it to the processor's DPC or interrupt time, as
// Perfmon's Process counters show): it is taken out of the stretch it began in, and of the next
// ones while any is left. On an idle CPU it is busy time all the same.
void CpuAccounting::Charge(Cpu& c, int64_t to) {
  const auto d = static_cast<double>(to - c.since);
  if (d <= 0) return;
  const double deferred = std::min(c.deferred_us, d);
  c.deferred_us -= deferred;
  if (!c.known) {
    c.bucket.unknown_us += d - deferred;
    c.bucket.busy_us += deferred;
  } else if (c.pid != 0) {  // pid 0: the Idle process
    c.bucket.busy_us += d;
    processes_[c.pid].bucket.cpu_us += d - deferred;
  } else {
    c.bucket.busy_us += deferred;
  }
  c.since = to;
}

void CpuAccounting::StartRun(Process& p, int64_t t) {
  if (p.running++ == 0) p.union_from = t;
}

void CpuAccounting::StopRun(Process& p, int64_t t) {
  if (p.running == 0) return;
  if (--p.running == 0) p.bucket.union_us += static_cast<double>(std::max<int64_t>(0, t - p.union_from));
}

void CpuAccounting::AdvanceTo(int64_t t_us) {
  while (bucket_end_ <= t_us) {
    for (Cpu& c : cpus_) Charge(c, bucket_end_);
    for (auto& [pid, p] : processes_) {
      if (p.running > 0) {
        p.bucket.union_us += static_cast<double>(bucket_end_ - p.union_from);
        p.union_from = bucket_end_;
      }
    }
    FlushBucket();
    if (window_end_ <= bucket_start_) FlushWindow(window_end_);
  }
}

// The bucket and its vectors are members, cleared and refilled: a trace of hours has tens of
// thousands of buckets, and allocating each anew was most of the readers' time.
void CpuAccounting::FlushBucket() {
  Bucket& b = out_;
  b.start_us = bucket_start_;
  b.end_us = bucket_end_;
  b.processes.clear();
  ended_.clear();
  for (auto& [pid, p] : processes_) {
    if (pid == 0) continue;
    if (!p.alive && p.ended_at < bucket_start_) {
      ended_.push_back(pid);
      continue;
    }
    p.bucket.name = p.name;
    b.processes.push_back(p.bucket);
    p.bucket = ProcessFigures{pid, "", 0, 0, 0, 0};
    if (!p.alive) ended_.push_back(pid);
  }
  for (Process& r : retired_) {
    if (r.ended_at < bucket_start_) continue;  // its last bucket is out
    r.bucket.name = r.name;
    b.processes.push_back(r.bucket);
    r.bucket = ProcessFigures{r.bucket.pid, "", 0, 0, 0, 0};
  }
  MergeSameProcess(&b.processes);
  b.cpus.clear();
  for (Cpu& c : cpus_) {
    b.cpus.push_back(c.bucket);
    c.bucket = CpuFigures{c.bucket.cpu, 0, 0, 0, 0};
  }
  std::sort(b.cpus.begin(), b.cpus.end(), [](const CpuFigures& x, const CpuFigures& y) { return x.cpu < y.cpu; });
  on_bucket_(b);
  // An ended process goes once its last bucket is out (and its window, which keeps its own copy).
  for (uint32_t pid : ended_) {
    const Process& p = processes_[pid];
    if (p.window_switch_ins == 0 && p.running == 0) processes_.erase(pid);
  }
  std::erase_if(retired_, [](const Process& r) { return r.window_switch_ins == 0; });
  bucket_start_ = bucket_end_;
  bucket_end_ += options_.bucket_us;
}

void CpuAccounting::FlushWindow(int64_t end_us) {
  QueueWindow w;
  w.start_us = window_start_;
  w.end_us = end_us;
  // A retired process whose pid went to one of the same name is one process to the series.
  for (Process& r : retired_) {
    auto live = processes_.find(r.bucket.pid);
    if (live == processes_.end() || live->second.name != r.name || r.window_switch_ins == 0) continue;
    live->second.window_switch_ins += r.window_switch_ins;
    live->second.window_queue.Merge(r.window_queue);
    r.window_switch_ins = 0;
  }
  auto add = [&w](uint32_t pid, Process& p) {
    if (p.window_switch_ins == 0) return;
    w.processes.push_back({pid, p.name, p.window_switch_ins, p.window_queue.Quantile(0.95).value_or(0)});
    p.window_switch_ins = 0;
    p.window_queue = QuantileSketch();
  };
  for (auto& [pid, p] : processes_) add(pid, p);
  for (Process& r : retired_) add(r.bucket.pid, r);
  std::erase_if(retired_, [this](const Process& r) { return r.ended_at < bucket_start_; });
  std::sort(w.processes.begin(), w.processes.end(),
            [](const QueueWindow::Entry& x, const QueueWindow::Entry& y) { return x.pid < y.pid; });
  if (!w.processes.empty()) on_window_(w);
  window_start_ = end_us;
  window_end_ = end_us + options_.window_us;
}

void CpuAccounting::Switch(const SwitchEvent& in) {
  AdvanceTo(in.t_us);
  Cpu& c = CpuOf(in.cpu);
  // xperf writes events of different CPUs slightly out of order: a switch is never before the
  // last one on its CPU (nor before a bucket already delivered).
  SwitchEvent e = in;
  e.t_us = std::max(e.t_us, c.since);
  if (!c.seen) {
    // First switch on this CPU. In the first bucket its old thread has been running since the
    // trace began (a switch-in after that would have been seen); a CPU first seen later has
    // unknown time before.
    c.seen = true;
    if (c.since == begin_us_) {
      c.known = true;
      c.tid = e.old_tid;
      c.pid = e.old_pid;
      if (e.old_pid != 0) StartRun(ProcessOf(e.old_pid, e.old_process), c.since);
    }
  }
  if (c.known && c.tid != e.old_tid) {
    // The switch sequence is broken: events were lost. The time since the last switch seen here
    // is unknown, and the thread believed to run there is taken as stopped at that switch.
    on_break_(e.cpu, e.t_us, c.tid, e.old_tid);
    if (c.pid != 0) StopRun(ProcessOf(c.pid, ""), c.since);
    c.known = false;
  }
  Charge(c, e.t_us);
  if (c.known && e.old_pid != 0) StopRun(ProcessOf(e.old_pid, e.old_process), e.t_us);
  if (e.old_state == OldState::kReady && e.old_tid != 0) {
    Thread& ot = threads_[e.old_tid];
    ot.pid = e.old_pid;
    ot.ready_since = e.t_us;  // preempted: queued again at once
  }
  c.known = true;
  c.tid = e.new_tid;
  c.pid = e.new_pid;
  c.since = e.t_us;
  if (e.new_pid == 0) return;
  Process& np = ProcessOf(e.new_pid, e.new_process);
  StartRun(np, e.t_us);
  Thread& nt = threads_[e.new_tid];
  nt.pid = e.new_pid;
  if (nt.ready_since >= 0) {
    const auto q = static_cast<double>(std::max<int64_t>(0, e.t_us - nt.ready_since));
    np.bucket.queue_us += q;
    ++np.bucket.switch_ins;
    ++np.window_switch_ins;
    np.window_queue.Add(q);
    nt.ready_since = -1;
  }
}

void CpuAccounting::Ready(int64_t t_us, uint32_t tid) {
  AdvanceTo(t_us);
  Thread& t = threads_[tid];
  if (t.ready_since < 0) t.ready_since = t_us;
}

void CpuAccounting::Deferred(int64_t t_us, int cpu, double elapsed_us, bool isr) {
  AdvanceTo(t_us);
  Cpu& c = CpuOf(cpu);
  Charge(c, t_us);  // the interrupted run up to the DPC's start is its own
  (isr ? c.bucket.isr_us : c.bucket.dpc_us) += elapsed_us;
  c.deferred_us += elapsed_us;
}

void CpuAccounting::ProcessStart(int64_t t_us, uint32_t pid, std::string_view image) {
  AdvanceTo(t_us);
  if (pid == 0) return;
  Process& p = ProcessOf(pid, "");
  if (!p.alive) {  // the pid is reused by a new process
    // The ended one keeps what is still to go out: its last bucket, its queue window.
    if (p.ended_at >= bucket_start_ || p.window_switch_ins > 0) retired_.push_back(std::move(p));
    p = Process{};
    p.bucket.pid = pid;
  }
  p.name = ProcessBaseName(image);
}

void CpuAccounting::ProcessEnd(int64_t t_us, uint32_t pid) {
  AdvanceTo(t_us);
  auto it = processes_.find(pid);
  if (it == processes_.end()) return;
  it->second.alive = false;
  it->second.ended_at = t_us;
}

void CpuAccounting::ThreadEnd(uint32_t tid) { threads_.erase(tid); }

void CpuAccounting::End(int64_t t_us) {
  if (!begun_) return;
  AdvanceTo(t_us);
  for (Cpu& c : cpus_) Charge(c, t_us);
  for (auto& [pid, p] : processes_) {
    if (p.running > 0) {
      p.bucket.union_us += static_cast<double>(t_us - p.union_from);
      p.union_from = t_us;
    }
  }
  if (t_us > bucket_start_) {
    bucket_end_ = t_us;
    FlushBucket();
  }
  FlushWindow(t_us);
}

}  // namespace vrecon::etw
