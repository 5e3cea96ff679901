#include "adapters/linux_proc/proc_sampler.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "src/core/check.h"

namespace vrecon::linux_proc {

bool RealFileSystem::ReadFile(const std::string& path, std::string* out) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  out->clear();
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      ::close(fd);
      return false;
    }
    if (n == 0) break;
    out->append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return true;
}

std::vector<std::string> RealFileSystem::ListDir(const std::string& path) {
  std::vector<std::string> out;
  DIR* d = ::opendir(path.c_str());
  if (!d) return out;
  while (dirent* e = ::readdir(d)) {
    std::string_view n = e->d_name;
    if (n == "." || n == "..") continue;
    out.emplace_back(n);
  }
  ::closedir(d);
  return out;
}

long UserHz() {
  const long hz = ::sysconf(_SC_CLK_TCK);
  return hz > 0 ? hz : 100;
}

std::string HostName() {
  char b[256] = {};
  if (::gethostname(b, sizeof b - 1) != 0 || !b[0]) return "localhost";
  std::string h = b;
  if (const size_t dot = h.find('.'); dot != std::string::npos && dot > 0) h.resize(dot);
  return h;
}

std::string ProcessInstance(std::string_view comm, int64_t pid) {
  std::string s;
  s.reserve(comm.size() + 8);
  for (char c : comm) {
    switch (c) {
      case '(': s += '['; break;
      case ')': s += ']'; break;
      case '/':
      case '\\':
      case '#': s += '_'; break;
      default: s += (static_cast<unsigned char>(c) < 0x20 || c == '"') ? '_' : c;
    }
  }
  s += ':';
  s += std::to_string(pid);
  return s;
}

ProcSampler::ProcSampler(FileSystem* fs, ProcSamplerOptions options) : fs_(fs), opt_(std::move(options)) {
  if (opt_.user_hz <= 0) opt_.user_hz = 100;
  cpu_counters_ = opt_.per_cpu_detail ? 4 : 2;
}

SeriesKey ProcSampler::Key(const std::string& object, const std::string& instance, const std::string& counter) const {
  SeriesKey k;
  k.source = SourceKind::kGuest;
  k.machine = opt_.machine;
  k.object = object;
  k.instance = instance;
  k.counter = counter;
  k.unit = "percent";
  k.original = "\\\\" + opt_.machine + "\\" + object + "(" + instance + ")\\" + counter;
  return k;
}

std::map<int64_t, ProcSampler::Proc> ProcSampler::ReadProcesses() {
  // Every numeric entry of /proc. One that vanishes between the listing and the read has exited:
  // it is simply not seen.
  std::map<int64_t, Proc> now;
  for (const std::string& name : fs_->ListDir(opt_.proc)) {
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    if (!fs_->ReadFile(opt_.proc + "/" + name + "/stat", &scratch_)) continue;
    std::optional<PidStat> p = ParsePidStat(scratch_);
    if (!p) continue;
    Proc& q = now[p->pid];
    q.instance = ProcessInstance(p->comm, p->pid);
    q.starttime = p->starttime;
    q.cpu = p->utime + p->stime;
    q.seen_tick = tick_;
  }
  return now;
}

std::map<std::string, double> ProcSampler::ProcessRates(const std::map<int64_t, Proc>& before, double elapsed_s) const {
  std::map<std::string, double> rates;
  for (const auto& [pid, q] : procs_) {
    auto it = before.find(pid);
    if (it == before.end() || it->second.starttime != q.starttime || q.cpu < it->second.cpu) continue;
    rates[q.instance] =
        static_cast<double>(q.cpu - it->second.cpu) / (static_cast<double>(opt_.user_hz) * elapsed_s) * 100.0;
  }
  return rates;
}

bool ProcSampler::ColumnsChanged(const std::vector<int>& cpu_ids, const std::map<std::string, double>& rates) const {
  // Again when a CPU or a process with a value is not declared yet, or when too many declared
  // processes have exited (their columns would only carry missing values).
  if (columns_.empty()) return true;
  for (int id : cpu_ids)
    if (std::find(cpu_ids_.begin(), cpu_ids_.end(), id) == cpu_ids_.end()) return true;
  for (const auto& [inst, v] : rates)
    if (!proc_column_.contains(inst)) return true;
  const size_t dead = proc_column_.size() - std::min(proc_column_.size(), rates.size());
  return dead > std::max<size_t>(16, proc_column_.size() / 4);
}

