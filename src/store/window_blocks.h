// Stored correction windows, one row per VM and UTC hour (schema migration 5, docs/storage.md
// "corr_window_block"). A report over 1,000 VMs x 7 days reads 168,000 rows instead of 2 million
// rows of 14 columns: SQLite's per-row and per-column work was two thirds of a CSV report's time.
// Hours, not days: the fleet round re-stores the last hour or two every few minutes, and a
// rewritten block is read, merged and written whole.
#ifndef VRECON_SRC_STORE_WINDOW_BLOCKS_H_
#define VRECON_SRC_STORE_WINDOW_BLOCKS_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "src/core/status.h"
#include "src/core/time_util.h"
#include "src/store/correction_tables.h"
#include "src/store/row_batch.h"
#include "src/store/store.h"

namespace vrecon {

// A block's bytes: u8 format version (1 or 2), then per window, little-endian: i64 start_ns,
// i64 end_ns, u8 presence mask (bit 0 vcpus, bits 1-7 guest_util, host_util, w, steal, ready,
// costop, clock_offset_s), in version 2 a second u8 presence mask (bit 0 guest_utility), i32
// vcpus if present, f64 for each other present field in that order (the first mask's, then the
// second's), f64 guest_cov, f64 host_cov, u32 length and the flags as EncodeFlags text. A block
// none of whose windows has a field of the second mask is written as version 1, as before it
// existed, so a store without them stays readable by an older vrecon.
std::string EncodeWindowBlock(std::span<const StoredWindow> windows);
// Calls fn for each window of the block in order (the window object is reused between calls);
// stops early when fn returns false. A truncated or unknown block gives ParseError.
Status DecodeWindowBlock(std::string_view block, const std::function<bool(const StoredWindow&)>& fn);

// The error for a block that does not decode: which VM and hour, and how to rebuild it.
Status CorruptWindowBlock(Database* db, int64_t vm_id, int64_t hour, const Status& why);

// One hour block's statement (for the backend) and its row (`windows`: not empty, in start
// order), for writers of one block or many (src/store/correction_rows.h).
RowBatch WindowBlockWrite(Database* db);
std::vector<RowBatch::Value> WindowBlockRow(int64_t vm_id, TimeNs hour, std::span<const StoredWindow> windows);

// The windows starting in [from, to) added to `hours` by UTC hour (with what each hour holds),
// each hour in start order with one window per start (the last given).
void AddByHour(std::span<const StoredWindow> windows, TimeNs from, TimeNs to,
               std::map<TimeNs, std::vector<StoredWindow>>* hours);

// Replaces the VM's windows that start in [from, to) by `windows` (sorted by start; those
// starting outside [from, to) are ignored). Windows outside the range, in the same hour blocks,
// are kept. The caller holds a transaction.
Status ReplaceCorrWindows(Store* store, int64_t vm_id, TimeNs from, TimeNs to, std::span<const StoredWindow> windows);

// Streams the VM's windows overlapping [from, to) in time order; the callback may stop by
// returning false.
Status ForEachCorrWindow(Store* store, int64_t vm_id, TimeNs from, TimeNs to,
                         const std::function<bool(const StoredWindow&)>& fn);
StatusOr<int64_t> CountCorrWindows(Store* store);
// The end of each given VM's last stored window, by corr_vm id (a VM with none is left out).
StatusOr<std::map<int64_t, TimeNs>> CorrWindowReach(Store* store, const std::vector<int64_t>& vm_ids);
// The length of a window in the block written last (what the stored corrections were last
// computed with: a new row takes the largest rowid); nullopt when none is stored.
StatusOr<std::optional<TimeNs>> NewestCorrWindowLength(Store* store);

// Migration 5: moves the rows of the version-3 `corr_window` table into hour blocks and drops it.
Status MoveCorrWindowsIntoBlocks(Database* db);

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_WINDOW_BLOCKS_H_
