#include "adapters/etw/precise_runs.h"

#include <algorithm>
#include <queue>
#include <utility>

#include "adapters/etw/xperf_dumper.h"
#include "src/core/text_util.h"

namespace vrecon::etw {
namespace {

constexpr size_t kChunkRuns = size_t{1} << 16;
// The thread CpuAccounting is told runs during an unreadable run, and the one its end names: they
// differ, so the end breaks the switch sequence and the run's time is unknown.
constexpr uint32_t kUnreadableTid = 0xFFFFFFFF;
constexpr uint32_t kUnreadableEndTid = 0xFFFFFFFE;

// Switch-in order; equal switch-ins by CPU, then the shorter run first (a run of no length ends
// where the next one starts), then by line, so that the order never depends on the input's.
bool Before(const Run& a, const Run& b) {
  if (a.in_us != b.in_us) return a.in_us < b.in_us;
  if (a.cpu != b.cpu) return a.cpu < b.cpu;
  if (a.out_us != b.out_us) return a.out_us < b.out_us;
  return a.line < b.line;
}

std::string Seconds(int64_t us) { return FormatFixed(static_cast<double>(us) / 1e6, 6) + " s"; }

}  // namespace

uint32_t PreciseRuns::Process(std::string_view cell) {
  if (last_proc_ != kUnreadable && cell == last_cell_) return last_proc_;
  uint32_t index = 0;
  if (auto it = proc_index_.find(cell); it != proc_index_.end()) {
    index = it->second;
  } else {
    std::string_view image;
    uint32_t pid = 0;
    if (!ParseProcessField(cell, &image, &pid) || procs_.size() >= kUnreadable) return kUnreadable;
    index = static_cast<uint32_t>(procs_.size());
    procs_.push_back(Proc{std::string(image), pid, 0});
    proc_index_.emplace(std::string(cell), index);
  }
  last_cell_.assign(cell);
  last_proc_ = index;
  return index;
}

void PreciseRuns::Add(const Run& r) {
  if (chunks_.empty() || chunks_.back().size() == kChunkRuns) {
    if (!chunks_.empty()) SortChunk();
    // Grown by doubling (kChunkRuns is a power of two, so a full chunk has no spare room) rather
    // than reserved whole: a small export would take 2.6 MB it never fills.
    chunks_.emplace_back();
  }
  chunks_.back().push_back(r);
  ++runs_;
  first_us_ = std::min(first_us_, r.ready_us >= 0 ? r.in_us - r.ready_us : r.in_us);
}

void PreciseRuns::SortChunk() { std::sort(chunks_.back().begin(), chunks_.back().end(), Before); }

void PreciseRuns::SwitchAt(CpuAccounting* acc, int64_t t, int cpu, const Run* next, const IssueFn& issue) {
  CpuState& c = cpus_[static_cast<size_t>(cpu)];
  SwitchEvent e;  // from Idle unless a run is under way
  e.t_us = t;
  e.cpu = cpu;
  if (c.open && c.proc == kUnreadable) {
    e.old_tid = kUnreadableEndTid;
    ending_unreadable_ = true;
  } else if (c.open) {
    Proc& old = procs_[c.proc];
    e.old_tid = c.tid;
    e.old_pid = old.pid;
    e.old_process = old.image;
    --old.open;
  }
  if (next != nullptr && next->proc == kUnreadable) {
    e.new_tid = kUnreadableTid;  // pid 0: charged to no process
  } else if (next != nullptr) {
    Proc& p = procs_[next->proc];
    if (p.pid != 0) {
      auto [it, added] = owner_.try_emplace(p.pid, next->proc);
      if (!added && it->second != next->proc) {
        // Another image with this pid, while the one before has no run under way: the pid was
        // reused. (A process named two ways at once is not a reuse: it stays the first name's.)
        if (procs_[it->second].open == 0) {
          issue(next->line, "pid-reused",
                "pid " + std::to_string(p.pid) + " was " + procs_[it->second].image + " and is " + p.image + " from " +
                    Seconds(t) + ": the earlier process is taken as ended there");
          acc->ProcessEnd(t, p.pid);
          acc->ProcessStart(t, p.pid, p.image);
        }
        it->second = next->proc;
      }
      if (next->ready_us >= 0) acc->Ready(t - next->ready_us, next->tid);
    }
    e.new_tid = next->tid;
    e.new_pid = p.pid;
    e.new_process = p.image;
    ++p.open;
  }
  acc->Switch(e);
  ending_unreadable_ = false;
  c.open = next != nullptr;
  c.out_us = next != nullptr ? next->out_us : t;
  c.tid = next != nullptr ? next->tid : 0;
  c.proc = next != nullptr ? next->proc : 0;
}

int64_t PreciseRuns::Replay(CpuAccounting* acc, const IssueFn& issue) {
  if (!chunks_.empty()) SortChunk();
  // A k-way merge of the sorted chunks: each chunk's next run, earliest on top.
  using Head = std::pair<size_t, size_t>;  // chunk, position
  auto later = [this](const Head& a, const Head& b) {
    return Before(chunks_[b.first][b.second], chunks_[a.first][a.second]);
  };
  std::priority_queue<Head, std::vector<Head>, decltype(later)> heads(later);
  for (size_t k = 0; k < chunks_.size(); ++k)
    if (!chunks_[k].empty()) heads.emplace(k, 0);
  // The runs under way: (switch-out, CPU), earliest first. An entry whose CPU has since switched
  // to another run is stale and skipped.
  using Out = std::pair<int64_t, int>;
  std::priority_queue<Out, std::vector<Out>, std::greater<>> outs;
  auto idle_before = [&](int64_t t) {  // every run that ends before `t` with nothing after it
    while (!outs.empty() && outs.top().first < t) {
      const auto [out, cpu] = outs.top();
      outs.pop();
      const CpuState& c = cpus_[static_cast<size_t>(cpu)];
      if (c.open && c.out_us == out) SwitchAt(acc, out, cpu, nullptr, issue);
    }
  };
  int64_t last = 0;
  while (!heads.empty()) {
    Head h = heads.top();
    heads.pop();
    const Run r = chunks_[h.first][h.second];
    if (++h.second < chunks_[h.first].size()) {
      heads.push(h);
    } else {
      std::vector<Run>().swap(chunks_[h.first]);  // done with: its memory goes back at once
    }
    idle_before(r.in_us);
    const int cpu = static_cast<int>(r.cpu);
    if (cpus_.size() <= r.cpu) cpus_.resize(r.cpu + size_t{1});
    const CpuState& c = cpus_[r.cpu];
    if (c.open && c.out_us > r.in_us) {
      issue(r.line, "overlapping-run",
            "CPU " + std::to_string(cpu) + " runs thread " + std::to_string(r.tid) + " from " + Seconds(r.in_us) +
                ", but a run of thread " + std::to_string(c.tid) + " on it lasts until " + Seconds(c.out_us) +
                ": the rows overlap; this one is left out");
      continue;
    }
    SwitchAt(acc, r.in_us, cpu, &r, issue);
    outs.emplace(r.out_us, cpu);
    last = std::max(last, r.out_us);
  }
  idle_before(INT64_MAX);
  acc->End(last);
  chunks_.clear();
  runs_ = 0;
  return last;
}

}  // namespace vrecon::etw
