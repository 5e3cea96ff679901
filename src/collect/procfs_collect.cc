#include "src/collect/procfs_collect.h"

#include <time.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>

#include "adapters/perfmon/pdh_csv_writer.h"
#include "src/core/file_replace.h"
#include "src/core/interruptible_sleep.h"
#include "src/core/text_util.h"
#include "src/store/block_writer.h"

namespace vrecon {
namespace {

TimeNs WallNow() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}
// The sleeps' own clock (src/core/interruptible_sleep.h): the ticks are planned on what they wait on.
TimeNs MonoNow() { return SleepClock::Real().Now(); }

// Holds rows between flushes; replays them into a BlockWriter inside one transaction.
class StoreFlushSink : public SampleSink {
 public:
  StoreFlushSink(StoreOpener open, FileRecord rec) : open_(std::move(open)), rec_(std::move(rec)) {}
  Status DeclareColumns(const std::vector<SeriesKey>& columns) override {
    columns_ = columns;
    events_.push_back(Event{true, 0, 0, {}, columns});
    return Status::Ok();
  }
  Status AddRow(TimeNs start, TimeNs end, std::span<const double> values) override {
    events_.push_back(Event{false, start, end, std::vector<double>(values.begin(), values.end()), {}});
    ++pending_rows_;
    return Status::Ok();
  }
  void AddIssue(ImportIssue issue) override { issues_.push_back(std::move(issue)); }
  int64_t pending_rows() const { return pending_rows_; }

  Status Flush() {
    if (pending_rows_ == 0 && issues_.empty()) return Status::Ok();
    if (!store_) {
      ASSIGN_OR_RETURN(store_, open_());
    }
    ASSIGN_OR_RETURN(Transaction tx, store_->BeginTransaction());
    if (rec_.id == 0) RETURN_IF_ERROR(store_->SaveFile(&rec_));
    BlockWriter w(store_);
    w.set_file_id(rec_.id);
    if (events_.empty() || !events_.front().declare) RETURN_IF_ERROR(w.DeclareColumns(flushed_columns_));
    for (const Event& e : events_) {
      if (e.declare) {
        RETURN_IF_ERROR(w.DeclareColumns(e.columns));
        continue;
      }
      RETURN_IF_ERROR(w.AddRow(e.start, e.end, e.values));
      if (!rec_.first_end) rec_.first_end = e.end;
      rec_.last_end = e.end;
    }
    for (ImportIssue& i : issues_) w.AddIssue(std::move(i));
    RETURN_IF_ERROR(w.Finish());
    rec_.rows += pending_rows_;
    rec_.consumed_lines = rec_.rows;
    rec_.issues += static_cast<int64_t>(w.issues().size());
    RETURN_IF_ERROR(store_->SaveFile(&rec_));
    RETURN_IF_ERROR(tx.Commit());
    flushed_columns_ = columns_;
    events_.clear();
    issues_.clear();
    pending_rows_ = 0;
    return Status::Ok();
  }

 private:
  struct Event {
    bool declare;
    TimeNs start, end;
    std::vector<double> values;
    std::vector<SeriesKey> columns;
  };
  StoreOpener open_;
  Store* store_ = nullptr;
  FileRecord rec_;
  std::vector<SeriesKey> columns_, flushed_columns_;
  std::vector<Event> events_;
  std::vector<ImportIssue> issues_;
  int64_t pending_rows_ = 0;
};

// A PDH-CSV file has one header for the whole file, but processes come and go: rows are
// spooled to a temporary file with their columns numbered over the run, and the file is written
// at the end with the union of the columns (memory holds only the column list).
class PdhCsvFileSink : public SampleSink {
 public:
  explicit PdhCsvFileSink(std::string path) : path_(std::move(path)), spool_(std::tmpfile()) {}
  ~PdhCsvFileSink() override {
    if (spool_) std::fclose(spool_);
  }
  Status DeclareColumns(const std::vector<SeriesKey>& columns) override {
    map_.clear();
    for (const SeriesKey& k : columns) {
      const std::string path =
          "\\\\" + k.machine + "\\" + k.object + (k.instance.empty() ? "" : "(" + k.instance + ")") + "\\" + k.counter;
      auto [it, added] = index_.emplace(path, static_cast<int>(paths_.size()));
      if (added) paths_.push_back(path);
      map_.push_back(it->second);
    }
    return Status::Ok();
  }
  Status AddRow(TimeNs start, TimeNs end, std::span<const double> values) override {
    if (!spool_) return Status::IOError("cannot create a temporary file for " + path_);
    if (rows_ == 0) RETURN_IF_ERROR(Put(start, {}));  // the collection before the first interval
    std::vector<std::pair<int32_t, double>> cells;
    for (size_t i = 0; i < values.size(); ++i)
      if (!std::isnan(values[i])) cells.emplace_back(map_[i], values[i]);
    ++rows_;
    return Put(end, cells);
  }
  void AddIssue(ImportIssue) override {}

  // Written beside the file and renamed over it (src/core/file_replace.h): a drop folder's
  // collector never reads half of it.
  Status Finish(TimeNs first_utc) {
    if (!spool_) return Status::IOError("cannot create a temporary file for " + path_);
    return ReplaceFile(path_, [&](std::ostream& out) { return WriteFile(out, first_utc); });
  }

