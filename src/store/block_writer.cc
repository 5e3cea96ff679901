#include "src/store/block_writer.h"

#include <algorithm>
#include <bit>
#include <tuple>

#include "models/vm_identity.h"
#include "src/store/postgres/pg_partitions.h"

namespace vrecon {

static_assert(std::endian::native == std::endian::little, "blocks are stored little-endian as in memory");

Status BlockWriter::DeclareColumns(const std::vector<SeriesKey>& columns) {
  Database* db = store_->db();
  if (!prepared_) {
    ASSIGN_OR_RETURN(find_series_, db->Cached("SELECT id FROM series WHERE source=? AND machine=? AND object=? "
                                              "AND instance=? AND counter=? AND entity=?"));
    ASSIGN_OR_RETURN(add_series_, db->Cached("INSERT INTO series(source, machine, object, instance, counter, unit, "
                                             "original, entity, vm_name) VALUES(?,?,?,?,?,?,?,?,?) "
                                             "ON CONFLICT DO NOTHING RETURNING id"));
    ASSIGN_OR_RETURN(insert_time_, db->Cached("INSERT INTO time_block(file_id, n, first_start_ns, last_end_ns, "
                                              "starts, ends) VALUES(?,?,?,?,?,?) RETURNING id"));
    partitioned_ = db->backend() == Backend::kPostgres;
    prepared_ = true;
  }
  // A new column set (declared again mid-input): the rows of the previous set go out first.
  RETURN_IF_ERROR(FlushBlock());
  RETURN_IF_ERROR(FlushValues());
  series_ids_.clear();
  ASSIGN_OR_RETURN(const auto known, KnownSeries(columns));
  for (const SeriesKey& k : columns) {
    if (auto it = known.find(SeriesName(k)); it != known.end()) {
      series_ids_.push_back(it->second);
      continue;
    }
    ASSIGN_OR_RETURN(const int64_t id, FindOrAddSeries(k));
    series_ids_.push_back(id);
  }
  const size_t block_bytes = std::max<size_t>(1, series_ids_.size()) * kBlockRows * sizeof(double);
  batch_blocks_ = static_cast<int>(std::clamp<size_t>(kBatchBytes / block_bytes, 1, kMaxBatchBlocks));
  values_.assign(static_cast<size_t>(batch_blocks_) * series_ids_.size() * kBlockRows, kMissing);
  starts_.reserve(kBlockRows);
  ends_.reserve(kBlockRows);
  return Status::Ok();
}

std::string BlockWriter::SeriesName(const SeriesKey& k) {
  return std::string(SourceKindName(k.source)) + '\x1f' + k.machine + '\x1f' + k.entity + '\x1f' + k.object + '\x1f' +
         k.instance + '\x1f' + k.counter;
}

// A machine's columns share source, machine and entity (a vSphere VM's counters, a guest log's):
// one query per such group instead of one per column, each a round trip on PostgreSQL.
StatusOr<std::map<std::string, int64_t>> BlockWriter::KnownSeries(const std::vector<SeriesKey>& columns) {
  if (ahead_) {
    if (auto known = ahead_->Known(columns)) return *std::move(known);
  }
  std::set<std::tuple<SourceKind, std::string, std::string>> groups;
  for (const SeriesKey& k : columns) groups.emplace(k.source, k.machine, k.entity);
  ASSIGN_OR_RETURN(Statement * q, store_->db()->Cached("SELECT id, object, instance, counter FROM series WHERE "
                                                       "source = ? AND machine = ? AND entity = ?"));
  std::map<std::string, int64_t> out;
  for (const auto& [source, machine, entity] : groups) {
    q->Bind(1, SourceKindName(source)).Bind(2, machine).Bind(3, entity);
    SeriesKey k;
    k.source = source;
    k.machine = machine;
    k.entity = entity;
    while (true) {
      ASSIGN_OR_RETURN(bool row, q->Step());
      if (!row) break;
      k.object = q->ColumnText(1);
      k.instance = q->ColumnText(2);
      k.counter = q->ColumnText(3);
      out.emplace(SeriesName(k), q->ColumnInt(0));
    }
    q->Reset();
  }
  return out;
}

// Another writer may add the same series between the find and the add (PostgreSQL: writers do
// not wait for each other until they meet on a key): the add then adds nothing and the second
// find sees theirs.
StatusOr<int64_t> BlockWriter::FindOrAddSeries(const SeriesKey& k) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    Statement& find = *find_series_;
    find.Bind(1, SourceKindName(k.source)).Bind(2, k.machine).Bind(3, k.object).Bind(4, k.instance).Bind(5, k.counter);
    find.Bind(6, k.entity);
    ASSIGN_OR_RETURN(bool row, find.Step());
    const int64_t found = row ? find.ColumnInt(0) : 0;
    find.Reset();
    if (row) return found;
    Statement& add = *add_series_;
    add.Bind(1, SourceKindName(k.source)).Bind(2, k.machine).Bind(3, k.object).Bind(4, k.instance).Bind(5, k.counter);
    add.Bind(6, k.unit).Bind(7, k.original).Bind(8, k.entity).Bind(9, models::SeriesVmName(k));
    ASSIGN_OR_RETURN(bool added, add.Step());
    const int64_t id = added ? add.ColumnInt(0) : 0;
    add.Reset();
    if (added) return id;
  }
  return Status::Internal("series " + k.object + "\\" + k.counter + " of " + k.machine +
                          " could neither be found nor added");
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

