// Stored Ready-Time summaries, kept up to date a day at a time (schema 11): per VM, source and
// UTC day one digest blob (corr_ready_day), and per VM and source the summary reports read with
// the digest of all its days (corr_ready.digest). The blobs are the engine's
// (src/engine/ready_digest_codec.h); the store keeps them as bytes. Callers hold a transaction.
#ifndef VRECON_SRC_STORE_READY_TABLES_H_
#define VRECON_SRC_STORE_READY_TABLES_H_

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "src/store/correction_tables.h"
#include "src/store/row_batch.h"

namespace vrecon {

// (vm_key, source) of every stored summary that has its total digest (rows from before schema
// 11 have none: their summary is rebuilt from all the samples kept); with `vm_keys`, of those VMs.
StatusOr<std::set<std::pair<std::string, std::string>>> ReadySummariesWithDigest(
    Store* store, const std::optional<std::set<std::string>>& vm_keys = std::nullopt);
// The total digest of a VM's source; nullopt without one.
StatusOr<std::optional<std::string>> LoadReadyTotal(Store* store, int64_t vm_id, const std::string& source);
// The day digests from `from_day` on, by day.
StatusOr<std::map<TimeNs, std::string>> LoadReadyDays(Store* store, int64_t vm_id, const std::string& source,
                                                      TimeNs from_day);
// What LoadReadyTotal and LoadReadyDays give, for several VMs in two queries (PostgreSQL's
// `vm_id = ANY(?)`; one VM at a time on SQLite, where a query costs no round trip): by (vm id,
// source), every source of the VMs that has a total; the days from `from_day` on.
struct StoredReadyDigests {
  std::optional<std::string> total;
  std::map<TimeNs, std::string> days;
};
StatusOr<std::map<std::pair<int64_t, std::string>, StoredReadyDigests>> LoadReadyDigests(
    Store* store, const std::vector<int64_t>& vm_ids, TimeNs from_day);
// Replaces the day digests from `from_day` on by `days`.
Status ReplaceReadyDays(Store* store, int64_t vm_id, const std::string& source, TimeNs from_day,
                        const std::map<TimeNs, std::string>& days);
// Writes a VM's summary of one source (r.source), with its total digest (r.digest).
Status UpsertReady(Store* store, int64_t vm_id, const StoredReady& r);
// The statements both functions write, for writers of many rows (src/store/ready_rows.h): a
// day digest's INSERT (vm id, source, day, digest), and a summary's upsert with its row.
RowBatch ReadyDayInsert(Database* db);
RowBatch ReadyUpsert(Database* db);
std::vector<RowBatch::Value> ReadyRow(int64_t vm_id, const StoredReady& r);

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_READY_TABLES_H_
