// Stored corrections (schema migration 3, docs/storage.md "Stored corrections"): what
// `StoreCorrections` writes and `vrecon report` reads: each window's figures and flags (per VM
// and day since migration 5: window_blocks.h); per VM and UTC hour one blob of process
// aggregates (a row per process and window would be 100 M rows for 1,000 VMs x 7 days); per VM
// the Ready-Time summary.
// Plain structs: the store does not depend on models/.
#ifndef VRECON_SRC_STORE_CORRECTION_TABLES_H_
#define VRECON_SRC_STORE_CORRECTION_TABLES_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "src/core/severity.h"
#include "src/core/status.h"
#include "src/core/time_util.h"
#include "src/store/row_batch.h"
#include "src/store/store.h"

namespace vrecon {

struct CorrVm {
  int64_t id = 0;
  std::string vm, guest_machine;
  std::string host_source;  // hyperv | vsphere | esxtop | vmtools | none
  std::optional<int> vcpus;
  std::string vm_key;        // unique: the VM's identity (src/engine/vm_directory.h)
  std::string vm_source;     // what tells it from another VM of its name ("vc01.example", "hv01 -> hv02")
  std::string host_counter;  // the host-side counter of its windows ("cpu.usage.average", "% Total Run Time", ...)
};

struct StoredFlag {
  std::string code;
  Severity severity = Severity::kWarning;
  std::string message;
};

struct StoredWindow {
  TimeNs start = 0, end = 0;
  std::optional<int> vcpus;
  std::optional<double> guest_util, host_util, w, steal, ready, costop, clock_offset_s;
  double guest_cov = 0, host_cov = 0;
  std::vector<StoredFlag> flags;
  // Processor Information(_Total) % Processor Utility: frequency-scaled, never divided by w.
  std::optional<double> guest_utility;
};

// One process over some windows: sums, so hours merge by adding. The mean corrected value's
// 95% half-width is sqrt(sum_hw2) / n_corr (windows' errors independent).
struct ProcessAggregate {
  std::string name;
  int64_t n_guest = 0, n_corr = 0;
  double sum_guest = 0, sum_corr = 0, sum_hw2 = 0;
  // Windows corrected from an ETW trace (models/event_correction.h): how many, their bottleneck
  // and mean queue time sums, the largest queue p95, and where Perfmon had the same process, its
  // figure and the trace's summed over those windows (n_paired).
  int64_t n_events = 0, n_bottleneck = 0, n_queue = 0, n_paired = 0;
  double sum_bottleneck = 0, sum_queue_ms = 0, sum_sampled = 0, sum_paired_events = 0;
  std::optional<double> max_queue_p95;
  void Add(const ProcessAggregate& o);
  std::optional<double> MeanGuest() const;
  std::optional<double> MeanCorrected() const;
  std::optional<double> HalfWidth95() const;
  // "events" when every window with a guest figure came from a trace, "samples" when none did,
  // "mixed" otherwise.
  const char* Basis() const;
  std::optional<double> MeanBottleneck() const;
  std::optional<double> MeanQueueMs() const;
  std::optional<double> MeanSampled() const;       // Perfmon's, over the paired windows
  std::optional<double> MeanPairedEvents() const;  // the trace's, over the same windows
};

struct StoredReady {
  std::string source, host;
  std::optional<int> vcpus;
  int64_t samples = 0;
  std::optional<double> ready_mean, ready_p95, ready_above_5, ready_above_10;
  std::optional<double> costop_mean, costop_p95, costop_above_3;
  std::optional<double> run_mean, wait_mean, usage_mean;
  std::optional<double> wait_dispatch_us_mean, wait_dispatch_us_p95;
  std::optional<double> host_load_mean, host_load_p95;
  std::vector<StoredFlag> hints;
  std::string digest;  // what it was made from (src/store/ready_tables.h); UpsertReady writes it, LoadReady leaves it
};

// Flags as text, one per line: "severity<TAB>code<TAB>message"; tabs and newlines inside a
// message become spaces.
std::string EncodeFlags(const std::vector<StoredFlag>& flags);
std::vector<StoredFlag> DecodeFlags(std::string_view text);
// Process aggregates as one blob: per process a little-endian u16 name length, the UTF-8 name,
// i64 n_guest, i64 n_corr, f64 sum_guest, f64 sum_corr, f64 sum_hw2. Corrupt blob -> ParseError.
std::string EncodeProcesses(const std::vector<ProcessAggregate>& procs);
StatusOr<std::vector<ProcessAggregate>> DecodeProcesses(std::string_view blob);

// Writing (callers hold a transaction).
// The VM's row, added or written again, and its id (one statement). Writers of VMs whose ids
// they know hold the rows instead (CorrectionRows::SaveVm).
StatusOr<int64_t> UpsertCorrVm(Store* store, const CorrVm& vm);
// Several VMs' rows (distinct vm_keys) in as few statements, and their ids by vm_key.
StatusOr<std::map<std::string, int64_t>> UpsertCorrVms(Store* store, const std::vector<CorrVm>& vms);
// Its statement and row, for writers of many (src/store/correction_rows.h).
RowBatch CorrVmUpsert(Database* db);
std::vector<RowBatch::Value> CorrVmRow(const CorrVm& vm);
// The stored row of a VM written again only where its values differ: `stored_at` tells when the
// row was added or last changed, not when the VM's windows were last stored. As the statement for
// writers of many, and for one VM.
RowBatch CorrVmRewrite(Database* db);
Status RewriteCorrVm(Store* store, const CorrVm& vm);
// Deletes the VM's process hours that start in [from, to) (windows: ReplaceCorrWindows in
// window_blocks.h).
Status DeleteProcessHours(Store* store, int64_t vm_id, TimeNs from, TimeNs to);
Status InsertProcessHour(Store* store, int64_t vm_id, TimeNs hour, const std::vector<ProcessAggregate>& procs);
// Its statement and row, for writers of many (src/store/correction_rows.h).
RowBatch ProcessHourUpsert(Database* db);
std::vector<RowBatch::Value> ProcessHourRow(int64_t vm_id, TimeNs hour, const std::vector<ProcessAggregate>& procs);

// Reading.
// Every stored VM by name and vm_key; with `vm_keys`, only those (a fleet round's: in a store
// shared by several collectors the others' rows are not read).
StatusOr<std::vector<CorrVm>> ListCorrVms(Store* store,
                                          const std::optional<std::set<std::string>>& vm_keys = std::nullopt);
// Series stored from samples (0: nothing was ingested or collected).
StatusOr<int64_t> CountSeries(Store* store);
// Process aggregates of the hours overlapping [from, to), merged per process, largest mean
// corrected (else guest) first.
StatusOr<std::vector<ProcessAggregate>> LoadProcessAggregates(Store* store, int64_t vm_id, TimeNs from, TimeNs to);
// The VM's process hours that start in [from, to), merged per UTC day and process (without what
// ETW traces add): a process's growth day by day (`vrecon capacity`'s growth drivers).
StatusOr<std::map<TimeNs, std::vector<ProcessAggregate>>> LoadProcessDays(Store* store, int64_t vm_id, TimeNs from,
                                                                          TimeNs to);
StatusOr<std::vector<StoredReady>> LoadReady(Store* store, int64_t vm_id);
// Every VM's summaries in one read: corr_vm id -> its summaries by source.
StatusOr<std::multimap<int64_t, StoredReady>> LoadAllReady(Store* store);

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_CORRECTION_TABLES_H_