Status BlockWriter::EnsurePartition(TimeNs end) {
  SampleMonth m = SampleMonthOf(end);
  auto* db = static_cast<PgDatabase*>(store_->db());
  if (db->checked_months().contains(m.name)) return Status::Ok();
  RETURN_IF_ERROR(EnsureSamplePartition(db, m));
  db->checked_months().insert(std::move(m.name));
  return Status::Ok();
}

Status BlockWriter::FlushBlock() {
  if (rows_ == 0) return Status::Ok();
  if (partitioned_) RETURN_IF_ERROR(EnsurePartition(ends_.back()));
  std::optional<int64_t> drawn;
  if (ahead_) {
    ASSIGN_OR_RETURN(drawn, ahead_->NextBlockId());
  }
  int64_t block_id = 0;
  if (drawn) {
    // Held by the WriteAhead with the other files' and written before their values.
    RETURN_IF_ERROR(ahead_->AddTimeBlock(*drawn, file_id_, starts_, ends_));
    block_id = *drawn;
  } else {
    insert_time_->Bind(1, file_id_).Bind(2, static_cast<int64_t>(rows_)).Bind(3, starts_.front()).Bind(4, ends_.back());
    insert_time_->BindBlob(5, starts_.data(), starts_.size() * sizeof(TimeNs));
    insert_time_->BindBlob(6, ends_.data(), ends_.size() * sizeof(TimeNs));
    ASSIGN_OR_RETURN(block_id, insert_time_->RunForId());
  }
  block_ids_.push_back(block_id);
  block_rows_.push_back(rows_);
  block_ends_.push_back(ends_.back());
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
      // A block with no value at all is stored empty: every row of it is missing.
      RETURN_IF_ERROR(value_rows()->Add(series_ids_[c], block_ids_[b], present, col,
                                        present == 0 ? 0 : rows * sizeof(double), block_ends_[b], !ahead_));
    }
  }
  // values_ is refilled after this: a writer's own rows borrowed it and go out now.
  if (!ahead_) RETURN_IF_ERROR(value_rows()->Flush());
  block_ids_.clear();
  block_rows_.clear();
  block_ends_.clear();
  return Status::Ok();
}

ValueRows* BlockWriter::value_rows() {
  if (ahead_) return ahead_->value_rows();
  if (!own_rows_) own_rows_.emplace(store_->db());
  return &*own_rows_;
}

Status BlockWriter::Finish() {
  if (prepared_) {
    RETURN_IF_ERROR(FlushBlock());
    RETURN_IF_ERROR(FlushValues());
  }
  RETURN_IF_ERROR(store_->AddClockEvents(file_id_, clock_events_));
  return ahead_ ? ahead_->AddIssues(file_id_, issues_) : store_->AddIssues(file_id_, issues_);
}

}  // namespace vrecon
