#include "adapters/etw/event_series.h"

#include <algorithm>

namespace vrecon::etw {
namespace {

constexpr const char* kCpuCounters[] = {"% Processor Time", "% DPC Time", "% Interrupt Time", "% Unknown Time"};

}  // namespace

CpuAccounting::Options AbsoluteGrid(TimeNs trace_start) {
  constexpr TimeNs kWindowNs = 300 * kNsPerSec;
  const int64_t phase_us = (((kWindowNs - trace_start % kWindowNs) % kWindowNs) + 999) / 1000;
  return CpuAccounting::Options{1'000'000, 300'000'000, phase_us};
}

EventSeriesWriter::EventSeriesWriter(std::string machine, TimeNs trace_start, SampleSink* sink, ReadSummary* summary)
    : machine_(std::move(machine)), trace_start_(trace_start), sink_(sink), summary_(summary) {}

SeriesKey EventSeriesWriter::Key(const char* object, std::string instance, const char* counter,
                                 const char* unit) const {
  SeriesKey k;
  k.source = SourceKind::kGuest;
  k.machine = machine_;
  k.object = object;
  k.instance = std::move(instance);
  k.counter = counter;
  k.unit = unit;
  k.original = "\\\\" + machine_ + "\\" + object + "(" + k.instance + ")\\" + counter;
  return k;
}

size_t EventSeriesWriter::ProcessColumn(uint32_t pid, const std::string& name) {
  auto [it, added] = process_columns_.try_emplace({pid, name}, columns_.size());
  if (added) {
    const std::string inst = name + ":" + std::to_string(pid);
    columns_.push_back(Key(kProcessObject, inst, "% Processor Time", "percent"));
    columns_.push_back(Key(kProcessObject, inst, "% Bottleneck Time", "percent"));
    columns_.push_back(Key(kProcessObject, inst, "% Queue Time", "percent"));
    columns_.push_back(Key(kProcessObject, inst, "Queued Switch-ins/sec", "per_second"));
  }
  return it->second;
}

size_t EventSeriesWriter::CpuColumn(int cpu) {
  if (!have_total_) {
    have_total_ = true;
    total_first_ = columns_.size();
    for (size_t k : counters_) columns_.push_back(Key(kProcessorObject, "_Total", kCpuCounters[k], "percent"));
  }
  auto [it, added] = cpu_first_.try_emplace(cpu, columns_.size());
  if (added) {
    for (size_t k : counters_)
      columns_.push_back(Key(kProcessorObject, std::to_string(cpu), kCpuCounters[k], "percent"));
  }
  return it->second;
}

Status EventSeriesWriter::Emit(TimeNs start, TimeNs end, const std::vector<double>& values) {
  if (quiet_) {
    ++summary_->rows_already;
    quiet_through_ = std::max(quiet_through_, end);
    return Status::Ok();
  }
  RETURN_IF_ERROR(sink_->AddRow(start, end, values));
  ++summary_->rows;
  if (!summary_->first_end || end < *summary_->first_end) summary_->first_end = end;
  if (!summary_->last_end || end > *summary_->last_end) summary_->last_end = end;
  return Status::Ok();
}

Status EventSeriesWriter::AddBucket(const Bucket& b) {
  const double len = static_cast<double>(b.end_us - b.start_us);
  if (len <= 0) return Status::Ok();
  values_.assign(columns_.size(), kMissing);
  // A process or CPU seen for the first time adds its columns (missing in the rows before).
  auto grown = [this] { values_.resize(columns_.size(), kMissing); };
  for (const ProcessFigures& p : b.processes) {
    const size_t c = ProcessColumn(p.pid, p.name);
    grown();
    values_[c] = 100 * p.cpu_us / len;
    values_[c + 1] = 100 * p.union_us / len;
    values_[c + 2] = 100 * p.queue_us / len;
    values_[c + 3] = static_cast<double>(p.switch_ins) * 1e6 / len;
  }
  double total[4] = {0, 0, 0, 0};
  for (const CpuFigures& f : b.cpus) {
    const double v[4] = {100 * f.busy_us / len, 100 * f.dpc_us / len, 100 * f.isr_us / len, 100 * f.unknown_us / len};
    const size_t first = CpuColumn(f.cpu);
    grown();
    for (size_t j = 0; j < counters_.size(); ++j) {
      values_[first + j] = v[counters_[j]];
      total[counters_[j]] += v[counters_[j]];
    }
  }
  if (!b.cpus.empty()) {
    for (size_t j = 0; j < counters_.size(); ++j)
      values_[total_first_ + j] = total[counters_[j]] / static_cast<double>(b.cpus.size());
  }
  if (!quiet_ && declared_ != columns_.size()) {
    RETURN_IF_ERROR(sink_->DeclareColumns(columns_));
    declared_ = columns_.size();
  }
  return Emit(Abs(b.start_us), Abs(b.end_us), values_);
}

void EventSeriesWriter::AddWindow(const QueueWindow& w) { windows_.push_back(w); }

Status EventSeriesWriter::Finish() {
  summary_->columns = columns_;
  if (windows_.empty()) return Status::Ok();
  // The p95 series: a column set of their own, one row per window.
  std::vector<SeriesKey> p95;
  std::map<std::pair<uint32_t, std::string>, size_t> index;
  for (const QueueWindow& w : windows_) {
    for (const QueueWindow::Entry& e : w.processes) {
      if (index.try_emplace({e.pid, e.name}, p95.size()).second)
        p95.push_back(Key(kProcessObject, e.name + ":" + std::to_string(e.pid), "Queue Time p95", "ms"));
    }
  }
  summary_->columns.insert(summary_->columns.end(), p95.begin(), p95.end());
  if (!quiet_) RETURN_IF_ERROR(sink_->DeclareColumns(p95));
  std::vector<double> values;
  for (const QueueWindow& w : windows_) {
    // A resumed ingest: the earlier one stored the windows that end by its last row.
    if (!quiet_ && Abs(w.end_us) <= quiet_through_) {
      ++summary_->rows_already;
      continue;
    }
    values.assign(p95.size(), kMissing);
    for (const QueueWindow::Entry& e : w.processes) values[index.at({e.pid, e.name})] = e.p95_us / 1000;
    RETURN_IF_ERROR(Emit(Abs(w.start_us), Abs(w.end_us), values));
  }
  return Status::Ok();
}

}  // namespace vrecon::etw
