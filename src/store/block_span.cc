// BlockReader's look at a VM's series before it reads them (src/store/sample_reader.h): which
// blocks each series has, their spans, and the times the series have samples in.
#include <algorithm>
#include <cstring>
#include <limits>
#include <unordered_set>

#include "src/store/array_literal.h"
#include "src/store/sample_reader.h"  // BlockReader

namespace vrecon {

Status BlockReader::FetchBlocks(std::vector<int64_t> ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  if (ids.empty()) return Status::Ok();
  ASSIGN_OR_RETURN(Statement * t, db_->Cached("SELECT id, file_id, n, first_start_ns, last_end_ns, starts, ends FROM "
                                              "time_block WHERE id = ANY(?::bigint[])"));
  t->Bind(1, ArrayLiteral(ids));
  while (true) {
    ASSIGN_OR_RETURN(bool row, t->Step());
    if (!row) break;
    const int64_t id = t->ColumnInt(0), n = t->ColumnInt(2);
    meta_.emplace(id, BlockMeta{t->ColumnInt(1), n, t->ColumnInt(3), t->ColumnInt(4)});
    const std::string_view starts = t->ColumnBlob(5), ends = t->ColumnBlob(6);
    if (times_.contains(id) || n < 0 || starts.size() != static_cast<size_t>(n) * 8 || ends.size() != starts.size())
      continue;
    Times& times = times_[id];  // a damaged block gets no times: TimesOf reads it again and says so
    times.starts.resize(n);
    times.ends.resize(n);
    std::memcpy(times.starts.data(), starts.data(), starts.size());
    std::memcpy(times.ends.data(), ends.data(), ends.size());
  }
  t->Reset();
  return Status::Ok();
}

// PostgreSQL: a query per VM rather than per series and per block (each a round trip to the
// server): every series' block ids at once, then every block's row with its times.
StatusOr<std::optional<int64_t>> BlockReader::FirstBlockEndingFrom(TimeNs t) {
  if (t == std::numeric_limits<TimeNs>::min()) return std::optional<int64_t>(std::numeric_limits<int64_t>::min());
  if (auto it = first_block_.find(t); it != first_block_.end()) return it->second;
  // Through the index on last_end_ns, which holds only the recent blocks past t: left to
  // themselves, both planners answer min(id) by walking the ids from the oldest block.
  ASSIGN_OR_RETURN(
      Statement * q,
      db_->Cached(db_->backend() == Backend::kPostgres
                      ? "SELECT min(id) FROM (SELECT id FROM time_block WHERE last_end_ns >= ? OFFSET 0) r"
                      : "SELECT min(id) FROM time_block INDEXED BY time_block_by_end WHERE last_end_ns >= ?"));
  q->Bind(1, t);
  ASSIGN_OR_RETURN(bool row, q->Step());
  std::optional<int64_t> first;
  if (row && !q->ColumnIsNull(0)) first = q->ColumnInt(0);
  q->Reset();
  first_block_.emplace(t, first);
  return first;
}

StatusOr<std::optional<TimeRange>> BlockReader::SpanBatched(const std::vector<int64_t>& series_ids, TimeNs from,
                                                            int64_t first_block) {
  // block_end_ns is the time block's last_end_ns: the test is exact, and skips older partitions.
  ASSIGN_OR_RETURN(Statement * q,
                   db_->Cached("SELECT series_id, block_id FROM value_block WHERE series_id = ANY(?::bigint[]) "
                               "AND block_id >= ? AND block_end_ns >= ? ORDER BY series_id, block_id"));
  q->Bind(1, ArrayLiteral(series_ids)).Bind(2, first_block).Bind(3, from);
  std::vector<int64_t> missing;
  for (int64_t id : series_ids) series_blocks_[id].clear();
  while (true) {
    ASSIGN_OR_RETURN(bool row, q->Step());
    if (!row) break;
    const int64_t block = q->ColumnInt(1);
    series_blocks_[q->ColumnInt(0)].push_back(block);
    if (!meta_.contains(block)) missing.push_back(block);
  }
  q->Reset();
  RETURN_IF_ERROR(FetchBlocks(std::move(missing)));
  std::optional<TimeRange> span;
  for (int64_t id : series_ids) {
    for (int64_t b : series_blocks_[id]) {
      auto it = meta_.find(b);
      if (it == meta_.end()) return Damaged(id);  // a value block without its time block
      if (!span) span = TimeRange{it->second.first_start, it->second.last_end};
      span->from = std::min(span->from, it->second.first_start);
      span->to = std::max(span->to, it->second.last_end);
    }
  }
  return span;
}

StatusOr<std::optional<TimeRange>> BlockReader::Span(const std::vector<int64_t>& series_ids, TimeNs from) {
  span_from_ = from;
  if (AllPrefetched(series_ids, from)) return SpanPrefetched(series_ids, from);
  ASSIGN_OR_RETURN(const std::optional<int64_t> first_block, FirstBlockEndingFrom(from));
  if (!first_block) {  // nothing ends at or after `from`
    for (int64_t id : series_ids) series_blocks_[id].clear();
    return std::optional<TimeRange>();
  }
  if (db_->backend() == Backend::kPostgres) return SpanBatched(series_ids, from, *first_block);
  // The series of one file share its time blocks: their ids come from the covering index, and
  // each distinct block's span is read once (a join would look the time block up per series).
  ASSIGN_OR_RETURN(Statement * q, db_->Cached("SELECT block_id FROM value_block WHERE series_id = ? AND block_id >= ? "
                                              "ORDER BY block_id"));
  ASSIGN_OR_RETURN(Statement * t,
                   db_->Cached("SELECT file_id, n, first_start_ns, last_end_ns FROM time_block WHERE id = ?"));
  std::optional<TimeRange> span;
  for (int64_t id : series_ids) {
    std::vector<int64_t>& blocks = series_blocks_[id];
    blocks.clear();
    q->Bind(1, id).Bind(2, *first_block);
    while (true) {
      ASSIGN_OR_RETURN(bool row, q->Step());
      if (!row) break;
      blocks.push_back(q->ColumnInt(0));
    }
    q->Reset();
    size_t kept = 0;  // an older file stored later has a newer id: its blocks ending before `from` go
    for (int64_t b : blocks) {
      auto it = meta_.find(b);
      if (it == meta_.end()) {
        t->Bind(1, b);
        ASSIGN_OR_RETURN(bool row, t->Step());
        if (row)
          it = meta_.emplace(b, BlockMeta{t->ColumnInt(0), t->ColumnInt(1), t->ColumnInt(2), t->ColumnInt(3)}).first;
        t->Reset();
        if (!row) return Damaged(id);  // a value block without its time block
      }
      const BlockMeta& m = it->second;
      if (m.last_end < from) continue;
      blocks[kept++] = b;
      if (!span) span = TimeRange{m.first_start, m.last_end};
      span->from = std::min(span->from, m.first_start);
      span->to = std::max(span->to, m.last_end);
    }
    blocks.resize(kept);
  }
  return span;
}

StatusOr<std::vector<TimeRange>> BlockReader::Occupied(const std::vector<int64_t>& series_ids, TimeNs max_gap) {
  std::vector<TimeRange> pieces;
  std::unordered_set<int64_t> seen;  // the series of one file share their blocks
  for (int64_t id : series_ids) {
    auto blocks = series_blocks_.find(id);
    if (blocks == series_blocks_.end()) continue;
    for (int64_t b : blocks->second) {
      if (!seen.insert(b).second) continue;
      const BlockMeta& m = meta_.at(b);
      if (m.last_end - m.first_start <= max_gap) {
        pieces.push_back({m.first_start, m.last_end});
        continue;
      }
      ASSIGN_OR_RETURN(Times * t, TimesOf(b, m.n));
      if (!t) return Damaged(id);
      for (size_t i = 0; i < t->starts.size(); ++i) {
        if (!pieces.empty() && t->starts[i] >= pieces.back().from && t->starts[i] - pieces.back().to <= max_gap) {
          pieces.back().to = std::max(pieces.back().to, t->ends[i]);
        } else {
          pieces.push_back({t->starts[i], t->ends[i]});
        }
      }
    }
  }
  std::sort(pieces.begin(), pieces.end(), [](const TimeRange& a, const TimeRange& b) { return a.from < b.from; });
  std::vector<TimeRange> out;
  for (const TimeRange& p : pieces) {
    if (!out.empty() && p.from - out.back().to <= max_gap) {
      out.back().to = std::max(out.back().to, p.to);
    } else {
      out.push_back(p);
    }
  }
  return out;
}

}  // namespace vrecon
