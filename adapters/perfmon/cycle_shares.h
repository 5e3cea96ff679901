// Cycle counts into shares (issue 39 part 3, seed 004): a SampleSink between the Perfmon reader
// and its sink that passes every column on and, for a log with the agent's `cycles` columns
// (src/core/cycle_columns.h), adds each process's share of all cycles charged in the row's
// interval, x 100 x processors (`vrecon Process Cycles(name:pid)\% Cycles`, % of one CPU as Process\%
// Processor Time is), and the busy share of all processors (`vrecon Processor Cycles(_Total)\%
// Cycles`, % of all CPUs as Processor(_Total) is). A share needs the counts of the row before:
// the first row of a log (or of a new column set) and a process's first row have none; a row
// after a failed read spans both intervals. On ARM64 before build 26100 idle cycles read too low
// (the core's counter stops in its idle wait), so no share is made there and an issue says why.
#ifndef VRECON_ADAPTERS_PERFMON_CYCLE_SHARES_H_
#define VRECON_ADAPTERS_PERFMON_CYCLE_SHARES_H_

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "src/core/sample_sink.h"

namespace vrecon::perfmon {

class CycleShares : public SampleSink {
 public:
  CycleShares(SampleSink* out, std::string file) : out_(out), file_(std::move(file)) {}
  Status DeclareColumns(const std::vector<SeriesKey>& columns) override;
  Status AddRow(TimeNs start, TimeNs end, std::span<const double> values) override;
  void AddIssue(ImportIssue issue) override { out_->AddIssue(std::move(issue)); }
  void AddClockEvent(ClockRecord event) override { out_->AddClockEvent(std::move(event)); }
  // A row an earlier ingest stored, re-read on a resumed ingest: its counts are the base of the
  // next row's shares.
  void Remember(std::span<const double> values);

 private:
  // One machine's cycle columns (a log may hold several machines), by index in the row.
  struct Machine {
    std::string name;
    std::vector<size_t> processes, idle;
    std::optional<size_t> total, build, arch;
    double last_build = 0, last_arch = 0;  // the last seen (a failed read leaves them blank)
    size_t shares_at = 0;                  // where its shares start in row_: processes', then _Total
    bool refused_told = false;
  };
  bool Refused(Machine* m, std::span<const double> values);
  void AddShares(Machine* m, std::span<const double> values);
  void KeepCounts(std::span<const double> values);

  SampleSink* out_;
  std::string file_;
  std::vector<Machine> machines_;  // empty: the log has no cycle columns and rows pass as they are
  std::vector<double> prev_;       // each column's last value read (NaN before the first)
  std::vector<double> row_;        // the row passed on: the values, then the shares
};

}  // namespace vrecon::perfmon

#endif  // VRECON_ADAPTERS_PERFMON_CYCLE_SHARES_H_