Status ProcSampler::DeclareColumns(const std::vector<int>& cpu_ids, const std::map<std::string, double>& rates,
                                   SampleSink* sink) {
  columns_.clear();
  cpu_ids_ = cpu_ids;
  proc_column_.clear();
  for (int id : cpu_ids_) {
    const std::string inst = id < 0 ? "_Total" : std::to_string(id);
    columns_.push_back(Key("Processor", inst, "% Processor Time"));
    columns_.push_back(Key("Processor", inst, "% Steal Time"));
    if (opt_.per_cpu_detail) {
      columns_.push_back(Key("Processor", inst, "% User Time"));
      columns_.push_back(Key("Processor", inst, "% Privileged Time"));
    }
  }
  for (const auto& [inst, v] : rates) {
    proc_column_[inst] = static_cast<int>(columns_.size());
    columns_.push_back(Key("Process", inst, "% Processor Time"));
  }
  return sink->DeclareColumns(columns_);
}

namespace {

// A CPU's times by id (-1 = _Total).
const CpuTimes* FindCpu(const ProcStat& s, int id) {
  if (id < 0) return s.total ? &*s.total : nullptr;
  for (const CpuTimes& c : s.cpus)
    if (c.cpu == id) return &c;
  return nullptr;
}

}  // namespace

void ProcSampler::FillRow(const std::optional<ProcStat>& prev, const std::map<std::string, double>& rates) {
  row_.assign(columns_.size(), kMissing);
  for (size_t i = 0; i < cpu_ids_.size(); ++i) {
    const CpuTimes* a = prev ? FindCpu(*prev, cpu_ids_[i]) : nullptr;
    const CpuTimes* b = FindCpu(*prev_stat_, cpu_ids_[i]);
    if (!a || !b || b->Total() <= a->Total()) continue;
    // A counter that went backwards (CPU hot-plugged back) gives no value.
    if (b->Busy() < a->Busy() || b->steal < a->steal || b->user + b->nice < a->user + a->nice) continue;
    const double total = static_cast<double>(b->Total() - a->Total());
    double* r = &row_[i * cpu_counters_];
    r[0] = 100.0 * static_cast<double>(b->Busy() - a->Busy()) / total;
    if (b->fields >= 8) r[1] = 100.0 * static_cast<double>(b->steal - a->steal) / total;
    if (opt_.per_cpu_detail) {
      r[2] = 100.0 * static_cast<double>((b->user + b->nice) - (a->user + a->nice)) / total;
      const uint64_t ka = a->system + a->irq + a->softirq, kb = b->system + b->irq + b->softirq;
      if (kb >= ka) r[3] = 100.0 * static_cast<double>(kb - ka) / total;
    }
  }
  for (const auto& [inst, v] : rates) {
    const auto column = proc_column_.find(inst);
    VRECON_CHECK(column != proc_column_.end());  // a new instance declared the columns again
    row_[column->second] = v;
  }
}

Status ProcSampler::Tick(TimeNs wall, TimeNs mono, SampleSink* sink, TickStats* stats) {
  TickStats local;
  TickStats& ts = stats ? *stats : local;
  ts = TickStats{};
  if (!fs_->ReadFile(opt_.proc + "/stat", &scratch_)) return Status::IOError("cannot read " + opt_.proc + "/stat");
  std::optional<ProcStat> st = ParseProcStat(scratch_);
  if (!st) return Status::InvalidArgument(opt_.proc + "/stat holds no cpu line");
  std::map<int64_t, Proc> now = ReadProcesses();
  ts.processes = static_cast<int>(now.size());
  ++tick_;

  // This reading becomes the one the next tick's rates start from.
  const bool first = !primed_;
  const double elapsed = static_cast<double>(mono - prev_mono_) / kNsPerSec;
  std::optional<ProcStat> prev = std::move(prev_stat_);
  std::map<int64_t, Proc> before = std::move(procs_);
  const TimeNs start = prev_wall_;
  prev_stat_ = std::move(st);
  procs_ = std::move(now);
  prev_wall_ = wall;
  prev_mono_ = mono;
  primed_ = true;
  if (first || elapsed <= 0 || wall <= start) return Status::Ok();

  std::vector<int> cpu_ids;
  if (prev_stat_->total) cpu_ids.push_back(-1);
  for (const CpuTimes& c : prev_stat_->cpus) cpu_ids.push_back(c.cpu);
  const std::map<std::string, double> rates = ProcessRates(before, elapsed);
  if (ColumnsChanged(cpu_ids, rates)) {
    RETURN_IF_ERROR(DeclareColumns(cpu_ids, rates, sink));
    ts.redeclared = true;
  }
  FillRow(prev, rates);
  ts.columns = static_cast<int>(columns_.size());
  return sink->AddRow(start, wall, row_);
}

}  // namespace vrecon::linux_proc
