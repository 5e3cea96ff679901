// The Ready-Time summaries' writes of many VMs held and written together on PostgreSQL (as
// src/store/correction_rows.h does for the windows): the day digests' DELETEs one per batch and
// first day, the days and the summaries many rows to a statement. On SQLite each goes at once
// (ReplaceReadyDays, UpsertReady).
#ifndef VRECON_SRC_STORE_READY_ROWS_H_
#define VRECON_SRC_STORE_READY_ROWS_H_

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "src/store/ready_tables.h"
#include "src/store/row_batch.h"

namespace vrecon {

class ReadyRows {
 public:
  explicit ReadyRows(Store* store);
  // ReplaceReadyDays and UpsertReady, held on PostgreSQL until Flush.
  Status ReplaceDays(int64_t vm_id, const std::string& source, TimeNs from_day,
                     const std::map<TimeNs, std::string>& days);
  Status Upsert(int64_t vm_id, const StoredReady& r);
  // Call before anything reads these VMs' summaries or days, and before the commit.
  Status Flush();

 private:
  Store* store_;
  bool held_;                                                                // PostgreSQL
  std::map<TimeNs, std::vector<std::pair<int64_t, std::string>>> replaced_;  // first day -> (vm id, source)
  std::set<std::pair<int64_t, std::string>> seen_;                           // with days held
  std::set<std::pair<int64_t, std::string>> summarised_;                     // with a summary held
  RowBatch days_, summaries_;
};

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_READY_ROWS_H_
