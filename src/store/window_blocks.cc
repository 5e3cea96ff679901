#include "src/store/window_blocks.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <span>

#include "src/store/array_literal.h"
#include "src/store/blob_codec.h"

namespace vrecon {
namespace {

constexpr uint8_t kFormat = 1;
constexpr uint8_t kFormatWithMore = 2;  // a second presence mask (kMoreFields)
constexpr TimeNs kMin = std::numeric_limits<TimeNs>::min();

// UTC hour start of a window start.
TimeNs HourOf(TimeNs t) { return FloorTo(t, kNsPerHour); }

using blob::Put;
using blob::Take;

using OptField = std::optional<double> StoredWindow::*;
constexpr OptField kFields[] = {&StoredWindow::guest_util,    &StoredWindow::host_util, &StoredWindow::w,
                                &StoredWindow::steal,         &StoredWindow::ready,     &StoredWindow::costop,
                                &StoredWindow::clock_offset_s};
constexpr OptField kMoreFields[] = {&StoredWindow::guest_utility};

bool Present(const std::optional<double>& v) { return v && std::isfinite(*v); }

// A presence mask: bit `first_bit << i` set for each of `fields` the window has.
uint8_t MaskOf(const StoredWindow& w, std::span<const OptField> fields, unsigned first_bit) {
  uint8_t mask = 0;
  for (size_t i = 0; i < fields.size(); ++i)
    if (Present(w.*fields[i])) mask |= static_cast<uint8_t>(first_bit << i);
  return mask;
}

void PutFields(std::string* out, const StoredWindow& w, std::span<const OptField> fields, uint8_t mask,
               unsigned first_bit) {
  for (size_t i = 0; i < fields.size(); ++i)
    if (mask & (first_bit << i)) Put<double>(out, *(w.*fields[i]));
}

// Each of `fields` whose bit is set in `mask` read from the front of `in`, the others reset;
// false when `in` ends first.
bool TakeFields(std::string_view* in, StoredWindow* w, std::span<const OptField> fields, uint8_t mask,
                unsigned first_bit) {
  for (size_t i = 0; i < fields.size(); ++i) {
    std::optional<double>& v = w->*fields[i];
    v.reset();
    if (mask & (first_bit << i)) {
      double d = 0;
      if (!Take(in, &d)) return false;
      v = d;
    }
  }
  return true;
}

Status WriteBlock(Database* db, int64_t vm_id, TimeNs hour, std::span<const StoredWindow> windows) {
  if (windows.empty()) {
    ASSIGN_OR_RETURN(Statement * d, db->Cached("DELETE FROM corr_window_block WHERE vm_id = ?1 AND hour_ns = ?2"));
    d->Bind(1, vm_id).Bind(2, static_cast<int64_t>(hour));
    return d->Run();
  }
  RowBatch write = WindowBlockWrite(db);
  write.Add(WindowBlockRow(vm_id, hour, windows));
  return write.Flush();
}

// The windows in [from, to) added to the hour blocks `hours` holds (the windows they keep), one
// window per start (the last given), each hour written (an empty one deleted).
Status WriteHours(Database* db, int64_t vm_id, TimeNs from, TimeNs to, std::span<const StoredWindow> windows,
                  std::map<TimeNs, std::vector<StoredWindow>>* hours) {
  AddByHour(windows, from, to, hours);
  for (const auto& [hour, list] : *hours) RETURN_IF_ERROR(WriteBlock(db, vm_id, hour, list));
  return Status::Ok();
}

}  // namespace

Status CorruptWindowBlock(Database* db, int64_t vm_id, int64_t hour, const Status& why) {
  return Status::ParseError("corrupt stored correction windows of VM id " + std::to_string(vm_id) + ", hour " +
                            FormatIso(hour, false) + ", in " + db->path() + ": " + why.message() +
                            " (run `vrecon report --recompute` to rebuild them)");
}

std::string EncodeWindowBlock(std::span<const StoredWindow> windows) {
  const bool more =
      std::any_of(windows.begin(), windows.end(), [](const StoredWindow& w) { return MaskOf(w, kMoreFields, 1) != 0; });
  std::string out;
  out.reserve(1 + windows.size() * 96);
  out.push_back(static_cast<char>(more ? kFormatWithMore : kFormat));
  for (const StoredWindow& w : windows) {
    Put<int64_t>(&out, w.start);
    Put<int64_t>(&out, w.end);
    const uint8_t mask = (w.vcpus ? 1 : 0) | MaskOf(w, kFields, 2), more_mask = MaskOf(w, kMoreFields, 1);
    Put(&out, mask);
    if (more) Put(&out, more_mask);
    if (w.vcpus) Put<int32_t>(&out, *w.vcpus);
    PutFields(&out, w, kFields, mask, 2);
    PutFields(&out, w, kMoreFields, more_mask, 1);
    Put<double>(&out, w.guest_cov);
    Put<double>(&out, w.host_cov);
    const std::string flags = EncodeFlags(w.flags);
    Put<uint32_t>(&out, static_cast<uint32_t>(flags.size()));
    out += flags;
  }
  return out;
}

Status DecodeWindowBlock(std::string_view block, const std::function<bool(const StoredWindow&)>& fn) {
  std::string_view in = block;
  uint8_t format = 0;
  if (!Take(&in, &format)) return Status::ParseError("empty window block");
  if (format != kFormat && format != kFormatWithMore)
    return Status::ParseError("window block format " + std::to_string(format) + " is unknown");
  StoredWindow w;
  while (!in.empty()) {
    uint8_t mask = 0, more_mask = 0;
    int64_t start = 0, end = 0;
    if (!Take(&in, &start) || !Take(&in, &end) || !Take(&in, &mask) ||
        (format == kFormatWithMore && !Take(&in, &more_mask)))
      return Status::ParseError("truncated window block");
    if (more_mask >> std::size(kMoreFields))
      return Status::ParseError("window block has fields this vrecon does not know");
    w.start = start;
    w.end = end;
    w.vcpus.reset();
    if (mask & 1) {
      int32_t v = 0;
      if (!Take(&in, &v)) return Status::ParseError("truncated window block");
      w.vcpus = v;
    }
    if (!TakeFields(&in, &w, kFields, mask, 2) || !TakeFields(&in, &w, kMoreFields, more_mask, 1))
      return Status::ParseError("truncated window block");
    uint32_t n = 0;
    std::string_view flags;
    if (!Take(&in, &w.guest_cov) || !Take(&in, &w.host_cov) || !Take(&in, &n) || !blob::TakeBytes(&in, n, &flags))
      return Status::ParseError("truncated window block");
    if (flags.empty()) {
      w.flags.clear();
    } else {
      w.flags = DecodeFlags(flags);
    }
    if (!fn(w)) break;
  }
  return Status::Ok();
}

RowBatch WindowBlockWrite(Database* db) {
  const char* head = "INTO corr_window_block(vm_id, hour_ns, first_start_ns, last_end_ns, windows, data) VALUES";
  // The block written last is the one NewestCorrWindowLength reads: SQLite's REPLACE gives the
  // row a new, largest rowid; PostgreSQL's rows take the next number of a sequence.
  if (db->backend() == Backend::kSqlite) return RowBatch(db, std::string("INSERT OR REPLACE ") + head, "", 6);
  return RowBatch(db, std::string("INSERT ") + head,
                  " ON CONFLICT(vm_id, hour_ns) DO UPDATE SET first_start_ns = excluded.first_start_ns, "
                  "last_end_ns = excluded.last_end_ns, windows = excluded.windows, data = excluded.data, "
                  "written = nextval('corr_window_block_written')",
                  6);
}

std::vector<RowBatch::Value> WindowBlockRow(int64_t vm_id, TimeNs hour, std::span<const StoredWindow> windows) {
  TimeNs last_end = windows.front().end;
  for (const StoredWindow& w : windows) last_end = std::max(last_end, w.end);
  return {vm_id,
          static_cast<int64_t>(hour),
          static_cast<int64_t>(windows.front().start),
          static_cast<int64_t>(last_end),
          static_cast<int64_t>(windows.size()),
          RowBatch::Blob{EncodeWindowBlock(windows)}};
}

void AddByHour(std::span<const StoredWindow> windows, TimeNs from, TimeNs to,
               std::map<TimeNs, std::vector<StoredWindow>>* hours) {
  for (const StoredWindow& w : windows)
    if (w.start >= from && w.start < to) (*hours)[HourOf(w.start)].push_back(w);
  for (auto& [hour, list] : *hours) {
    std::stable_sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.start < b.start; });
    // One window per start, the last given (what a (vm, start) key with INSERT OR REPLACE kept).
    std::vector<StoredWindow> unique;
    unique.reserve(list.size());
    for (StoredWindow& w : list) {
      if (!unique.empty() && unique.back().start == w.start) {
        unique.back() = std::move(w);
      } else {
        unique.push_back(std::move(w));
      }
    }
    list = std::move(unique);
  }
}

