// Data rows of a Perfmon log: cells, the row's time in UTC (daylight-saving shifts, rows out of
// order, jumps) and what goes to the sink. Part of PerfmonReader (perfmon_reader.h).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

#include "adapters/perfmon/perfmon_reader.h"
#include "src/core/text_util.h"

namespace vrecon::perfmon {
namespace {

constexpr TimeNs kHour = 3600 * kNsPerSec;

// One cell of a row. Perfmon quotes every cell ("..."); spreadsheets re-save without quotes.
// Returns false at the end of the line. Doubled quotes inside a quoted cell are kept as they
// are: they never occur in values, and header cells go through UnquoteHeaderCell.
inline bool NextCell(const char*& p, const char* end, char delim, std::string_view* cell, bool* more) {
  if (p > end) return false;
  if (p < end && *p == '"') {
    const char* q = static_cast<const char*>(std::memchr(p + 1, '"', end - p - 1));
    if (q == nullptr) {
      *cell = std::string_view(p + 1, end - p - 1);
      p = end + 1;
      *more = false;
      return true;
    }
    *cell = std::string_view(p + 1, q - p - 1);
    p = q + 1;
    // The delimiter almost always follows the closing quote at once: skip the memchr call then.
    const char* d = p < end && *p == delim ? p : static_cast<const char*>(std::memchr(p, delim, end - p));
    if (d == nullptr) {
      p = end + 1;
      *more = false;
    } else {
      p = d + 1;
      *more = true;
    }
    return true;
  }
  const char* d = static_cast<const char*>(std::memchr(p, delim, end - p));
  if (d == nullptr) {
    *cell = std::string_view(p, end - p);
    p = end + 1;
    *more = false;
  } else {
    *cell = std::string_view(p, d - p);
    p = d + 1;
    *more = true;
  }
  return true;
}

// The UTC time of the row where the shift shows, in a fixed form the correction engine reads
// back to flag the window ("; shift at <ISO>Z").
std::string DstShiftAt(TimeNs local, int bias_minutes) {
  return "; shift at " + FormatIso(local + static_cast<TimeNs>(bias_minutes) * 60 * kNsPerSec, true);
}

}  // namespace

TimeNs PerfmonReader::TypicalStep() const {
  if (first_deltas_.empty()) return 15 * kNsPerSec;
  std::vector<TimeNs> d = first_deltas_;
  std::nth_element(d.begin(), d.begin() + d.size() / 2, d.end());
  return d[d.size() / 2];
}

// Local time going back by an hour less at most a few steps: daylight saving time ended.
// `typical` is whatever the first rows' steps were, decades in a damaged file: capped at an hour,
// 3 x typical cannot overflow, and the test is the same (after_fallback < 1 h).
bool PerfmonReader::IsFallBack(TimeNs local_delta) const {
  const TimeNs after_fallback = local_delta + kHour;
  return local_delta < 0 && after_fallback > 0 &&
         after_fallback <= std::max<TimeNs>(3 * std::min(TypicalStep(), kHour), 300 * kNsPerSec);
}

// A step this long after the previous row is held until the next row says whether it is real.
// `typical` is capped at an hour so that a damaged file's first steps cannot overflow the test.
bool PerfmonReader::IsJump(TimeNs utc) const {
  return have_prev_ && utc - prev_utc_ > std::max<TimeNs>(120 * kNsPerSec, 4 * std::min(TypicalStep(), kHour));
}

// After a gap this long, a row's values are not spread back over the gap: the log paused (or its
// clock jumped), and windows inside the gap have no sample rather than one average over hours.
TimeNs PerfmonReader::LongGap() const { return std::max<TimeNs>(kHour, 20 * std::min(TypicalStep(), kHour)); }

std::optional<TimeNs> PerfmonReader::ToUtc(TimeNs local) {
  if (have_prev_) {
    const TimeNs delta = local - prev_local_;
    const TimeNs typical = TypicalStep();
    const TimeNs tolerance = std::max<TimeNs>(2 * kNsPerSec, typical / 2);
    if (IsFallBack(delta)) {
      bias_ += 60;
      const TimeNs at = local + static_cast<TimeNs>(bias_) * 60 * kNsPerSec;
      ClockEvent("dst-shift", at, at - kHour);
      Issue(Severity::kInfo, "dst-shift",
            "local time went back one hour (daylight saving time ended); the UTC bias is now " + std::to_string(bias_) +
                " min and UTC times stay monotonic" + DstShiftAt(local, bias_));
    } else if (delta > kHour && !ZoneNameIsDaylight(summary_.time_zone) &&
               std::llabs(delta - kHour - typical) <= tolerance) {
      bias_ -= 60;
      const TimeNs at = local + static_cast<TimeNs>(bias_) * 60 * kNsPerSec;
      ClockEvent("dst-shift", at, at + kHour);
      Issue(Severity::kInfo, "dst-shift",
            "local time jumped forward one hour (daylight saving time began); the UTC bias is now " +
                std::to_string(bias_) + " min" + DstShiftAt(local, bias_));
    } else if (delta > 0 && first_deltas_.size() < 16) {
      first_deltas_.push_back(delta);
    }
  }
  const TimeNs utc = local + static_cast<TimeNs>(bias_) * 60 * kNsPerSec;
  if (have_prev_ && utc <= prev_utc_) {
    ClockEvent("time-backwards", prev_utc_, utc);
    Issue(Severity::kWarning, "time-backwards",
          std::string("the row's time ") + FormatIso(utc, true) + " is not after the previous row's " +
              FormatIso(prev_utc_, true) + "; the row is skipped");
    return std::nullopt;
  }
  return utc;
}

Status PerfmonReader::OnDataRow(std::string_view line) {
  // Rows stored by an earlier ingest are re-read for the clock state only; their issues were
  // recorded then.
  const bool already = summary_.lines <= resume_.after_line;
  quiet_ = already;
  struct Unquiet {
    bool& q;
    ~Unquiet() { q = false; }
  } unquiet{quiet_};
  const char* p = line.data();
  const char* end = line.data() + line.size();
  std::string_view cell;
  bool more = false;
  NextCell(p, end, delim_, &cell, &more);
  auto local = ParseLocalTimestamp(cell);
  if (!local) {
    Issue(
        Severity::kWarning, "bad-timestamp",
        "the first cell \"" + Printable(cell) + "\" is not a timestamp (MM/DD/YYYY HH:MM:SS.mmm); the row is skipped");
    return Status::Ok();
  }
  const size_t ncols = column_map_.size();
  size_t i = 0;
  std::fill(values_.begin(), values_.end(), kMissing);
  while (more && NextCell(p, end, delim_, &cell, &more)) {
    if (i >= ncols) {
      ++i;
      continue;
    }
    const int col = column_map_[i++];
    if (col < 0 || cell.empty()) continue;
    double v;
    auto r = std::from_chars(cell.data(), cell.data() + cell.size(), v);
    // The comparison is false for NaN and true for Inf: one test on the fast path.
    if (r.ec == std::errc() && r.ptr == cell.data() + cell.size() && std::fabs(v) <= kMaxCounterMagnitude) {
      values_[col] = v;
      continue;
    }
    if (IsBlank(cell)) continue;
    std::optional<double> parsed = ParseDouble(cell);
    if (parsed && std::fabs(*parsed) <= kMaxCounterMagnitude) {
      values_[col] = *parsed;
      continue;
    }
    // A number too large for a counter, or for a double (1.8e308): stored as missing, said so.
    if (parsed || (r.ec == std::errc::result_out_of_range && r.ptr == cell.data() + cell.size())) {
      Issue(Severity::kWarning, "out-of-range",
            "column " + std::to_string(i + 1) + " holds \"" + Printable(cell) +
                "\", beyond any counter's range (magnitude over 1e100); that value is stored as missing");
      continue;
    }
    Issue(Severity::kWarning, "non-numeric",
          "column " + std::to_string(i + 1) + " holds \"" + Printable(cell) +
              "\", not a number; that value is stored as missing");
  }
  const bool ragged = i != ncols;
  if (ragged) {
    Issue(Severity::kWarning, "ragged-row",
          "the row has " + std::to_string(i + 1) + " cells but the header has " + std::to_string(ncols + 1) +
              "; the row is skipped");
  }
  if (held_) RETURN_IF_ERROR(SettleHeld(*local));
  quiet_ = already;
  const std::optional<TimeNs> utc = ToUtc(*local);
  if (!utc) return Status::Ok();
  const Row row{summary_.lines, *local, *utc, ragged, already};
  // The row an earlier ingest stopped at was stored then: it is never held back now.
  if (IsJump(*utc) && summary_.lines != resume_.after_line) {
    held_ = Held{row, values_, Fnv1a64(line)};
    return Status::Ok();
  }
  return Accept(row, values_, line, std::nullopt);
}

// Decides a held row by the next row's time: a next row later than it confirms the jump (the log
// paused), one between the previous row and it says the held row's time is wrong. A next row
// before both decides nothing (it is itself out of order) and the held row waits for the one after.
Status PerfmonReader::SettleHeld(TimeNs next_local) {
  const TimeNs next_utc = next_local + static_cast<TimeNs>(bias_) * 60 * kNsPerSec;
  if (next_utc <= prev_utc_) return Status::Ok();
  Held h = std::move(*held_);
  held_.reset();
  // A next row an hour back (less a step) is the end of daylight saving time after the jump.
  if (next_utc > h.row.utc || IsFallBack(next_local - h.row.local)) return Accept(h.row, h.values, {}, h.line_hash);
  quiet_ = h.row.already;
  Issue(Severity::kWarning, "time-jump",
        "the row's time " + FormatIso(h.row.utc, true) + " jumps ahead of both the previous row's " +
            FormatIso(prev_utc_, true) + " and the next row's " + FormatIso(next_utc, true) +
            ": its time is wrong, so the row is skipped",
        h.row.line);
  return Status::Ok();
}

// The row's time becomes the clock state; unless ragged, its values go to the sink (or, for a row
// an earlier ingest stored, are counted). `line_hash` is known for a held row, whose text is gone.
Status PerfmonReader::Accept(const Row& row, const std::vector<double>& values, std::string_view text,
                             std::optional<uint64_t> line_hash) {
  const bool gap = have_prev_ && row.utc - prev_utc_ > LongGap();
  TimeNs start = have_prev_ ? prev_utc_ : row.utc;
  const TimeNs previous = prev_utc_;
  have_prev_ = true;
  prev_local_ = row.local;
  prev_utc_ = row.utc;
  // A ragged row's time still marks a sample the collector took: the next row's values cover the
  // time since then, not since the last row stored.
  if (row.ragged) return Status::Ok();
  quiet_ = row.already;
  if (row.already) {
    shares_->Remember(values);
    ++summary_.rows_already;
    if (row.line == resume_.after_line) {
      summary_.consumed_lines = row.line;
      summary_.consumed_line_hash = line_hash ? *line_hash : Fnv1a64(text);
      quiet_ = false;
      if (summary_.consumed_line_hash != resume_.line_hash)
        Issue(Severity::kWarning, "file-changed",
              "this line differs from what an earlier ingest read here; rows up to it were not read again", row.line);
    }
    return Status::Ok();
  }
  if (gap) {
    start = row.utc - std::min(TypicalStep(), kHour);
    Issue(Severity::kInfo, "long-gap",
          "no row between " + FormatIso(previous, true) + " and this one at " + FormatIso(row.utc, true) +
              "; its values are taken over one usual step, not spread over the gap",
          row.line);
  }
  RETURN_IF_ERROR(sink_->AddRow(start, row.utc, values));
  ++summary_.rows;
  // The span of the rows, not their first and last: a clock stepped back puts a row before the
  // first, and what is recomputed after an ingest starts at the earliest.
  if (!summary_.first_end || row.utc < *summary_.first_end) summary_.first_end = row.utc;
  if (!summary_.last_end || row.utc > *summary_.last_end) summary_.last_end = row.utc;
  summary_.consumed_lines = row.line;
  if (line_hash) {
    summary_.consumed_line_hash = *line_hash;
    line_hash_pending_ = false;
  } else {
    // Only the last stored line's hash is kept, so hashing every row (a serial byte loop over the
    // whole file) is deferred: SettleLineHash hashes the latest one before its text goes away.
    unhashed_line_ = text;
    line_hash_pending_ = true;
  }
  return Status::Ok();
}

// At the end of the input nothing contradicts a held row: it is kept (with its gap).
Status PerfmonReader::FinishHeld() {
  if (!held_) return Status::Ok();
  Held h = std::move(*held_);
  held_.reset();
  return Accept(h.row, h.values, {}, h.line_hash);
}

}  // namespace vrecon::perfmon