 private:
  Status WriteFile(std::ostream& out, TimeNs first_utc) {
    const LocalZone zone = LocalZoneAt(first_utc);
    out << perfmon::FormatHeader(perfmon::TimeZone{zone.name, zone.bias_minutes}, paths_);
    std::rewind(spool_);
    std::vector<std::optional<double>> row;
    for (;;) {
      int64_t t;
      uint32_t n;
      if (std::fread(&t, sizeof t, 1, spool_) != 1 || std::fread(&n, sizeof n, 1, spool_) != 1) break;
      row.assign(paths_.size(), std::nullopt);
      for (uint32_t i = 0; i < n; ++i) {
        int32_t c;
        double v;
        if (std::fread(&c, sizeof c, 1, spool_) != 1 || std::fread(&v, sizeof v, 1, spool_) != 1)
          return Status::IOError("temporary spool file of " + path_ + " is truncated");
        row[c] = v;
      }
      // Local time at that instant (the bias may change with daylight saving time).
      const CivilTime c = CivilFromNs(t - static_cast<TimeNs>(LocalZoneAt(t).bias_minutes) * 60 * kNsPerSec);
      out << perfmon::FormatRow(perfmon::LocalTime{c.year, c.month, c.day, c.hour, c.minute, c.second, c.millis}, row);
    }
    return Status::Ok();
  }
  Status Put(TimeNs t, const std::vector<std::pair<int32_t, double>>& cells) {
    const uint32_t n = static_cast<uint32_t>(cells.size());
    bool ok = std::fwrite(&t, sizeof t, 1, spool_) == 1 && std::fwrite(&n, sizeof n, 1, spool_) == 1;
    for (const auto& [c, v] : cells)
      ok = ok && std::fwrite(&c, sizeof c, 1, spool_) == 1 && std::fwrite(&v, sizeof v, 1, spool_) == 1;
    return ok ? Status::Ok() : Status::IOError("cannot write the temporary spool file of " + path_);
  }
  std::string path_;
  std::FILE* spool_;
  std::vector<std::string> paths_;
  std::map<std::string, int> index_;
  std::vector<int> map_;
  int64_t rows_ = 0;
};

}  // namespace

LocalZone LocalZoneAt(TimeNs utc) {
  const time_t t = static_cast<time_t>(utc / kNsPerSec);
  struct tm tm {};
  localtime_r(&t, &tm);
  LocalZone z;
  z.name = tm.tm_zone ? tm.tm_zone : "UTC";
  z.bias_minutes = static_cast<int>(-tm.tm_gmtoff / 60);
  return z;
}

StatusOr<ProcfsCollectResult> CollectProcfs(const StoreOpener& open_store, const ProcfsCollectOptions& o) {
  linux_proc::RealFileSystem real;
  linux_proc::ProcSamplerOptions so;
  so.machine = o.machine.empty() ? linux_proc::HostName() : o.machine;
  so.user_hz = linux_proc::UserHz();
  so.proc = o.proc;
  linux_proc::ProcSampler sampler(o.fs ? o.fs : &real, so);

  ProcfsCollectResult result;
  result.machine = so.machine;
  const TimeNs started_wall = WallNow();
  const TimeNs started_mono = MonoNow();
  const TimeNs interval = static_cast<TimeNs>(o.interval_s * kNsPerSec);

  std::unique_ptr<StoreFlushSink> store_sink;
  std::unique_ptr<PdhCsvFileSink> csv_sink;
  SampleSink* sink;
  if (o.out.empty()) {
    FileRecord rec;
    rec.fingerprint = HexU64(Fnv1a64("procfs\n" + so.machine + "\n" + FormatIso(started_wall, true)));
    rec.path = "procfs:" + o.proc;
    rec.format = "linux-procfs";
    rec.encoding = "utf-8";
    rec.kinds = "guest";
    rec.machines = so.machine;
    rec.time_zone = "UTC";
    rec.consumed_line_hash = HexU64(0);
    store_sink = std::make_unique<StoreFlushSink>(open_store, rec);
    sink = store_sink.get();
  } else {
    csv_sink = std::make_unique<PdhCsvFileSink>(o.out);
    sink = csv_sink.get();
  }

  TimeNs next = started_mono;
  std::optional<TimeNs> first_start;
  for (int64_t tick = 0;; ++tick) {
    if (o.stop && o.stop->load()) {
      result.stopped = true;
      break;
    }
    const TimeNs wall = WallNow(), mono = MonoNow();
    linux_proc::TickStats ts;
    RETURN_IF_ERROR(sampler.Tick(wall, mono, sink, &ts));
    result.processes_last = ts.processes;
    if (ts.columns > 0) {
      ++result.rows;
      result.columns_max = std::max<int64_t>(result.columns_max, ts.columns);
      if (!result.first_end) result.first_end = wall;
      result.last_end = wall;
      if (o.progress) o.progress(result.rows, o.count);
    } else if (!first_start) {
      first_start = wall;
    }
    if (store_sink && store_sink->pending_rows() >= o.flush_rows) {
      RETURN_IF_ERROR(store_sink->Flush());
      ++result.flushes;
    }
    if (o.count && result.rows >= *o.count) break;
    next += interval;
    if (o.duration_s && next - started_mono > static_cast<TimeNs>(*o.duration_s * kNsPerSec)) break;
    // A tick that ran late (a suspended machine) does not cause a burst of catch-up ticks.
    if (next < MonoNow()) next = MonoNow();
    SleepUntil(next, o.stop);  // stopped: the loop's own test of `stop` ends it
  }
  if (store_sink) {
    RETURN_IF_ERROR(store_sink->Flush());
    ++result.flushes;
  } else {
    RETURN_IF_ERROR(csv_sink->Finish(first_start.value_or(started_wall)));
  }
  return result;
}

}  // namespace vrecon