Status ReplaceCorrWindows(Store* store, int64_t vm_id, TimeNs from, TimeNs to, std::span<const StoredWindow> windows) {
  Database* db = store->db();
  // Hour blocks that may hold a window starting in [from, to), with the windows they keep.
  std::map<TimeNs, std::vector<StoredWindow>> hours;
  const TimeNs lo = from < kMin + kNsPerHour ? kMin : HourOf(from);
  if (lo == from && (to > std::numeric_limits<TimeNs>::max() - kNsPerHour || HourOf(to) == to)) {
    // Whole hours (a recompute's range): every block in it goes, with no read (a round trip per
    // VM on PostgreSQL), and the new windows' hours are written.
    ASSIGN_OR_RETURN(Statement * d,
                     db->Cached("DELETE FROM corr_window_block WHERE vm_id = ?1 AND hour_ns >= ?2 AND hour_ns < ?3"));
    d->Bind(1, vm_id).Bind(2, static_cast<int64_t>(from)).Bind(3, static_cast<int64_t>(to));
    RETURN_IF_ERROR(d->Run());
    return WriteHours(db, vm_id, from, to, windows, &hours);
  }
  ASSIGN_OR_RETURN(
      Statement * q,
      db->Cached("SELECT hour_ns, data FROM corr_window_block WHERE vm_id = ?1 AND hour_ns >= ?2 AND hour_ns < ?3"));
  q->Bind(1, vm_id).Bind(2, static_cast<int64_t>(lo)).Bind(3, static_cast<int64_t>(to));
  for (;;) {
    auto row = q->Step();
    if (!row.ok()) {
      q->Reset();
      return row.status();
    }
    if (!*row) break;
    const int64_t hour = q->ColumnInt(0);
    std::vector<StoredWindow>& keep = hours[hour];
    if (hour >= from && to >= kMin + kNsPerHour && hour <= to - kNsPerHour) continue;  // wholly inside: nothing kept
    Status st = DecodeWindowBlock(q->ColumnBlob(1), [&](const StoredWindow& w) {
      if (w.start < from || w.start >= to) keep.push_back(w);
      return true;
    });
    if (!st.ok()) {
      q->Reset();
      return CorruptWindowBlock(db, vm_id, hour, st);
    }
  }
  q->Reset();
  return WriteHours(db, vm_id, from, to, windows, &hours);
}

