#include "src/collect/vsphere_batch_writer.h"

#include <algorithm>
#include <set>
#include <string_view>

#include "adapters/vsphere/vsphere_units.h"
#include "src/core/vsphere_entity.h"
#include "src/store/block_writer.h"

namespace vrecon {

using vsphere::CounterInfo;
using vsphere::EntityMetrics;
using vsphere::QuerySpec;

namespace {

// A column's high-water marks for one interval, looked up once per VM rather than per sample.
struct ColumnMarks {
  int interval = -1;
  MarkKey key;
  const TimeNs* stored = nullptr;  // the mark as the round began; null when there is none
  TimeNs* moved = nullptr;         // the batch's moved mark, once it stored a sample
};

ColumnMarks MarksOf(const std::map<MarkKey, TimeNs>& marks, const std::string& entity, const std::string& counter,
                    int interval) {
  ColumnMarks m;
  m.interval = interval;
  m.key = MarkKey{entity, counter, interval};
  if (auto it = marks.find(m.key); it != marks.end()) m.stored = &it->second;
  return m;
}

}  // namespace

Status VsphereBatchWriter::Write(const std::vector<EntityMetrics>& metrics, const std::vector<QuerySpec>& asked,
                                 VsphereCollectResult* result) {
  ASSIGN_OR_RETURN(Transaction tx, store_->BeginTransaction());
  first_.reset();
  last_.reset();
  vm_keys_.clear();
  std::map<MarkKey, TimeNs> moved;
  int64_t samples = 0;
  std::vector<ImportIssue> issues;
  // The batch's file rows and series ids read in one query each, and block ids drawn ahead, so
  // that on PostgreSQL a VM's writes go out without waiting for an answer.
  std::vector<Columns> columns;
  columns.reserve(metrics.size());
  std::vector<std::string> fingerprints;
  fingerprints.reserve(metrics.size());
  std::vector<SeriesKey> all;
  for (const EntityMetrics& em : metrics) {
    columns.push_back(ColumnsOf(em));
    fingerprints.push_back(Fingerprint(em));
    all.insert(all.end(), columns.back().keys.begin(), columns.back().keys.end());
  }
  WriteAhead ahead(store_);
  RETURN_IF_ERROR(ahead.LoadSeries(all));
  RETURN_IF_ERROR(ahead.AddMissing(all));
  ASSIGN_OR_RETURN(BatchFiles files, FileRows(metrics, fingerprints, columns));
  for (size_t i = 0; i < metrics.size(); ++i)
    RETURN_IF_ERROR(
        WriteEntity(metrics[i], columns[i], &files.rows[files.row_of[i]], &ahead, &moved, &samples, &issues));
  RETURN_IF_ERROR(ahead.Flush());
  // A counter the server answered for without usable values (none, or a series that could
  // not be paired with its times) was still asked up to the VM's newest sample: its mark moves
  // there too, or every later round would ask for it from --since again.
  for (const QuerySpec& q : asked) {
    for (const EntityMetrics& em : metrics) {
      if (em.entity.value != q.entity || em.ends.empty()) continue;
      for (int id : q.counter_ids) {
        auto c = counters_.find(id);
        if (c == counters_.end()) continue;
        TimeNs& m = moved[MarkKey{q.entity, c->second.name, q.interval_id}];
        m = std::max(m, em.ends.back());
      }
    }
  }
  RETURN_IF_ERROR(SetVsphereMarks(store_, vcenter_, WithTheirOtherMarks(moved)));
  RETURN_IF_ERROR(tx.Commit());
  for (const auto& [key, t] : moved) (*marks_)[key] = std::max((*marks_)[key], t);
  result->samples += samples;
  if (first_ && (!result->first_new_end || *first_ < *result->first_new_end)) result->first_new_end = first_;
  if (last_ && (!result->last_new_end || *last_ > *result->last_new_end)) result->last_new_end = last_;
  for (ImportIssue& i : issues) result->issues.push_back(std::move(i));
  result->vm_keys.merge(vm_keys_);
  return Status::Ok();
}

// `moved` and, for each VM and interval in it, its other counters' marks as stored: the VM's
// marks whole, as SetVsphereMarks stores them (the collector alone writes this vCenter's marks, so
// marks_ holds what is stored).
std::map<MarkKey, TimeNs> VsphereBatchWriter::WithTheirOtherMarks(const std::map<MarkKey, TimeNs>& moved) const {
  std::map<MarkKey, TimeNs> out = moved;
  std::set<std::pair<std::string, int>> vms;
  for (const auto& [key, t] : moved) vms.emplace(std::get<0>(key), std::get<2>(key));
  for (const auto& [moid, interval] : vms) {
    for (auto it = marks_->lower_bound(MarkKey{moid, "", 0}); it != marks_->end() && std::get<0>(it->first) == moid;
         ++it) {
      if (std::get<2>(it->first) != interval) continue;
      TimeNs& t = out[it->first];
      t = std::max(t, it->second);
    }
  }
  return out;
}

// A VM's samples live under one file row per vCenter and VM: the stored one, or a new one, the
// batch's new ones added in one statement. An answer may hold a VM more than once (its realtime
// and rollup specs in one batch): each of its parts then counts into the same row.
StatusOr<VsphereBatchWriter::BatchFiles> VsphereBatchWriter::FileRows(const std::vector<EntityMetrics>& metrics,
                                                                      const std::vector<std::string>& fingerprints,
                                                                      const std::vector<Columns>& columns) {
  ASSIGN_OR_RETURN(auto stored, store_->FindFiles(fingerprints));
  BatchFiles out;
  out.row_of.reserve(metrics.size());
  std::map<std::string_view, size_t> row_by_fingerprint;
  for (size_t i = 0; i < metrics.size(); ++i) {
    auto [at, added] = row_by_fingerprint.try_emplace(fingerprints[i], out.rows.size());
    out.row_of.push_back(at->second);
    if (!added) continue;
    FileRecord& file = out.rows.emplace_back();
    if (auto f = stored.find(fingerprints[i]); f != stored.end()) file = std::move(f->second);
    file.fingerprint = fingerprints[i];
    file.path = vcenter_;
    file.format = "vsphere-api";
    file.kinds = columns[i].host ? "vsphere-host" : "vsphere";
    file.machines = columns[i].vm_name;
    if (file.consumed_line_hash.empty()) file.consumed_line_hash = "0";
  }
  std::vector<FileRecord*> added;
  for (FileRecord& file : out.rows)
    if (file.id == 0) added.push_back(&file);
  if (!added.empty()) RETURN_IF_ERROR(store_->AddFiles(added));
  return out;
}

std::string VsphereBatchWriter::Fingerprint(const EntityMetrics& em) const {
  return "vsphere|" + vcenter_ + "|" + em.entity.value;
}

VsphereBatchWriter::Columns VsphereBatchWriter::ColumnsOf(const EntityMetrics& em) const {
  Columns out;
  auto vm_it = vms_.find(em.entity.value);
  auto host_it = hosts_.find(em.entity.value);
  out.host = vm_it == vms_.end() && (host_it != hosts_.end() || em.entity.type == "HostSystem");
  out.vm_name = vm_it != vms_.end()                   ? vm_it->second.name
                : out.host && host_it != hosts_.end() ? host_it->second.name
                                                      : em.entity.value;
  for (const vsphere::MetricSeries& ms : em.series) {
    auto c = counters_.find(ms.counter_id);
    if (c == counters_.end()) continue;
    const vsphere::RawUnit unit = vsphere::ApiUnit(c->second.unit_key);
    SeriesKey k;
    k.source = out.host ? SourceKind::kVsphereHost : SourceKind::kVsphere;
    k.machine = out.vm_name;
    k.object = vsphere::CounterGroup(c->second.name);
    k.instance = ms.instance;
    k.counter = c->second.name;
    k.unit = vsphere::Convert(k.counter, 0, unit, 20)->unit;
    k.original = c->second.name;
    k.entity = VsphereEntity(vcenter_id_, em.entity.value);
    out.keys.push_back(std::move(k));
    out.series.push_back(&ms);
    out.units.push_back(unit);
  }
  return out;
}

Status VsphereBatchWriter::WriteEntity(const EntityMetrics& em, const Columns& cols, FileRecord* file,
                                       WriteAhead* ahead, std::map<MarkKey, TimeNs>* moved, int64_t* samples,
                                       std::vector<ImportIssue>* issues) {
  const std::string& vm_name = cols.vm_name;
  const std::string where = vcenter_ + " " + vm_name;
  std::vector<ImportIssue> own;
  for (const std::string& p : em.problems)
    own.push_back(ImportIssue{vcenter_, 0, Severity::kWarning, "perf-series-mismatch", p});
  const std::vector<SeriesKey>& columns = cols.keys;
  const std::vector<const vsphere::MetricSeries*>& series = cols.series;
  const std::vector<vsphere::RawUnit>& units = cols.units;
  BlockWriter writer(store_);
  writer.set_file_id(file->id);
  writer.set_ahead(ahead);
  if (!columns.empty()) RETURN_IF_ERROR(writer.DeclareColumns(columns));
  std::vector<double> row(columns.size());
  std::vector<ColumnMarks> marks(columns.size());
  bool stored = false;
  for (size_t i = 0; i < em.ends.size() && !columns.empty(); ++i) {
    const int interval = em.intervals_s[i];
    bool any = false;
    for (size_t c = 0; c < columns.size(); ++c) {
      row[c] = kMissing;
      ColumnMarks& m = marks[c];
      if (m.interval != interval) m = MarksOf(*marks_, em.entity.value, columns[c].counter, interval);
      // Already stored by an earlier round (servers repeat the sample at startTime).
      if (m.stored && em.ends[i] <= *m.stored) continue;
      auto v = vsphere::Convert(columns[c].counter, series[c]->values[i], units[c], interval);
      if (!v) continue;
      row[c] = v->value;
      any = true;
      ++*samples;
      if (!m.moved) m.moved = &(*moved)[m.key];
      *m.moved = std::max(*m.moved, em.ends[i]);
    }
    if (!any) continue;
    stored = true;
    RETURN_IF_ERROR(writer.AddRow(em.ends[i] - static_cast<TimeNs>(interval) * kNsPerSec, em.ends[i], row));
    ++file->rows;
    if (!file->first_end || em.ends[i] < *file->first_end) file->first_end = em.ends[i];
    if (!file->last_end || em.ends[i] > *file->last_end) file->last_end = em.ends[i];
    if (!first_ || em.ends[i] < *first_) first_ = em.ends[i];
    if (!last_ || em.ends[i] > *last_) last_ = em.ends[i];
  }
  if (stored && !cols.host) vm_keys_.insert("vsphere:" + columns.front().entity);  // the VM's vm_key (vm_directory.h)
  for (ImportIssue& i : own) writer.AddIssue(i);
  RETURN_IF_ERROR(writer.Finish());
  file->issues += static_cast<int64_t>(own.size());
  RETURN_IF_ERROR(ahead->SaveFile(file));
  for (ImportIssue& i : own) {
    i.message = where + ": " + i.message;
    issues->push_back(std::move(i));
  }
  return Status::Ok();
}

}  // namespace vrecon
