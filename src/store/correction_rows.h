// What StoreCorrections writes for each VM (its hour blocks of windows and its process hours,
// replacing those of the range it recomputed), held for many VMs and written together on
// PostgreSQL: two DELETEs for the batch instead of two a VM, and the rows (the VMs' own corr_vm
// rows among them) many to a statement (src/store/row_batch.h). A fleet round's correction was
// four to six statements a VM. On SQLite,
// where a statement costs no round trip, each goes at once as before.
#ifndef VRECON_SRC_STORE_CORRECTION_ROWS_H_
#define VRECON_SRC_STORE_CORRECTION_ROWS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <vector>

#include "src/store/correction_tables.h"
#include "src/store/row_batch.h"
#include "src/store/store.h"

namespace vrecon {

class CorrectionRows {
 public:
  static constexpr size_t kVmsPerFlush = 64;  // held at most: a few dozen KB of blocks a VM

  // The range every VM's stored windows and process hours are replaced in. Its end is an hour's
  // start (or unbounded) for the rows to be held. Its start may fall inside an hour (a fleet
  // round recomputes from the window before its new samples): that hour's stored windows before
  // it are kept, so the hour's process figures, sums over all its windows, cannot be given.
  CorrectionRows(Store* store, TimeNs from, TimeNs to);

  // The VM's corr_vm row written again; `id` is its row's, read in this transaction. Call before
  // its Replace.
  Status SaveVm(const CorrVm& vm, int64_t id);
  // The VM's windows starting in the range (those outside it are ignored) and its process hours
  // replace what it has stored there (on PostgreSQL at a Flush, which every kVmsPerFlush VMs do).
  // Process figures for the hour the range starts inside are an Internal error.
  Status Replace(int64_t vm_id, std::span<const StoredWindow> windows,
                 const std::vector<std::pair<TimeNs, std::vector<ProcessAggregate>>>& process_hours);
  // Writes what is held. Call before anything reads these VMs' stored windows or process hours,
  // and before the commit.
  Status Flush();

 private:
  Status JoinCutHour();

  Store* store_;
  TimeNs from_, to_;
  bool held_;                       // PostgreSQL
  std::optional<TimeNs> cut_hour_;  // the hour `from_` falls inside, when it does not start one
  std::vector<int64_t> replaced_;
  std::map<int64_t, std::vector<StoredWindow>> cut_;  // held VMs' new windows of cut_hour_
  RowBatch vms_, windows_, hours_;
};

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_CORRECTION_ROWS_H_
