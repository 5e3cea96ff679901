#include "adapters/linux_proc/sar_reader.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <utility>

#include "src/core/text_util.h"

namespace vrecon::sar {
namespace {

constexpr TimeNs kDay = 86400 * kNsPerSec;

// "HH:MM:SS" (and the AM/PM word after it, when there is one): seconds into the day as ns.
// `used` is how many words the time took.
std::optional<TimeNs> TimeOfDay(const std::vector<std::string_view>& w, size_t* used) {
  if (w.empty()) return std::nullopt;
  std::string_view t = w[0];
  if (t.size() < 7 || t.size() > 8 || t[t.size() - 3] != ':' || t[t.size() - 6] != ':') return std::nullopt;
  int h, m, s;
  if (!ParseWholeNumber(t.substr(0, t.size() - 6), &h) || !ParseWholeNumber(t.substr(t.size() - 5, 2), &m) ||
      !ParseWholeNumber(t.substr(t.size() - 2), &s))
    return std::nullopt;
  *used = 1;
  if (w.size() > 1 && (w[1] == "AM" || w[1] == "PM" || w[1] == "am" || w[1] == "pm")) {
    if (h < 1 || h > 12) return std::nullopt;
    const bool pm = w[1] == "PM" || w[1] == "pm";
    h = h % 12 + (pm ? 12 : 0);
    *used = 2;
  }
  if (h > 23 || m > 59 || s > 60) return std::nullopt;
  return (static_cast<TimeNs>(h) * 3600 + m * 60 + s) * kNsPerSec;
}

// The header's date: "03/07/2024", "03/07/24" (month first, day first when the month cannot be),
// "2024-03-07", "07.03.2024". Local midnight on a zone-less axis.
std::optional<TimeNs> ParseDate(std::string_view s) {
  int a, b, c;
  auto three = [&](char sep) {
    const size_t p1 = s.find(sep), p2 = s.find(sep, p1 == std::string_view::npos ? 0 : p1 + 1);
    if (p1 == std::string_view::npos || p2 == std::string_view::npos) return false;
    return ParseWholeNumber(s.substr(0, p1), &a) && ParseWholeNumber(s.substr(p1 + 1, p2 - p1 - 1), &b) &&
           ParseWholeNumber(s.substr(p2 + 1), &c);
  };
  int y, mo, d;
  if (three('-') && a > 31) {
    y = a, mo = b, d = c;
  } else if (three('/')) {
    y = c, mo = a, d = b;
    if (mo > 12) std::swap(mo, d);
  } else if (three('.')) {
    y = c, mo = b, d = a;
  } else {
    return std::nullopt;
  }
  if (y < 100) y += 2000;
  if (y < 1970 || y > kMaxYear || mo < 1 || mo > 12 || d < 1 || d > DaysInMonth(y, mo)) return std::nullopt;
  return DaysFromCivil(y, mo, d) * kDay;
}

std::string CounterFor(std::string_view field) {
  static const std::pair<const char*, const char*> kNames[] = {
      {"%user", "% User Time"},     {"%usr", "% User Time"},    {"%nice", "% Nice Time"},
      {"%system", "% System Time"}, {"%sys", "% System Time"},  {"%iowait", "% IOWait Time"},
      {"%steal", "% Steal Time"},   {"%idle", "% Idle Time"},   {"%irq", "% IRQ Time"},
      {"%soft", "% SoftIRQ Time"},  {"%guest", "% Guest Time"}, {"%gnice", "% Guest Nice Time"}};
  for (const auto& [f, c] : kNames)
    if (field == f) return c;
  std::string_view bare = field.starts_with('%') ? field.substr(1) : field;
  return "% " + std::string(bare) + " Time";
}

std::optional<double> Value(std::string_view s) {
  if (auto v = ParseDouble(s)) return v;
  std::string t(s);
  std::replace(t.begin(), t.end(), ',', '.');  // decimal comma locales
  return ParseDouble(t);
}

}  // namespace

// sar's output saved on Windows (PowerShell's Out-File) arrives in UTF-16 with a BOM: decoded.
SarReader::SarReader(ReaderOptions options, SampleSink* sink)
    : LineReader(std::move(options), sink, "sar text output") {
  summary_.format = "sar-text";
  if (options_.default_machine.empty()) options_.default_machine = std::filesystem::path(options_.file).stem().string();
  machine_ = options_.default_machine;
  day_ = options_.date;
  summary_.bias_minutes = options_.tz_bias_minutes.value_or(0);
}

Status SarReader::EndLines() {
  RETURN_IF_ERROR(FlushGroup());
  if (!fingerprinted_)
    return Status::InvalidArgument(options_.file + ": no sar -u data row (\"HH:MM:SS [AM|PM] all|N values...\") found");
  issues_.ReportCapped(options_.file, sink_);
  return Status::Ok();
}

std::optional<TimeNs> SarReader::LocalTime(TimeNs tod) {
  if (!day_) return std::nullopt;
  // sar prints no date on rows: a time of day earlier than the last one is the next day. Days
  // past the years times may have (kMaxYear) are no date: rows there are bad rows.
  static const TimeNs kLastDay = DaysFromCivil(kMaxYear, 12, 31) * kDay;
  if (last_tod_ && tod + kDay / 2 < *last_tod_) {
    if (*day_ >= kLastDay) return std::nullopt;
    *day_ += kDay;
  }
  last_tod_ = tod;
  return *day_ + tod;
}

Status SarReader::OnLine(std::string_view line) {
  ++summary_.lines;
  const int64_t n = summary_.lines;
  std::string_view t = Trim(line);
  if (t.empty()) return Status::Ok();
  if (first_line_.empty()) first_line_ = std::string(t);
  std::vector<std::string_view> w = SplitWords(t);
  if (w[0] == "Linux" || w[0] == "LINUX") {
    // Linux 5.4.17-2136 (web01)   03/07/2024   _x86_64_   (2 CPU)
    RETURN_IF_ERROR(FlushGroup());
    for (size_t i = 1; i < w.size(); ++i) {
      if (w[i].size() > 2 && w[i].front() == '(' && w[i].back() == ')' && machine_ == options_.default_machine &&
          i + 1 < w.size()) {
        machine_ = std::string(w[i].substr(1, w[i].size() - 2));
      } else if (auto d = ParseDate(w[i])) {
        day_ = *d;
        last_tod_.reset();
      }
    }
    return Status::Ok();
  }
  if (w[0] == "Average:" || w[0] == "Summary:" || w[0] == "Summary") return Status::Ok();
  size_t used = 0;
  std::optional<TimeNs> tod = TimeOfDay(w, &used);
  if (!tod) {
    RaiseIssue(n, Severity::kWarning, "bad-timestamp", "not a sar line (no HH:MM:SS time first); skipped");
    return Status::Ok();
  }
  if (used >= w.size()) return Status::Ok();
  if (w[used] == "CPU") {
    // Column header: its time is where the next collection's interval starts.
    RETURN_IF_ERROR(FlushGroup());
    fields_.clear();
    for (size_t i = used + 1; i < w.size(); ++i) fields_.emplace_back(w[i]);
    if (auto lt = LocalTime(*tod)) start_local_ = lt;
    return Status::Ok();
  }
  if (w[used] == "LINUX" && used + 1 < w.size() && w[used + 1] == "RESTART") {
    RETURN_IF_ERROR(FlushGroup());
    const std::optional<TimeNs> before = prev_utc_;
    prev_utc_.reset();
    start_local_ = LocalTime(*tod);
    if (start_local_ && n > resume_.after_line) {
      const TimeNs boot = *start_local_ + static_cast<TimeNs>(summary_.bias_minutes) * 60 * kNsPerSec;
      sink_->AddClockEvent(ClockRecord{"restart", before.value_or(boot), boot, options_.file, n});
    }
    RaiseIssue(n, Severity::kInfo, "restart",
               "the machine restarted here; the next row's interval starts at the restart");
    return Status::Ok();
  }
  return OnData(w, used, *tod, t);
}

Status SarReader::OnData(const std::vector<std::string_view>& w, size_t first, TimeNs tod, std::string_view line) {
  const int64_t n = summary_.lines;
  if (!fingerprinted_) {
    if (!day_)
      return Status::InvalidArgument(options_.file +
                                     " has no sar header line with the date (\"Linux ... (host) MM/DD/YYYY ...\"); "
                                     "pass --date YYYY-MM-DD");
    fingerprinted_ = true;
    std::string id = first_line_ + "\n" + std::string(line);
    if (options_.date) id += "\n" + FormatIso(*options_.date, false);
    summary_.fingerprint = Fnv1a64(id);
    if (options_.resume_lookup) resume_ = options_.resume_lookup(summary_.fingerprint);
    if (!options_.tz_bias_minutes && resume_.after_line == 0)
      RaiseIssue(
          0, Severity::kWarning, "no-bias",
          "sar prints local time without its zone: times were taken as UTC (pass --tz-bias MIN for another zone)");
  }
  int cpu = -1;
  if (w[first] != "all" && !ParseWholeNumber(w[first], &cpu)) {
    RaiseIssue(n, Severity::kWarning, "bad-counter-path",
               "CPU column holds \"" + std::string(w[first]) + "\"; row skipped");
    return Status::Ok();
  }
  if (w.size() - first - 1 != fields_.size()) {
    RaiseIssue(n, Severity::kWarning, "ragged-row",
               "the row has " + std::to_string(w.size() - first - 1) + " values but " + std::to_string(fields_.size()) +
                   " columns are expected; the row is skipped");
    return Status::Ok();
  }
  std::optional<TimeNs> local;
  if (group_local_ && *last_tod_ == tod) {
    local = group_local_;
  } else {
    RETURN_IF_ERROR(FlushGroup());
    local = LocalTime(tod);
    if (!local) {
      RaiseIssue(n, Severity::kWarning, "bad-timestamp",
                 "the rows' date runs past " + std::to_string(kMaxYear) + "; the row is skipped");
      return Status::Ok();
    }
    group_local_ = local;
  }
  std::vector<double>& v = group_[cpu];
  v.assign(fields_.size(), kMissing);
  for (size_t i = 0; i < fields_.size(); ++i) {
    auto x = Value(w[first + 1 + i]);
    if (x) {
      v[i] = *x;
    } else {
      RaiseIssue(n, Severity::kWarning, "non-numeric",
                 std::string("\"").append(w[first + 1 + i]) + "\" is not a number; that value is stored as missing");
    }
  }
  group_line_ = n;
  group_line_hash_ = Fnv1a64(line);
  return Status::Ok();
}

Status SarReader::FlushGroup() {
  if (!group_local_) return Status::Ok();
  std::map<int, std::vector<double>> group;
  group.swap(group_);
  const auto [start, end] = TakeGroupSpan();
  if (prev_utc_ && end <= *prev_utc_) {
    // A Linux clock step back: data for the clock model, whatever the message says.
    if (group_line_ > resume_.after_line)
      sink_->AddClockEvent(ClockRecord{"time-backwards", *prev_utc_, end, options_.file, group_line_});
    RaiseIssue(group_line_, Severity::kWarning, "time-backwards",
               "the time is not after the previous row's; row skipped");
    return Status::Ok();
  }
  prev_utc_ = end;
  if (group_line_ <= resume_.after_line) {
    CountStoredRow();
    return Status::Ok();
  }
  RETURN_IF_ERROR(DeclareCpus(group));
  return WriteRow(group, std::min(start, end), end);
}

std::pair<TimeNs, TimeNs> SarReader::TakeGroupSpan() {
  const TimeNs bias = static_cast<TimeNs>(summary_.bias_minutes) * 60 * kNsPerSec;
  const TimeNs end = *group_local_ + bias;
  const TimeNs start = start_local_ ? *start_local_ + bias : prev_utc_ ? *prev_utc_ : end;
  group_local_.reset();
  start_local_.reset();
  return {start, end};
}

// A row an earlier ingest stored: counted, and the resume point's line checked.
void SarReader::CountStoredRow() {
  ++summary_.rows_already;
  if (group_line_ != resume_.after_line) return;
  summary_.consumed_lines = group_line_;
  summary_.consumed_line_hash = group_line_hash_;
  if (group_line_hash_ != resume_.line_hash)
    RaiseIssue(group_line_, Severity::kWarning, "file-changed",
               "this line differs from what an earlier ingest read here; rows up to it were not read again");
}

// Declares the columns again when the group's CPUs or the header's fields changed: per CPU, the
// busy figure (where %idle is there) and each field.
Status SarReader::DeclareCpus(const std::map<int, std::vector<double>>& group) {
  std::vector<int> cpus;
  cpus.reserve(group.size());
  for (const auto& [c, v] : group) cpus.push_back(c);
  if (cpus == declared_cpus_ && fields_ == declared_fields_) return Status::Ok();
  declared_cpus_ = cpus;
  declared_fields_ = fields_;
  declared_.clear();
  const bool idle = std::find(fields_.begin(), fields_.end(), "%idle") != fields_.end();
  for (int c : cpus) {
    const std::string inst = c < 0 ? "_Total" : std::to_string(c);
    const std::string cpu_word = c < 0 ? "all" : inst;
    auto key = [&](const std::string& counter, const std::string& orig) {
      SeriesKey k;
      k.source = SourceKind::kGuest;
      k.machine = machine_;
      k.object = "Processor";
      k.instance = inst;
      k.counter = counter;
      k.unit = "percent";
      k.original = "sar CPU " + cpu_word + " " + orig;
      return k;
    };
    if (idle) declared_.push_back(key("% Processor Time", "100 - %idle - %iowait - %steal"));
    for (const std::string& f : fields_) declared_.push_back(key(CounterFor(f), f));
  }
  for (const SeriesKey& k : declared_) {
    bool seen = false;
    for (const SeriesKey& s : summary_.columns)
      seen = seen || (s.instance == k.instance && s.counter == k.counter && s.machine == k.machine);
    if (!seen) summary_.columns.push_back(k);
  }
  return sink_->DeclareColumns(declared_);
}

Status SarReader::WriteRow(const std::map<int, std::vector<double>>& group, TimeNs start, TimeNs end) {
  // Busy as the /proc sampler counts it (user + nice + system + irq + softirq): iowait is idle
  // time spent waiting for I/O, and steal is time the hypervisor ran something else.
  const auto idle = std::find(fields_.begin(), fields_.end(), "%idle");
  const auto iowait = std::find(fields_.begin(), fields_.end(), "%iowait");
  const auto steal = std::find(fields_.begin(), fields_.end(), "%steal");
  row_.clear();
  for (const auto& [c, v] : group) {
    if (idle != fields_.end()) {
      const double id = v[idle - fields_.begin()];
      double busy = 100.0 - id;
      for (auto f : {iowait, steal})
        if (f != fields_.end() && !IsMissing(v[f - fields_.begin()])) busy -= v[f - fields_.begin()];
      row_.push_back(IsMissing(id) ? kMissing : std::round(busy * 1e9) / 1e9);  // no 1.0100000000000051
    }
    row_.insert(row_.end(), v.begin(), v.end());
  }
  RETURN_IF_ERROR(sink_->AddRow(start, end, row_));
  ++summary_.rows;
  // The span of the rows, not their first and last: a clock stepped back puts a row before the
  // first, and what is recomputed after an ingest starts at the earliest.
  if (!summary_.first_end || end < *summary_.first_end) summary_.first_end = end;
  if (!summary_.last_end || end > *summary_.last_end) summary_.last_end = end;
  summary_.consumed_lines = group_line_;
  summary_.consumed_line_hash = group_line_hash_;
  return Status::Ok();
}

bool LooksLikeSar(std::string_view raw_head) {
  const std::string line = FirstHeadLine(raw_head);
  if (line.empty()) return false;
  std::vector<std::string_view> w = SplitWords(line);
  if (w[0] == "Linux") return line.find('(') != std::string::npos;
  size_t used = 0;
  if (!TimeOfDay(w, &used) || used >= w.size()) return false;
  int cpu;
  return w[used] == "CPU" || w[used] == "all" || (ParseWholeNumber(w[used], &cpu) && w.size() > used + 2);
}

bool LooksLikeAixSar(std::string_view head) {
  bool first = true, found = false;
  ForEachHeadLine(head, [&](std::string_view line) {
    const std::vector<std::string_view> w = SplitWords(line);
    if (w.empty()) return true;
    found = first && w[0] == "AIX" && w.size() >= 4;
    first = false;
    for (std::string_view word : w) found = found || word == "physc" || word == "%entc";
    return !found;
  });
  return found;
}

}  // namespace vrecon::sar
