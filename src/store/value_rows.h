// value_block rows on their way to the store. PostgreSQL spends some 40 us of server CPU on each
// statement beyond the rows it writes (docs/performance.md, "Several collectors at once"), so
// there rows are held and written kRowsPerInsert to an INSERT, and what is left at Flush goes out
// in statements of 64, 32, ..., 1 rows (each size prepared once per connection): a collector's
// VM of five series is one or two statements, not five. SQLite, where a statement costs nothing
// beyond its work, writes each row at once.
#ifndef VRECON_SRC_STORE_VALUE_ROWS_H_
#define VRECON_SRC_STORE_VALUE_ROWS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/core/time_util.h"
#include "src/store/database.h"

namespace vrecon {

class ValueRows {
 public:
  static constexpr size_t kRowsPerInsert = 128;

  explicit ValueRows(Database* db) : db_(db), held_(db->backend() == Backend::kPostgres) {}

  // One block of one series: `bytes` of `vals`. `block_end` is the time block's last end
  // (PostgreSQL's partition key; its month's partition must exist by Flush). Held rows keep a
  // copy of the values unless `borrowed`: the caller then keeps them unchanged until its next
  // Flush (a writer's own rows: no copy of a large log's every value).
  Status Add(int64_t series_id, int64_t block_id, int64_t present, const double* vals, size_t bytes, TimeNs block_end,
             bool borrowed = false);
  // Writes the rows held. Call before the transaction commits.
  Status Flush();
  size_t held() const { return rows_.size(); }

 private:
  struct Row {
    int64_t series_id = 0, block_id = 0, present = 0;
    TimeNs block_end = 0;
    std::string_view borrowed;  // the caller's values, or empty with `copy` holding them
    std::string copy;
    std::string_view bytes() const { return copy.empty() ? borrowed : std::string_view(copy); }
  };
  // The INSERT of `rows` rows (1 to kRowsPerInsert).
  StatusOr<Statement*> InsertOf(size_t rows);
  Status Write(size_t first, size_t rows);

  Database* db_;
  bool held_;  // PostgreSQL: rows are held and written many to a statement
  std::vector<Row> rows_;
};

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_VALUE_ROWS_H_
