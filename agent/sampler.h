// Row assembly: adds the selected counters to a PDH query, collects, and turns each
// collection into one row of values for a column set that follows the instances PDH reports.
#ifndef VRECON_AGENT_SAMPLER_H_
#define VRECON_AGENT_SAMPLER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "agent/counter_selection.h"
#include "agent/pdh_api.h"
#include "src/core/status.h"

namespace vrecon::agent {

// Perfmon's names for the items of one array: duplicates get "#1", "#2", ... in array order
// ("svchost", "svchost#1"). Process V2 names ("svchost:1234") are unique and stay as they are.
std::vector<std::string> NameInstances(const std::vector<PdhItem>& items);

struct Column {
  size_t counter = 0;    // index into Sampler::counters()
  std::string instance;  // numbered instance name ("" for objects without instances)
  std::string path;      // the header cell: \\MACHINE\Object(instance)\Counter
};

struct SampleResult {
  std::vector<std::optional<double>> values;  // one per column, nullopt = " "
  bool columns_changed = false;               // new columns appeared: the file must start again (fixed header)
  PdhStatus collect_status = kPdhValidData;
  int missing_cells = 0;  // cells written as " " in this row
};

class Sampler {
 public:
  // local_machine names columns of counters without "\\MACHINE".
  Sampler(PdhApi& pdh, std::vector<CounterSpec> counters, std::string local_machine);
  ~Sampler();

  // Opens the query, adds every counter (English names) and makes the first collection, so the
  // first Sample() (the second collection) already has rate counters. A counter PDH refuses is
  // an error naming it, unless it is optional (then it is dropped and noted).
  Status Start(std::vector<std::string>* notes);
  // One collection -> one row. With refresh_columns (and always for the first row) the column
  // set follows the instances PDH reports now: new instances add columns (columns_changed);
  // instances that went away keep their column (" ") until columns change anyway, then go.
  // Per-counter and per-item PDH data errors become missing cells; nothing here aborts.
  SampleResult Sample(bool refresh_columns);
  void Stop();

  const std::vector<CounterSpec>& counters() const { return counters_; }
  const std::vector<Column>& columns() const { return columns_; }
  std::vector<std::string> HeaderPaths() const;

 private:
  std::string ColumnPath(const CounterSpec& spec, const std::string& instance) const;

  PdhApi& pdh_;
  std::vector<CounterSpec> counters_;
  std::vector<CounterHandle> handles_;
  std::string local_machine_;
  std::vector<Column> columns_;
  bool open_ = false;
};

}  // namespace vrecon::agent

#endif  // VRECON_AGENT_SAMPLER_H_
