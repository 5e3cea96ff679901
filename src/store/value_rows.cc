#include "src/store/value_rows.h"

#include "src/store/row_batch.h"

namespace vrecon {

StatusOr<Statement*> ValueRows::InsertOf(size_t rows) {
  std::string sql = held_ ? "INSERT INTO value_block(series_id, block_id, present, vals, block_end_ns) VALUES"
                          : "INSERT INTO value_block(series_id, block_id, present, vals) VALUES";
  for (size_t i = 0; i < rows; ++i) {
    if (i > 0) sql += ',';
    sql += held_ ? "(?,?,?,?,?)" : "(?,?,?,?)";
  }
  return db_->Cached(sql);
}

Status ValueRows::Add(int64_t series_id, int64_t block_id, int64_t present, const double* vals, size_t bytes,
                      TimeNs block_end, bool borrowed) {
  if (!held_) {
    ASSIGN_OR_RETURN(Statement * insert, InsertOf(1));
    insert->Bind(1, series_id).Bind(2, block_id).Bind(3, present).BindBlob(4, vals, bytes);
    return insert->Run();
  }
  Row& r = rows_.emplace_back();
  r.series_id = series_id;
  r.block_id = block_id;
  r.present = present;
  r.block_end = block_end;
  const std::string_view v(reinterpret_cast<const char*>(vals), bytes);
  if (borrowed) {
    r.borrowed = v;
  } else {
    r.copy.assign(v);
  }
  if (rows_.size() < kRowsPerInsert) return Status::Ok();
  return Flush();
}

Status ValueRows::Write(size_t first, size_t rows) {
  ASSIGN_OR_RETURN(Statement * insert, InsertOf(rows));
  for (size_t i = 0; i < rows; ++i) {
    const Row& r = rows_[first + i];
    const int p = static_cast<int>(i) * 5 + 1;
    insert->Bind(p, r.series_id).Bind(p + 1, r.block_id).Bind(p + 2, r.present);
    const std::string_view bytes = r.bytes();
    insert->BindBlob(p + 3, bytes.data(), bytes.size()).Bind(p + 4, r.block_end);
  }
  return insert->Run();
}

Status ValueRows::Flush() {
  RETURN_IF_ERROR(
      WriteInRuns(rows_.size(), kRowsPerInsert, [this](size_t first, size_t n) { return Write(first, n); }));
  rows_.clear();
  return Status::Ok();
}

}  // namespace vrecon
