// What the many small files of one transaction share on PostgreSQL (a collector's batch of VMs,
// a file each): the ids of all their machines' series looked up in one query; time block ids
// drawn from the table's sequence many at a time (kept by the connection between batches), so
// that a block's INSERT needs no answer; and the rows of all the files held and written many to
// a statement (time blocks, value blocks, import issues, the files' own rows written again),
// since a statement costs the server more than the few rows a collector writes per VM. Each
// file's BlockWriter is handed it (BlockWriter::set_ahead). On SQLite, where a query costs no
// round trip, it looks nothing up, draws no id and holds nothing: the writers go as they do alone.
#ifndef VRECON_SRC_STORE_WRITE_AHEAD_H_
#define VRECON_SRC_STORE_WRITE_AHEAD_H_

#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "src/store/row_batch.h"
#include "src/store/store.h"
#include "src/store/value_rows.h"

namespace vrecon {

class WriteAhead {
 public:
  static constexpr int kIdsPerDraw = 128;
  static constexpr size_t kSeriesPerInsert = 64;

  explicit WriteAhead(Store* store);
  // The stored series of the (source, machine, entity) groups of `columns`.
  Status LoadSeries(const std::vector<SeriesKey>& columns);
  // After LoadSeries: adds the series of `columns` the store does not have yet in multi-row
  // INSERTs (a new VM's forty series were eighty round trips), which give the new rows' ids back;
  // a series another writer added meanwhile is looked up.
  Status AddMissing(const std::vector<SeriesKey>& columns);
  // The stored ids of `columns` by BlockWriter::SeriesName when every group of them was loaded
  // (a column without one is new); nullopt otherwise.
  std::optional<std::map<std::string, int64_t>> Known(const std::vector<SeriesKey>& columns) const;
  // The id for a new time block; nullopt on SQLite (its INSERT gives it).
  StatusOr<std::optional<int64_t>> NextBlockId();
  // A time block with an id from NextBlockId (PostgreSQL), held. PostgreSQL's value_block is
  // partitioned and has no foreign key to it: its rows may go out first, within the transaction.
  Status AddTimeBlock(int64_t id, int64_t file_id, std::span<const TimeNs> starts, std::span<const TimeNs> ends);
  // The files' value_block rows, written together (PostgreSQL).
  ValueRows* value_rows() { return &value_rows_; }
  // A file's issues, and its row written again (it must have an id): held on PostgreSQL, written
  // at once on SQLite.
  Status AddIssues(int64_t file_id, const std::vector<ImportIssue>& issues);
  Status SaveFile(FileRecord* file);
  // Writes all that is held. Call before the commit.
  Status Flush();

 private:
  using Group = std::tuple<SourceKind, std::string, std::string>;  // source, machine, entity
  Store* store_;
  std::set<Group> loaded_;
  std::map<std::string, int64_t> ids_;  // by SeriesName
  bool held_;                           // PostgreSQL
  RowBatch time_blocks_, issues_, files_;
  std::set<int64_t> held_files_;  // ids in files_
  ValueRows value_rows_;
};

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_WRITE_AHEAD_H_
