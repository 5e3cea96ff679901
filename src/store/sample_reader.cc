#include "src/store/sample_reader.h"

#include <algorithm>
#include <cstring>

#include "src/core/check.h"
#include "src/core/text_util.h"
#include "src/store/array_literal.h"

namespace vrecon {

Status ForEachSample(Store* store, int64_t series_id, const TimeRange& range,
                     const std::function<void(TimeNs, TimeNs, double)>& visit) {
  BlockReader reader(store);
  return reader.ForEach(series_id, range, [&visit](const SampleBlock& b) {
    for (size_t i = 0; i < b.starts.size(); ++i)
      visit(b.starts[i], b.ends[i], b.values.empty() ? kMissing : b.values[i]);
  });
}

Status ForEachRawSampleBlock(Store* store,
                             const std::function<Status(int64_t n, std::string_view starts, std::string_view ends,
                                                        std::string_view values)>& visit) {
  ASSIGN_OR_RETURN(Statement q, store->db()->Prepare("SELECT t.n, t.starts, t.ends, v.vals FROM value_block v "
                                                     "JOIN time_block t ON t.id = v.block_id"));
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) return Status::Ok();
    RETURN_IF_ERROR(visit(q.ColumnInt(0), q.ColumnBlob(1), q.ColumnBlob(2), q.ColumnBlob(3)));
  }
}

Status BlockReader::Damaged(int64_t series_id) const {
  return Status::ParseError("database " + db_->path() + ": a sample block of series " + std::to_string(series_id) +
                            " is damaged");
}

Status BlockReader::ForEach(int64_t series_id, const TimeRange& range,
                            const std::function<void(const SampleBlock&)>& visit) {
  if (IsPrefetched(series_id, range.from))
    return VisitPrefetched(series_id, range, [&visit](int64_t, const SampleBlock& b) { visit(b); });
  if (Streamable(series_id, range)) return Stream(series_id, range, visit);
  if (db_->backend() == Backend::kPostgres)
    return ForEachOf({series_id}, range, [&visit](int64_t, const SampleBlock& b) { visit(b); });
  // No ORDER BY: SQLite would sort rows holding the value blobs. Rows come in block id order
  // (the index), which is the time order within a file whenever rows were written in order;
  // the stable sort in VisitEntries handles the rest exactly as the ORDER BY did.
  ASSIGN_OR_RETURN(const std::optional<int64_t> first_block, FirstBlockEndingFrom(range.from));
  if (!first_block) return Status::Ok();  // nothing ends in the range or after it
  ASSIGN_OR_RETURN(Statement * q,
                   db_->Cached("SELECT t.file_id, t.first_start_ns, t.id, t.n, v.vals, v.present FROM value_block v "
                               "JOIN time_block t ON t.id = v.block_id WHERE v.series_id = ? AND v.block_id >= ? "
                               "AND t.last_end_ns >= ? AND t.first_start_ns <= ?"));
  q->Bind(1, series_id).Bind(2, *first_block).Bind(3, range.from).Bind(4, range.to);
  entries_.clear();
  values_.clear();
  while (true) {
    ASSIGN_OR_RETURN(bool row, q->Step());
    if (!row) break;
    if (!TakeEntry(*q, series_id)) {
      q->Reset();
      return Damaged(series_id);
    }
  }
  q->Reset();
  return VisitEntries(range, [&visit](int64_t, const SampleBlock& b) { visit(b); });
}

