// What the many small files of one transaction share on PostgreSQL (a collector's batch of VMs,
// a file each): the ids of all their machines' series looked up in one query, and time block ids
// drawn from the table's sequence many at a time (kept by the connection between batches), so that a block's INSERT
// needs no answer and goes out without waiting (pipelined, src/store/postgres/pg_database.h), and their value_block
// rows written many to a statement. Each file's BlockWriter
// is handed it (BlockWriter::set_ahead). On SQLite, where a query costs no round trip, it looks
// nothing up and draws no id, and the writers go as they do alone.
#ifndef VRECON_SRC_STORE_WRITE_AHEAD_H_
#define VRECON_SRC_STORE_WRITE_AHEAD_H_

#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "src/store/store.h"
#include "src/store/value_rows.h"

namespace vrecon {

class WriteAhead {
 public:
  static constexpr int kIdsPerDraw = 128;
  static constexpr size_t kSeriesPerInsert = 64;

  explicit WriteAhead(Store* store) : store_(store), value_rows_(store->db()) {}
  // The stored series of the (source, machine, entity) groups of `columns`.
  Status LoadSeries(const std::vector<SeriesKey>& columns);
  // After LoadSeries: adds the series of `columns` the store does not have yet in multi-row
  // INSERTs (a new VM's forty series were eighty round trips), then looks their groups up again,
  // which also finds any another writer added meanwhile.
  Status AddMissing(const std::vector<SeriesKey>& columns);
  // The stored ids of `columns` by BlockWriter::SeriesName when every group of them was loaded
  // (a column without one is new); nullopt otherwise.
  std::optional<std::map<std::string, int64_t>> Known(const std::vector<SeriesKey>& columns) const;
  // The id for a new time block; nullopt on SQLite (its INSERT gives it).
  StatusOr<std::optional<int64_t>> NextBlockId();
  // The files' value_block rows, written together (PostgreSQL); Flush before the commit.
  ValueRows* value_rows() { return &value_rows_; }
  Status Flush() { return value_rows_.Flush(); }

 private:
  using Group = std::tuple<SourceKind, std::string, std::string>;  // source, machine, entity
  Store* store_;
  std::set<Group> loaded_;
  std::map<std::string, int64_t> ids_;  // by SeriesName
  ValueRows value_rows_;
};

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_WRITE_AHEAD_H_
