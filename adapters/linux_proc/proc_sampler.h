// Samples /proc at an interval and emits guest rows into a SampleSink, with the counter names a
// Windows guest uses where the meaning matches:
//   Processor(n)\% Processor Time, Processor(_Total)\% Processor Time  (user+nice+system+irq+softirq)
//   Processor(n)\% Steal Time, Processor(_Total)\% Steal Time
//   Processor(n)\% User Time (user+nice), Processor(n)\% Privileged Time (system+irq+softirq)
//   Process(comm:pid)\% Processor Time  ((utime+stime) delta / (USER_HZ x seconds) x 100: % of ONE CPU)
// The first Tick only primes (rates need two readings); each later Tick emits one row over
// [previous tick, this tick]. A process gets a value from its second reading on; a process that
// exited (or whose pid was reused, told by its starttime) has a missing value, never 0. Columns
// are declared again when processes with values appear, or when exited ones pile up.
// /proc access goes through FileSystem so tests use an in-memory fake.
#ifndef VRECON_ADAPTERS_LINUX_PROC_PROC_SAMPLER_H_
#define VRECON_ADAPTERS_LINUX_PROC_PROC_SAMPLER_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "adapters/linux_proc/proc_pid_stat_parser.h"
#include "adapters/linux_proc/proc_stat_parser.h"
#include "src/core/sample_sink.h"

namespace vrecon::linux_proc {

class FileSystem {
 public:
  virtual ~FileSystem() = default;
  // Whole file; false when it cannot be read (a process that just exited).
  virtual bool ReadFile(const std::string& path, std::string* out) = 0;
  // Entry names of a directory (no "." or ".."); empty when it cannot be read.
  virtual std::vector<std::string> ListDir(const std::string& path) = 0;
};

// The real /proc (read with open/read: procfs files report size 0).
class RealFileSystem : public FileSystem {
 public:
  bool ReadFile(const std::string& path, std::string* out) override;
  std::vector<std::string> ListDir(const std::string& path) override;
};

// sysconf(_SC_CLK_TCK), 100 when unknown.
long UserHz();
// gethostname(), without a domain suffix.
std::string HostName();

// Process instance name as PDH would print it: "comm:pid", with '(' ')' turned into '[' ']' (as
// Windows does for instance names) and '/', '\', '#' into '_' (they mean parent, path and slot
// index in a counter path).
std::string ProcessInstance(std::string_view comm, int64_t pid);

struct ProcSamplerOptions {
  std::string machine;  // counter-path machine name (the host name)
  long user_hz = 100;   // clock ticks per second of /proc/[pid]/stat times
  std::string proc = "/proc";
  bool per_cpu_detail = true;  // also % User Time / % Privileged Time
};

struct TickStats {
  int processes = 0;  // /proc/[pid]/stat read this tick
  int columns = 0;    // columns of the row emitted (0 on the priming tick)
  bool redeclared = false;
};

class ProcSampler {
 public:
  ProcSampler(FileSystem* fs, ProcSamplerOptions options);

  // wall: UTC time of the reading (row times); mono: a monotonic clock (the elapsed time
  // rates are divided by). A /proc/stat that cannot be read or parsed is an error.
  Status Tick(TimeNs wall, TimeNs mono, SampleSink* sink, TickStats* stats = nullptr);
  bool primed() const { return primed_; }

 private:
  struct Proc {
    std::string instance;
    uint64_t starttime = 0;
    uint64_t cpu = 0;  // utime + stime
    int64_t seen_tick = -1;
  };
  SeriesKey Key(const std::string& object, const std::string& instance, const std::string& counter) const;
  // The steps of a Tick. ReadProcesses: every process of /proc now, by pid.
  std::map<int64_t, Proc> ReadProcesses();
  // Each process's CPU since `before` (% of one CPU), by instance; not for one that started again.
  std::map<std::string, double> ProcessRates(const std::map<int64_t, Proc>& before, double elapsed_s) const;
  // Whether the columns must be declared again for these CPUs (-1 = _Total) and processes.
  bool ColumnsChanged(const std::vector<int>& cpu_ids, const std::map<std::string, double>& rates) const;
  Status DeclareColumns(const std::vector<int>& cpu_ids, const std::map<std::string, double>& rates, SampleSink* sink);
  // row_ from the two /proc/stat readings and the processes' rates.
  void FillRow(const std::optional<ProcStat>& prev, const std::map<std::string, double>& rates);

  FileSystem* fs_;
  ProcSamplerOptions opt_;
  bool primed_ = false;
  int64_t tick_ = 0;
  TimeNs prev_wall_ = 0, prev_mono_ = 0;
  std::optional<ProcStat> prev_stat_;
  std::map<int64_t, Proc> procs_;  // pid -> last reading

  // Declared columns: fixed CPU columns, then one per process instance.
  std::vector<SeriesKey> columns_;
  std::vector<int> cpu_ids_;                // declared CPUs (-1 = _Total), in column order
  int cpu_counters_ = 0;                    // columns per CPU
  std::map<std::string, int> proc_column_;  // instance -> column
  std::vector<double> row_;
  std::string scratch_;
};

}  // namespace vrecon::linux_proc

#endif  // VRECON_ADAPTERS_LINUX_PROC_PROC_SAMPLER_H_