Status ForEachCorrWindow(Store* store, int64_t vm_id, TimeNs from, TimeNs to,
                         const std::function<bool(const StoredWindow&)>& fn) {
  Database* db = store->db();
  // Cached: PostgreSQL prepares it and sends the blocks as bytes rather than hex text.
  ASSIGN_OR_RETURN(Statement * q, db->Cached("SELECT hour_ns, data FROM corr_window_block WHERE vm_id = ?1 AND "
                                             "last_end_ns > ?2 AND first_start_ns < ?3 ORDER BY hour_ns"));
  q->Bind(1, vm_id).Bind(2, static_cast<int64_t>(from)).Bind(3, static_cast<int64_t>(to));
  bool more = true;
  while (more) {
    ASSIGN_OR_RETURN(bool row, q->Step());
    if (!row) break;
    Status st = DecodeWindowBlock(q->ColumnBlob(1), [&](const StoredWindow& w) {
      if (w.end > from && w.start < to) more = fn(w);
      return more;
    });
    if (!st.ok()) return CorruptWindowBlock(db, vm_id, q->ColumnInt(0), st);
  }
  q->Reset();
  return Status::Ok();
}

StatusOr<std::map<int64_t, TimeNs>> CorrWindowReach(Store* store, const std::vector<int64_t>& vm_ids) {
  Database* db = store->db();
  std::map<int64_t, TimeNs> out;
  if (vm_ids.empty()) return out;
  // One statement on PostgreSQL; on SQLite a lookup per VM costs no round trip.
  const bool pg = db->backend() == Backend::kPostgres;
  ASSIGN_OR_RETURN(Statement * q, db->Cached(pg ? "SELECT vm_id, max(last_end_ns) FROM corr_window_block WHERE "
                                                  "vm_id = ANY(?::bigint[]) GROUP BY vm_id"
                                                : "SELECT vm_id, max(last_end_ns) FROM corr_window_block WHERE "
                                                  "vm_id = ? GROUP BY vm_id"));
  auto take = [&]() -> Status {
    for (;;) {
      ASSIGN_OR_RETURN(bool row, q->Step());
      if (!row) break;
      out[q->ColumnInt(0)] = q->ColumnInt(1);
    }
    q->Reset();
    return Status::Ok();
  };
  if (pg) {
    q->Bind(1, ArrayLiteral(vm_ids));
    RETURN_IF_ERROR(take());
    return out;
  }
  for (int64_t id : vm_ids) {
    q->Bind(1, id);
    RETURN_IF_ERROR(take());
  }
  return out;
}

