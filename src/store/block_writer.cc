#include "src/store/block_writer.h"

#include <algorithm>
#include <bit>

namespace vrecon {

static_assert(std::endian::native == std::endian::little, "blocks are stored little-endian as in memory");

Status BlockWriter::DeclareColumns(const std::vector<SeriesKey>& columns) {
  Database* db = store_->db();
  if (!prepared_) {
    ASSIGN_OR_RETURN(find_series_, db->Cached("SELECT id FROM series WHERE source=? AND machine=? AND object=? "
                                              "AND instance=? AND counter=? AND entity=?"));
    ASSIGN_OR_RETURN(add_series_, db->Cached("INSERT INTO series(source, machine, object, instance, counter, unit, "
                                             "original, entity) VALUES(?,?,?,?,?,?,?,?)"));
    ASSIGN_OR_RETURN(insert_time_, db->Cached("INSERT INTO time_block(file_id, n, first_start_ns, last_end_ns, "
                                              "starts, ends) VALUES(?,?,?,?,?,?)"));
    ASSIGN_OR_RETURN(insert_values_,
                     db->Cached("INSERT INTO value_block(series_id, block_id, present, vals) VALUES(?,?,?,?)"));
    prepared_ = true;
  }
  // A new column set (declared again mid-input): the rows of the previous set go out first.
  RETURN_IF_ERROR(FlushBlock());
  RETURN_IF_ERROR(FlushValues());
  Statement& find = *find_series_;
  Statement& add = *add_series_;
  series_ids_.clear();
  for (const SeriesKey& k : columns) {
    find.Bind(1, SourceKindName(k.source)).Bind(2, k.machine).Bind(3, k.object).Bind(4, k.instance).Bind(5, k.counter);
    find.Bind(6, k.entity);
    ASSIGN_OR_RETURN(bool row, find.Step());
    if (row) {
      series_ids_.push_back(find.ColumnInt(0));
      find.Reset();
      continue;
    }
    find.Reset();
    add.Bind(1, SourceKindName(k.source)).Bind(2, k.machine).Bind(3, k.object).Bind(4, k.instance).Bind(5, k.counter);
    add.Bind(6, k.unit).Bind(7, k.original).Bind(8, k.entity);
    RETURN_IF_ERROR(add.Run());
    series_ids_.push_back(db->LastInsertId());
  }
  const size_t block_bytes = std::max<size_t>(1, series_ids_.size()) * kBlockRows * sizeof(double);
  batch_blocks_ = static_cast<int>(std::clamp<size_t>(kBatchBytes / block_bytes, 1, kMaxBatchBlocks));
  values_.assign(static_cast<size_t>(batch_blocks_) * series_ids_.size() * kBlockRows, kMissing);
  starts_.reserve(kBlockRows);
  ends_.reserve(kBlockRows);
  return Status::Ok();
}

Status BlockWriter::AddRow(TimeNs start, TimeNs end, std::span<const double> values) {
  const size_t n = series_ids_.size();
  double* block = &values_[block_ids_.size() * n * kBlockRows];
  for (size_t c = 0; c < n; ++c) block[c * kBlockRows + rows_] = values[c];
  starts_.push_back(start);
  ends_.push_back(end);
  if (++rows_ == kBlockRows) return FlushBlock();
  return Status::Ok();
}

Status BlockWriter::FlushBlock() {
  if (rows_ == 0) return Status::Ok();
  insert_time_->Bind(1, file_id_).Bind(2, static_cast<int64_t>(rows_)).Bind(3, starts_.front()).Bind(4, ends_.back());
  insert_time_->BindBlob(5, starts_.data(), starts_.size() * sizeof(TimeNs));
  insert_time_->BindBlob(6, ends_.data(), ends_.size() * sizeof(TimeNs));
  RETURN_IF_ERROR(insert_time_->Run());
  block_ids_.push_back(store_->db()->LastInsertId());
  block_rows_.push_back(rows_);
  rows_ = 0;
  starts_.clear();
  ends_.clear();
  if (static_cast<int>(block_ids_.size()) == batch_blocks_) return FlushValues();
  return Status::Ok();
}

Status BlockWriter::FlushValues() {
  const size_t n = series_ids_.size();
  for (size_t c = 0; c < n; ++c) {
    for (size_t b = 0; b < block_ids_.size(); ++b) {
      const int rows = block_rows_[b];
      const double* col = &values_[(b * n + c) * kBlockRows];
      int64_t present = 0;
      for (int r = 0; r < rows; ++r) present += IsMissing(col[r]) ? 0 : 1;
      insert_values_->Bind(1, series_ids_[c]).Bind(2, block_ids_[b]).Bind(3, present);
      // A block with no value at all is stored empty: every row of it is missing.
      insert_values_->BindBlob(4, col, present == 0 ? 0 : rows * sizeof(double));
      RETURN_IF_ERROR(insert_values_->Run());
    }
  }
  block_ids_.clear();
  block_rows_.clear();
  return Status::Ok();
}

Status BlockWriter::Finish() {
  if (prepared_) {
    RETURN_IF_ERROR(FlushBlock());
    RETURN_IF_ERROR(FlushValues());
  }
  RETURN_IF_ERROR(store_->AddClockEvents(file_id_, clock_events_));
  return store_->AddIssues(file_id_, issues_);
}

}  // namespace vrecon
