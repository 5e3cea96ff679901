#include "src/store/row_batch.h"

#include <algorithm>
#include <bit>

#include "src/core/check.h"

namespace vrecon {

StatusOr<Statement*> RowBatch::InsertOf(size_t rows, const std::string& returning) {
  std::string one = "(";
  for (int c = 0; c < columns_; ++c) one += c == 0 ? "?" : ",?";
  one += ")";
  std::string sql = head_;
  for (size_t i = 0; i < rows; ++i) sql += (i == 0 ? " " : ",") + one;
  sql += tail_;
  sql += returning;
  return db_->Cached(sql);
}

void RowBatch::Add(std::vector<Value> row) {
  VRECON_CHECK_MSG(static_cast<int>(row.size()) == columns_, "a row of the wrong width");
  rows_.push_back(std::move(row));
}

Status RowBatch::Write(size_t first, size_t rows, const std::string& returning,
                       const std::function<void(const Statement&)>* each) {
  ASSIGN_OR_RETURN(Statement * s, InsertOf(rows, returning));
  int p = 1;
  for (size_t i = first; i < first + rows; ++i) {
    for (const Value& v : rows_[i]) {
      if (const auto* n = std::get_if<int64_t>(&v)) {
        s->Bind(p, *n);
      } else if (const auto* d = std::get_if<double>(&v)) {
        s->Bind(p, *d);
      } else if (const auto* t = std::get_if<std::string>(&v)) {
        s->Bind(p, std::string_view(*t));
      } else if (const auto* b = std::get_if<Blob>(&v)) {
        s->BindBlob(p, b->bytes.data(), b->bytes.size());
      } else {
        s->BindNull(p);
      }
      ++p;
    }
  }
  if (!each) return s->Run();
  while (true) {
    ASSIGN_OR_RETURN(bool row, s->Step());
    if (!row) break;
    (*each)(*s);
  }
  s->Reset();
  return Status::Ok();
}

Status WriteInRuns(size_t rows, size_t most, const std::function<Status(size_t first, size_t n)>& write) {
  for (size_t first = 0; first < rows;) {
    const size_t n = std::bit_floor(std::min(rows - first, most));
    RETURN_IF_ERROR(write(first, n));
    first += n;
  }
  return Status::Ok();
}

Status RowBatch::Flush() {
  RETURN_IF_ERROR(WriteInRuns(rows_.size(), kRowsPerStatement,
                              [this](size_t first, size_t n) { return Write(first, n, "", nullptr); }));
  rows_.clear();
  return Status::Ok();
}

Status RowBatch::FlushReturning(const std::string& returning, const std::function<void(const Statement&)>& each) {
  RETURN_IF_ERROR(WriteInRuns(rows_.size(), kRowsPerStatement,
                              [&](size_t first, size_t n) { return Write(first, n, returning, &each); }));
  rows_.clear();
  return Status::Ok();
}

}  // namespace vrecon