Status BlockReader::ForEachOf(const std::vector<int64_t>& series_ids, const TimeRange& range,
                              const std::function<void(int64_t, const SampleBlock&)>& visit) {
  std::vector<int64_t> ids = series_ids;
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  if (db_->backend() != Backend::kPostgres || AllPrefetched(ids, range.from)) {
    for (int64_t id : ids) RETURN_IF_ERROR(ForEach(id, range, [&](const SampleBlock& b) { visit(id, b); }));
    return Status::Ok();
  }
  // Two queries, each an index lookup: the value blocks in range, then their time blocks by id.
  // block_end_ns is the time block's last_end_ns, so the range's start is tested on value_block
  // alone and the month partitions before it are skipped. (One query joining time_block had
  // the planner hash every time block in the range, every VM's, for each VM.)
  ASSIGN_OR_RETURN(const std::optional<int64_t> first_block, FirstBlockEndingFrom(range.from));
  if (!first_block) return Status::Ok();
  ASSIGN_OR_RETURN(Statement * q,
                   db_->Cached("SELECT series_id, block_id, vals, present FROM value_block "
                               "WHERE series_id = ANY(?::bigint[]) AND block_id >= ? AND block_end_ns >= ?"));
  q->Bind(1, ArrayLiteral(ids)).Bind(2, *first_block).Bind(3, range.from);
  entries_.clear();
  values_.clear();
  std::vector<int64_t> blocks, presents;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q->Step());
    if (!row) break;
    const std::string_view vals = q->ColumnBlob(2);
    // n holds the values' count until the block's row is read.
    Entry e{0, 0, q->ColumnInt(1), static_cast<int64_t>(vals.size() / 8), std::string::npos, false, q->ColumnInt(0)};
    const int64_t present = q->ColumnInt(3);
    if (vals.size() % 8 != 0) {
      q->Reset();
      return Damaged(e.series_id);
    }
    if (!vals.empty()) {
      e.offset = values_.size();
      values_.resize(e.offset + vals.size() / 8);
      std::memcpy(values_.data() + e.offset, vals.data(), vals.size());
    }
    if (!meta_.contains(e.block_id)) blocks.push_back(e.block_id);
    entries_.push_back(e);
    presents.push_back(present);
  }
  q->Reset();
  RETURN_IF_ERROR(FetchBlocks(std::move(blocks)));
  std::vector<Entry> kept;
  kept.reserve(entries_.size());
  for (size_t i = 0; i < entries_.size(); ++i) {
    Entry e = entries_[i];
    const auto m = meta_.find(e.block_id);
    if (m == meta_.end()) return Damaged(e.series_id);  // a value block without its time block
    if (e.offset != std::string::npos && e.n != m->second.n) return Damaged(e.series_id);
    e.file_id = m->second.file_id;
    e.first_start = m->second.first_start;
    e.n = m->second.n;
    e.complete = presents[i] == e.n;
    if (e.first_start <= range.to) kept.push_back(e);
  }
  entries_ = std::move(kept);
  return VisitEntries(range, visit);
}

bool BlockReader::TakeEntry(const Statement& q, int64_t series_id) {
  Entry e{q.ColumnInt(0), q.ColumnInt(1), q.ColumnInt(2), q.ColumnInt(3), std::string::npos, false, series_id};
  e.complete = q.ColumnInt(5) == e.n;
  const std::string_view vals = q.ColumnBlob(4);
  if (e.n < 0 || (!vals.empty() && vals.size() != static_cast<size_t>(e.n) * 8)) return false;
  if (!vals.empty()) {
    e.offset = values_.size();
    values_.resize(e.offset + e.n);
    std::memcpy(values_.data() + e.offset, vals.data(), vals.size());
  }
  entries_.push_back(e);
  return true;
}

Status BlockReader::VisitEntries(const TimeRange& range,
                                 const std::function<void(int64_t, const SampleBlock&)>& visit) {
  auto before = [](const Entry& a, const Entry& b) {
    if (a.series_id != b.series_id) return a.series_id < b.series_id;
    return a.file_id != b.file_id ? a.file_id < b.file_id : a.first_start < b.first_start;
  };
  if (!std::is_sorted(entries_.begin(), entries_.end(), before))
    std::stable_sort(entries_.begin(), entries_.end(), before);
  for (const Entry& e : entries_) {
    const double* v = e.offset == std::string::npos ? nullptr : values_.data() + e.offset;
    RETURN_IF_ERROR(VisitBlock(e.series_id, e.block_id, e.n, v, e.complete, range,
                               [&](const SampleBlock& b) { visit(e.series_id, b); }));
  }
  return Status::Ok();
}

bool BlockReader::Streamable(int64_t series_id, const TimeRange& range) const {
  const auto it = series_blocks_.find(series_id);
  if (it == series_blocks_.end() || range.from < span_from_) return false;
  const BlockMeta* last = nullptr;
  for (int64_t id : it->second) {
    const auto m = meta_.find(id);
    if (m == meta_.end() || m->second.last_end < range.from || m->second.first_start > range.to) return false;
    const BlockMeta& b = m->second;
    if (last && (b.file_id != last->file_id ? b.file_id < last->file_id : b.first_start < last->first_start))
      return false;
    last = &b;
  }
  return true;
}

