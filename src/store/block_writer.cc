#include "src/store/block_writer.h"

#include <bit>

namespace vrecon {

static_assert(std::endian::native == std::endian::little, "blocks are stored little-endian as in memory");

Status BlockWriter::DeclareColumns(const std::vector<SeriesKey>& columns) {
  Database* db = store_->db();
  ASSIGN_OR_RETURN(Statement find, db->Prepare("SELECT id FROM series WHERE source=? AND machine=? AND object=? "
                                               "AND instance=? AND counter=?"));
  ASSIGN_OR_RETURN(Statement add, db->Prepare("INSERT INTO series(source, machine, object, instance, counter, unit, "
                                              "original) VALUES(?,?,?,?,?,?,?)"));
  series_ids_.clear();
  for (const SeriesKey& k : columns) {
    find.Bind(1, SourceKindName(k.source)).Bind(2, k.machine).Bind(3, k.object).Bind(4, k.instance).Bind(5, k.counter);
    ASSIGN_OR_RETURN(bool row, find.Step());
    if (row) {
      series_ids_.push_back(find.ColumnInt(0));
      find.Reset();
      continue;
    }
    find.Reset();
    add.Bind(1, SourceKindName(k.source)).Bind(2, k.machine).Bind(3, k.object).Bind(4, k.instance).Bind(5, k.counter);
    add.Bind(6, k.unit).Bind(7, k.original);
    RETURN_IF_ERROR(add.Run());
    series_ids_.push_back(db->LastInsertId());
  }
  values_.assign(series_ids_.size() * kBlockRows, kMissing);
  starts_.reserve(kBlockRows);
  ends_.reserve(kBlockRows);
  ASSIGN_OR_RETURN(insert_time_, db->Prepare("INSERT INTO time_block(file_id, n, first_start_ns, last_end_ns, starts, "
                                             "ends) VALUES(?,?,?,?,?,?)"));
  ASSIGN_OR_RETURN(insert_values_,
                   db->Prepare("INSERT INTO value_block(series_id, block_id, present, vals) VALUES(?,?,?,?)"));
  return Status::Ok();
}

Status BlockWriter::AddRow(TimeNs start, TimeNs end, std::span<const double> values) {
  const size_t n = series_ids_.size();
  for (size_t c = 0; c < n; ++c) values_[c * kBlockRows + rows_] = values[c];
  starts_.push_back(start);
  ends_.push_back(end);
  if (++rows_ == kBlockRows) return FlushBlock();
  return Status::Ok();
}

Status BlockWriter::FlushBlock() {
  if (rows_ == 0) return Status::Ok();
  insert_time_.Bind(1, file_id_).Bind(2, static_cast<int64_t>(rows_)).Bind(3, starts_.front()).Bind(4, ends_.back());
  insert_time_.BindBlob(5, starts_.data(), starts_.size() * sizeof(TimeNs));
  insert_time_.BindBlob(6, ends_.data(), ends_.size() * sizeof(TimeNs));
  RETURN_IF_ERROR(insert_time_.Run());
  const int64_t block_id = store_->db()->LastInsertId();
  for (size_t c = 0; c < series_ids_.size(); ++c) {
    const double* col = &values_[c * kBlockRows];
    int64_t present = 0;
    for (int r = 0; r < rows_; ++r) present += IsMissing(col[r]) ? 0 : 1;
    insert_values_.Bind(1, series_ids_[c]).Bind(2, block_id).Bind(3, present);
    // A block with no value at all is stored empty: every row of it is missing.
    insert_values_.BindBlob(4, col, present == 0 ? 0 : rows_ * sizeof(double));
    RETURN_IF_ERROR(insert_values_.Run());
  }
  rows_ = 0;
  starts_.clear();
  ends_.clear();
  return Status::Ok();
}

Status BlockWriter::Finish() {
  if (!series_ids_.empty()) RETURN_IF_ERROR(FlushBlock());
  return store_->AddIssues(file_id_, issues_);
}

}  // namespace vrecon
