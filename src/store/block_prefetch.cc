// BlockReader's prefetch (src/store/sample_reader.h): the blocks of several VMs' series read in
// two queries, then Span() and the reads of those series answered from them.
#include <algorithm>
#include <cstring>

#include "src/core/check.h"
#include "src/store/array_literal.h"
#include "src/store/sample_reader.h"  // BlockReader

namespace vrecon {

void BlockReader::EndPrefetch() {
  prefetching_ = false;
  prefetched_.clear();
  listed_from_.clear();
  // Its capacity stays for the next batch (at most kPrefetchValues, 16 MiB of doubles):
  // freeing and growing it again for every 64 VMs cost more than it saved.
  prefetched_values_.clear();
  Forget();
}

Status BlockReader::Prefetch(const std::vector<int64_t>& series_ids, TimeNs from) {
  EndPrefetch();
  if (db_->backend() != Backend::kPostgres) return Status::Ok();
  std::vector<int64_t> ids = series_ids;
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  if (ids.empty()) return Status::Ok();
  ASSIGN_OR_RETURN(const std::optional<int64_t> first_block, FirstBlockEndingFrom(from));
  prefetching_ = true;
  prefetched_from_ = from;
  for (int64_t id : ids) prefetched_[id];  // a series without blocks there is known to have none
  if (!first_block) return Status::Ok();
  ASSIGN_OR_RETURN(Statement * q,
                   db_->Cached("SELECT series_id, block_id, vals, present FROM value_block "
                               "WHERE series_id = ANY(?::bigint[]) AND block_id >= ? AND block_end_ns >= ?"));
  q->Bind(1, ArrayLiteral(ids)).Bind(2, *first_block).Bind(3, from);
  std::vector<int64_t> blocks;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q->Step());
    if (!row) break;
    const std::string_view vals = q->ColumnBlob(2);
    Prefetched p{q->ColumnInt(1), std::string::npos, static_cast<int64_t>(vals.size() / 8), q->ColumnInt(3)};
    if (vals.size() % 8 != 0) {
      const int64_t series = q->ColumnInt(0);
      q->Reset();
      EndPrefetch();
      return Damaged(series);
    }
    if (prefetched_values_.size() + vals.size() / 8 > prefetch_values_) {  // too much to keep: read as before
      q->Reset();
      EndPrefetch();
      return Status::Ok();
    }
    if (!vals.empty()) {
      p.offset = prefetched_values_.size();
      prefetched_values_.resize(p.offset + vals.size() / 8);
      std::memcpy(prefetched_values_.data() + p.offset, vals.data(), vals.size());
    }
    if (!meta_.contains(p.block_id)) blocks.push_back(p.block_id);
    prefetched_[q->ColumnInt(0)].push_back(p);
  }
  q->Reset();
  for (auto& [series, list] : prefetched_)
    std::sort(list.begin(), list.end(),
              [](const Prefetched& a, const Prefetched& b) { return a.block_id < b.block_id; });
  return FetchBlocks(std::move(blocks));
}

bool BlockReader::AllPrefetched(const std::vector<int64_t>& series_ids, TimeNs from) const {
  if (!prefetching_) return false;
  return std::all_of(series_ids.begin(), series_ids.end(), [&](int64_t id) {
    if (IsPrefetched(id, from)) return true;
    const auto listed = listed_from_.find(id);
    return listed != listed_from_.end() && from >= listed->second;
  });
}

Status BlockReader::PrefetchEarlier(const std::vector<int64_t>& series_ids, TimeNs from) {
  std::vector<int64_t> ids;
  for (int64_t id : series_ids)
    if (IsPrefetched(id, prefetched_from_) && !listed_from_.contains(id)) ids.push_back(id);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  if (ids.empty() || from >= prefetched_from_) return Status::Ok();
  ASSIGN_OR_RETURN(const std::optional<int64_t> first_block, FirstBlockEndingFrom(from));
  for (int64_t id : ids) listed_from_[id] = from;
  if (!first_block) return Status::Ok();
  ASSIGN_OR_RETURN(Statement * q,
                   db_->Cached("SELECT series_id, block_id FROM value_block WHERE series_id = ANY(?::bigint[]) "
                               "AND block_id >= ? AND block_end_ns >= ? AND block_end_ns < ?"));
  q->Bind(1, ArrayLiteral(ids)).Bind(2, *first_block).Bind(3, from).Bind(4, prefetched_from_);
  std::vector<int64_t> blocks;
  while (true) {
    ASSIGN_OR_RETURN(bool row, q->Step());
    if (!row) break;
    const int64_t block = q->ColumnInt(1);
    prefetched_[q->ColumnInt(0)].push_back(Prefetched{block, std::string::npos, -1, 0});
    if (!meta_.contains(block)) blocks.push_back(block);
  }
  q->Reset();
  for (int64_t id : ids) {
    std::vector<Prefetched>& list = prefetched_[id];
    std::sort(list.begin(), list.end(),
              [](const Prefetched& a, const Prefetched& b) { return a.block_id < b.block_id; });
  }
  return FetchBlocks(std::move(blocks));
}

StatusOr<std::optional<TimeRange>> BlockReader::SpanPrefetched(const std::vector<int64_t>& series_ids, TimeNs from) {
  std::optional<TimeRange> span;
  for (int64_t id : series_ids) {
    std::vector<int64_t>& blocks = series_blocks_[id];
    blocks.clear();
    for (const Prefetched& p : prefetched_.at(id)) {
      const auto m = meta_.find(p.block_id);
      if (m == meta_.end()) return Damaged(id);  // a value block without its time block
      if (m->second.last_end < from) continue;
      blocks.push_back(p.block_id);
      if (!span) span = TimeRange{m->second.first_start, m->second.last_end};
      span->from = std::min(span->from, m->second.first_start);
      span->to = std::max(span->to, m->second.last_end);
    }
  }
  return span;
}

Status BlockReader::VisitPrefetched(int64_t series_id, const TimeRange& range,
                                    const std::function<void(int64_t, const SampleBlock&)>& visit) {
  std::vector<Entry> entries;
  for (const Prefetched& p : prefetched_.at(series_id)) {
    const auto m = meta_.find(p.block_id);
    if (m == meta_.end()) return Damaged(series_id);
    const BlockMeta& b = m->second;
    if (b.last_end < range.from || b.first_start > range.to) continue;
    // Listed by PrefetchEarlier only: it ends before prefetched_from_, so before any range read.
    VRECON_CHECK_MSG(p.n_values >= 0, "a block listed without its values was read");
    if (p.offset != std::string::npos && p.n_values != b.n) return Damaged(series_id);
    entries.push_back(Entry{b.file_id, b.first_start, p.block_id, b.n, p.offset, p.present == b.n, series_id});
  }
  // In time order within each file, as the queries give them.
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.file_id != b.file_id ? a.file_id < b.file_id : a.first_start < b.first_start;
  });
  for (const Entry& e : entries) {
    const double* v = e.offset == std::string::npos ? nullptr : prefetched_values_.data() + e.offset;
    RETURN_IF_ERROR(VisitBlock(series_id, e.block_id, e.n, v, e.complete, range,
                               [&](const SampleBlock& b) { visit(series_id, b); }));
  }
  return Status::Ok();
}

}  // namespace vrecon
