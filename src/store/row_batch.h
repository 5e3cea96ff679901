// Rows of one INSERT held with their values and written many to a statement: on PostgreSQL a
// statement costs the server some 40 us beyond the rows it writes (docs/performance.md, "Several
// collectors at once"), and a fleet round writes a few rows for each of thousands of VMs. Nothing
// is written until Flush (the owner says when: after the DELETEs its rows must follow, say),
// then kRowsPerStatement rows to a statement and the rest in statements of 32, 16, ..., 1 rows
// (each size prepared once per connection). The rows of one statement must not meet on a key
// (ON CONFLICT cannot change a row twice): callers give each key once per Flush.
#ifndef VRECON_SRC_STORE_ROW_BATCH_H_
#define VRECON_SRC_STORE_ROW_BATCH_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "src/store/database.h"

namespace vrecon {

// Calls write(first, n) over rows [0, rows): runs of `most` (a power of two), then the largest
// power of two that fits, so that a table's statements come in few sizes.
Status WriteInRuns(size_t rows, size_t most, const std::function<Status(size_t first, size_t n)>& write);

class RowBatch {
 public:
  static constexpr size_t kRowsPerStatement = 64;
  struct Blob {
    std::string bytes;
  };
  using Value = std::variant<std::monostate, int64_t, double, std::string, Blob>;  // monostate: NULL

  // `head`: "INSERT INTO t(a, b, c) VALUES"; `tail`: what follows the rows (" ON CONFLICT ...",
  // without parameters); `columns`: values per row.
  RowBatch(Database* db, std::string head, std::string tail, int columns)
      : db_(db), head_(std::move(head)), tail_(std::move(tail)), columns_(columns) {}

  // One row, its values in column order (exactly `columns` of them), held until Flush.
  void Add(std::vector<Value> row);
  Status Flush();
  // Flush with `returning` (" RETURNING id, ...") after the tail: `each` is called with the
  // statement on each row it gives back.
  Status FlushReturning(const std::string& returning, const std::function<void(const Statement&)>& each);
  size_t held() const { return rows_.size(); }

 private:
  StatusOr<Statement*> InsertOf(size_t rows, const std::string& returning);
  Status Write(size_t first, size_t rows, const std::string& returning,
               const std::function<void(const Statement&)>* each);

  Database* db_;
  std::string head_, tail_;
  int columns_;
  std::vector<std::vector<Value>> rows_;
};

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_ROW_BATCH_H_