Status BlockReader::Stream(int64_t series_id, const TimeRange& range,
                           const std::function<void(const SampleBlock&)>& visit) {
  // Span() saw every block of the series: in range, in time order by id, their times known. The
  // rows are visited as they come (by block id, as Span listed them: PostgreSQL's partitions would
  // give them by month otherwise), without the time_block join and without buffering the series.
  const auto spanned = series_blocks_.find(series_id);
  VRECON_CHECK_MSG(spanned != series_blocks_.end(),
                   "Stream() of series " + std::to_string(series_id) + " before Span()");
  const std::vector<int64_t>& blocks = spanned->second;
  if (blocks.empty()) return Status::Ok();
  // From the first block Span() listed: the series' older blocks are not read.
  ASSIGN_OR_RETURN(Statement * q, db_->Cached("SELECT block_id, vals, present FROM value_block WHERE series_id = ? "
                                              "AND block_id >= ? ORDER BY block_id"));
  q->Bind(1, series_id).Bind(2, blocks.front());
  size_t k = 0;
  Status status = Status::Ok();
  while (status.ok()) {
    auto row = q->Step();
    if (!row.ok()) status = row.status();
    if (!status.ok() || !*row) break;
    const int64_t id = q->ColumnInt(0);
    // Not listed: a block of an older file stored later, ending before Span()'s `from`; or (on
    // PostgreSQL, which reads each statement at its own snapshot) a block another writer
    // committed since Span(), left for the next read as if it had come a moment later.
    if (!std::binary_search(blocks.begin(), blocks.end(), id)) continue;
    if (k >= blocks.size() || blocks[k] != id) {  // a block Span() saw is gone
      status = Status::Unavailable("database " + db_->path() + " changed while series " + std::to_string(series_id) +
                                   " was read; run again");
      break;
    }
    ++k;
    const auto meta = meta_.find(id);
    VRECON_CHECK(meta != meta_.end());  // Span() read the meta of every block it listed
    const BlockMeta& m = meta->second;
    const std::string_view vals = q->ColumnBlob(1);
    if (!vals.empty() && vals.size() != static_cast<size_t>(m.n) * 8) {
      status = Damaged(series_id);
      break;
    }
    if (!vals.empty()) {
      row_values_.resize(m.n);
      std::memcpy(row_values_.data(), vals.data(), vals.size());
    }
    status = VisitBlock(series_id, id, m.n, vals.empty() ? nullptr : row_values_.data(), q->ColumnInt(2) == m.n, range,
                        visit);
  }
  q->Reset();
  return status;
}

Status BlockReader::VisitBlock(int64_t series_id, int64_t block_id, int64_t n_rows, const double* v, bool complete,
                               const TimeRange& range, const std::function<void(const SampleBlock&)>& visit) {
  ASSIGN_OR_RETURN(Times * t, TimesOf(block_id, n_rows));
  if (!t) return Damaged(series_id);
  const size_t n = static_cast<size_t>(n_rows);
  const TimeNs* s = t->starts.data();
  const TimeNs* en = t->ends.data();
  auto overlaps = [&](size_t i) {
    return s[i] == en[i] ? (en[i] >= range.from && en[i] <= range.to) : (en[i] > range.from && s[i] < range.to);
  };
  if (t->tested.from != range.from || t->tested.to != range.to) {
    size_t first_out = 0;
    while (first_out < n && overlaps(first_out)) ++first_out;
    t->tested = range;
    t->first_out = first_out;
  }
  size_t i = t->first_out;
  if (i == n) {  // the usual case: the whole block lies in the range
    if (n > 0)
      visit(SampleBlock{
          {s, n}, {en, n}, v ? std::span<const double>(v, n) : std::span<const double>(), block_id, complete});
    return Status::Ok();
  }
  part_values_.clear();
  part_starts_.assign(s, s + i);  // the samples before the first one outside the range
  part_ends_.assign(en, en + i);
  if (v) part_values_.assign(v, v + i);
  for (; i < n; ++i) {
    if (!overlaps(i)) continue;
    part_starts_.push_back(s[i]);
    part_ends_.push_back(en[i]);
    if (v) part_values_.push_back(v[i]);
  }
  if (!part_starts_.empty()) visit(SampleBlock{part_starts_, part_ends_, part_values_, -1, complete});
  return Status::Ok();
}

StatusOr<BlockReader::Times*> BlockReader::TimesOf(int64_t block_id, int64_t n) {
  if (auto it = times_.find(block_id); it != times_.end()) return &it->second;
  ASSIGN_OR_RETURN(Statement * q, db_->Cached("SELECT starts, ends FROM time_block WHERE id = ?"));
  q->Bind(1, block_id);
  ASSIGN_OR_RETURN(bool row, q->Step());
  Times* out = nullptr;
  if (row) {
    const std::string_view starts = q->ColumnBlob(0), ends = q->ColumnBlob(1);
    if (starts.size() == static_cast<size_t>(n) * 8 && ends.size() == starts.size()) {
      Times t;
      t.starts.resize(n);
      t.ends.resize(n);
      std::memcpy(t.starts.data(), starts.data(), starts.size());
      std::memcpy(t.ends.data(), ends.data(), ends.size());
      out = &times_.emplace(block_id, std::move(t)).first->second;  // node-based: stays valid
    }
  }
  q->Reset();
  return out;  // nullptr: the block is damaged
}

}  // namespace vrecon