StatusOr<int64_t> CountCorrWindows(Store* store) {
  Database* db = store->db();
  ASSIGN_OR_RETURN(Statement q, db->Prepare("SELECT coalesce(sum(windows), 0) FROM corr_window_block"));
  ASSIGN_OR_RETURN(bool row, q.Step());
  return row ? q.ColumnInt(0) : 0;
}

StatusOr<std::optional<TimeNs>> NewestCorrWindowLength(Store* store) {
  Database* db = store->db();
  ASSIGN_OR_RETURN(Statement q, db->Prepare(db->backend() == Backend::kSqlite
                                                ? "SELECT data FROM corr_window_block ORDER BY rowid DESC LIMIT 1"
                                                : "SELECT data FROM corr_window_block ORDER BY written DESC LIMIT 1"));
  ASSIGN_OR_RETURN(bool row, q.Step());
  if (!row) return std::optional<TimeNs>();
  std::optional<TimeNs> length;
  Status st = DecodeWindowBlock(q.ColumnBlob(0), [&](const StoredWindow& w) {
    length = w.end - w.start;
    return true;  // the block's last window
  });
  if (!st.ok()) return Status::ParseError("corrupt stored correction windows in " + db->path() + ": " + st.message());
  return length;
}

namespace {

Status CopyCorrWindowRows(Database* db) {
  ASSIGN_OR_RETURN(
      Statement q,
      db->Prepare(
          "SELECT vm_id, start_ns, end_ns, vcpus, guest_util, host_util, w, steal, ready, costop, clock_offset_s, "
          "guest_cov, host_cov, flags FROM corr_window ORDER BY vm_id, start_ns"));
  auto opt = [&](int i) { return q.ColumnIsNull(i) ? std::nullopt : std::optional<double>(q.ColumnDouble(i)); };
  int64_t vm = 0;
  TimeNs hour = 0;
  std::vector<StoredWindow> block;
  auto flush = [&]() -> Status {
    if (block.empty()) return Status::Ok();
    Status st = WriteBlock(db, vm, hour, block);
    block.clear();
    return st;
  };
  for (;;) {
    ASSIGN_OR_RETURN(bool row, q.Step());
    if (!row) break;
    StoredWindow w;
    w.start = q.ColumnInt(1);
    w.end = q.ColumnInt(2);
    if (!q.ColumnIsNull(3)) w.vcpus = static_cast<int>(q.ColumnInt(3));
    for (size_t i = 0; i < std::size(kFields); ++i) w.*kFields[i] = opt(4 + static_cast<int>(i));
    w.guest_cov = q.ColumnDouble(11);
    w.host_cov = q.ColumnDouble(12);
    w.flags = DecodeFlags(q.ColumnBlob(13));
    if (q.ColumnInt(0) != vm || HourOf(w.start) != hour) {
      RETURN_IF_ERROR(flush());
      vm = q.ColumnInt(0);
      hour = HourOf(w.start);
    }
    block.push_back(std::move(w));
  }
  return flush();
}

}  // namespace

Status MoveCorrWindowsIntoBlocks(Database* db) {
  RETURN_IF_ERROR(CopyCorrWindowRows(db));  // its statement is finalized before the table goes
  return db->Exec("DROP TABLE corr_window");
}

}  // namespace vrecon
