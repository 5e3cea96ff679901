#include "src/store/sample_reader.h"

#include <algorithm>
#include <cstring>

#include "src/core/text_util.h"

namespace vrecon {

StatusOr<std::vector<StoredSeries>> FindSeries(Database* db, const SeriesFilter& f) {
  ASSIGN_OR_RETURN(Statement q, db->Prepare("SELECT id, source, machine, object, instance, counter, unit, original "
                                            "FROM series ORDER BY machine, object, instance, counter, source"));
  std::vector<StoredSeries> out;
  auto match = [](const std::optional<std::string>& pat, const std::string& v) { return !pat || GlobMatch(*pat, v); };
  while (true) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) break;
    StoredSeries s;
    s.id = q.ColumnInt(0);
    const std::string source = q.ColumnText(1);
    ParseSourceKind(source, &s.key.source);
    s.key.machine = q.ColumnText(2);
    s.key.object = q.ColumnText(3);
    s.key.instance = q.ColumnText(4);
    s.key.counter = q.ColumnText(5);
    s.key.unit = q.ColumnText(6);
    s.key.original = q.ColumnText(7);
    if (match(f.source, source) && match(f.machine, s.key.machine) && match(f.object, s.key.object) &&
        match(f.instance, s.key.instance) && match(f.counter, s.key.counter))
      out.push_back(std::move(s));
  }
  return out;
}

Status ForEachSample(Database* db, int64_t series_id, const TimeRange& range,
                     const std::function<void(TimeNs, TimeNs, double)>& visit) {
  ASSIGN_OR_RETURN(Statement* q, db->Cached("SELECT t.n, t.starts, t.ends, v.vals FROM value_block v "
                                            "JOIN time_block t ON t.id = v.block_id WHERE v.series_id = ? "
                                            "AND t.last_end_ns >= ? AND t.first_start_ns <= ? "
                                            "ORDER BY t.file_id, t.first_start_ns"));
  q->Bind(1, series_id).Bind(2, range.from).Bind(3, range.to);
  while (true) {
    ASSIGN_OR_RETURN(bool row, q->Step());
    if (!row) break;
    const int64_t n = q->ColumnInt(0);
    const std::string_view starts = q->ColumnBlob(1), ends = q->ColumnBlob(2), vals = q->ColumnBlob(3);
    if (starts.size() != static_cast<size_t>(n) * 8 || ends.size() != starts.size() ||
        (!vals.empty() && vals.size() != starts.size()))
      return Status::ParseError("database " + db->path() + ": a sample block of series " + std::to_string(series_id) +
                                " is damaged");
    for (int64_t i = 0; i < n; ++i) {
      TimeNs s, e;
      double v = kMissing;
      std::memcpy(&s, starts.data() + i * 8, 8);
      std::memcpy(&e, ends.data() + i * 8, 8);
      if (!vals.empty()) std::memcpy(&v, vals.data() + i * 8, 8);
      const bool overlaps = s == e ? (e >= range.from && e <= range.to) : (e > range.from && s < range.to);
      if (overlaps) visit(s, e, v);
    }
  }
  return Status::Ok();
}

StatusOr<std::optional<TimeRange>> SeriesSpan(Database* db, const std::vector<int64_t>& ids) {
  ASSIGN_OR_RETURN(Statement* q, db->Cached("SELECT min(t.first_start_ns), max(t.last_end_ns) FROM value_block v "
                                            "JOIN time_block t ON t.id = v.block_id WHERE v.series_id = ?"));
  std::optional<TimeRange> span;
  for (int64_t id : ids) {
    q->Bind(1, id);
    ASSIGN_OR_RETURN(bool row, q->Step());
    if (row && !q->ColumnIsNull(0)) {
      const TimeNs a = q->ColumnInt(0), b = q->ColumnInt(1);
      if (!span) span = TimeRange{a, b};
      span->from = std::min(span->from, a);
      span->to = std::max(span->to, b);
    }
    q->Reset();
  }
  return span;
}

}  // namespace vrecon
