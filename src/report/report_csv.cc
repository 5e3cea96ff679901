// `vrecon report --format csv` (docs/report.md, "CSV"): the capacity rows, then per VM its window
// rows as they are read and its vm, process, flag and hint rows, then the fleet-wide rows.
#include <map>
#include <string>
#include <vector>

#include "src/core/text_util.h"
#include "src/report/csv_row.h"
#include "src/report/output.h"
#include "src/report/report_data.h"

namespace vrecon::report {
namespace {

D Ratio(int64_t a, int64_t b) { return b ? D(static_cast<double>(a) / static_cast<double>(b)) : std::nullopt; }

std::string Codes(const std::vector<StoredFlag>& flags) {
  std::string o;
  for (const StoredFlag& f : flags) o += (o.empty() ? "" : ";") + f.code;
  return o;
}

// A row of `record` about one VM's `item`.
Row ItemRow(const char* record, const CorrVm& vm, const std::string& item) {
  Row r;
  r.record = record;
  r.vm = vm.vm;
  r.vm_key = vm.vm_key;
  r.item = item;
  return r;
}

void WriteFlagRows(Sink& s, const CorrVm& vm, const std::map<std::string, FlagStat>& flags) {
  for (const auto& [code, f] : flags) {
    Row r = ItemRow("flag", vm, code);
    r.severity = SeverityName(f.severity);
    r.start = Iso(f.first);
    r.end = Iso(f.last);
    r.count = std::to_string(f.windows);
    r.message = f.message;
    r.Write(s);
  }
}

// The window rows, the hot path (2 M rows for 1,000 VMs x 7 days): one reused line, no Row, and
// the VM's cells quoted once per VM.
class WindowRows {
 public:
  explicit WindowRows(Sink* s) : s_(s) {}
  void Write(size_t index, const VmReport& v, const StoredWindow& w);

 private:
  Sink* s_;
  std::string line_, vm_cell_, key_cell_;
  size_t vm_of_cells_ = static_cast<size_t>(-1);
};

void WindowRows::Write(size_t index, const VmReport& v, const StoredWindow& w) {
  if (index != vm_of_cells_) {
    vm_cell_ = CsvCell(v.vm.vm);
    key_cell_ = CsvCell(v.vm.vm_key);
    vm_of_cells_ = index;
  }
  line_.assign("window,");
  line_ += vm_cell_;
  line_ += ",,,,";
  AppendIso(&line_, w.start);
  line_ += ',';
  AppendIso(&line_, w.end);
  line_ += ",,";
  if (w.vcpus) line_ += std::to_string(*w.vcpus);
  for (const D* d : {&w.guest_util, &w.host_util, &w.w, &w.steal, &w.ready, &w.costop, &w.clock_offset_s}) {
    line_ += ',';
    AppendFixed4(&line_, *d);
  }
  line_ += ',';
  AppendFixed4(&line_, w.guest_cov);
  line_ += ',';
  AppendFixed4(&line_, w.host_cov);
  line_ += ",,,,,,";
  line_ += CsvCell(Codes(w.flags));
  line_ += ",,";
  line_ += key_cell_;
  line_ += ",,,,,,,";  // host_counter: on the vm row; the event figures: on process rows
  line_ += kCapacityColumnsEmpty;
  line_ += ',';
  AppendFixed4(&line_, w.guest_utility);
  line_ += '\n';
  *s_ << line_;
}

// The VM's summary over its windows.
void WriteVmRow(Sink& s, const VmReport& v) {
  const VmStats& st = v.stats;
  Row vm;
  vm.record = "vm";
  vm.vm = v.vm.vm;
  vm.vm_key = v.vm.vm_key;
  vm.item = v.vm.guest_machine;
  vm.source = v.vm.host_source;
  vm.host_counter = v.vm.host_counter;
  if (st.windows) {
    vm.start = Iso(st.first);
    vm.end = Iso(st.last);
  }
  vm.count = std::to_string(st.windows);
  vm.vcpus = OptInt(v.vm.vcpus);
  vm.guest = st.guest.value();
  vm.host = st.host.value();
  vm.w = st.w.value();
  vm.steal = st.steal.value();
  vm.ready = st.ready.value();
  vm.costop = st.costop.value();
  vm.clock = st.clock_offset.value();
  vm.gcov = st.guest_cov.value();
  vm.hcov = st.host_cov.value();
  vm.utility = st.utility.value();
  for (const StoredReady& rd : v.ready)
    if (rd.host_load_p95) vm.load = rd.host_load_p95;
  vm.message = v.missing;
  vm.Write(s);
}

void WriteProcessRows(Sink& s, const VmReport& v) {
  for (const ProcessAggregate& p : v.processes) {
    Row row = ItemRow("process", v.vm, p.name);
    row.count = std::to_string(p.n_corr);
    row.gpct = p.MeanGuest();
    row.cpct = p.MeanCorrected();
    if (auto hw = p.HalfWidth95(); hw && row.cpct) {
      row.lo = *row.cpct - *hw;
      row.hi = *row.cpct + *hw;
    }
    row.basis = p.Basis();
    row.bottleneck = p.MeanBottleneck();
    row.queue_mean = p.MeanQueueMs();
    row.queue_p95 = p.max_queue_p95;
    row.sampled = p.MeanSampled();
    row.events = p.MeanPairedEvents();
    row.Write(s);
  }
}

// The Ready-Time analysis's right-sizing hints.
void WriteHintRows(Sink& s, const VmReport& v) {
  for (const StoredReady& rd : v.ready) {
    for (const StoredFlag& h : rd.hints) {
      Row row = ItemRow("hint", v.vm, h.code);
      row.source = rd.source;
      row.severity = SeverityName(h.severity);
      row.message = h.message;
      row.Write(s);
    }
  }
}

// Known once every VM has been read: the fleet row, its flags and the hosts' load.
void WriteFleetRows(Sink& s, const FleetReport& r) {
  Row fleet;
  fleet.record = "fleet";
  fleet.item = r.db;
  if (r.windows) {
    fleet.start = Iso(r.first);
    fleet.end = Iso(r.last);
  }
  fleet.count = std::to_string(r.windows);
  fleet.gcov = Ratio(r.with_guest, r.windows);
  fleet.hcov = Ratio(r.with_host, r.windows);
  fleet.message = Join(r.notes, "; ");
  fleet.Write(s);
  WriteFlagRows(s, CorrVm{}, r.flags);
  for (const HostLoad& h : r.hosts) {
    Row row;
    row.record = "host";
    row.item = h.host;
    row.count = std::to_string(h.vms);
    row.host = h.load_mean;
    row.load = h.load_p95;
    row.Write(s);
  }
}

}  // namespace

StatusOr<FleetReport> WriteReportCsv(std::ostream& os, Store* store, const ReportRequest& req) {
  ASSIGN_OR_RETURN(const CapacityReport capacity, BuildCapacityReport(store, req));
  Sink s(os);
  s << kCsvHeader;
  WriteCapacityRows(s, capacity);
  WindowRows windows(&s);
  auto window_row = [&](size_t index, const VmReport& v, const StoredWindow& w) { windows.Write(index, v, w); };
  auto vm_rows = [&](size_t, const VmReport& v, const std::vector<StoredWindow>&) -> Status {
    WriteVmRow(s, v);
    WriteProcessRows(s, v);
    WriteFlagRows(s, v.vm, v.stats.flags);
    WriteHintRows(s, v);
    return Status::Ok();
  };
  ASSIGN_OR_RETURN(FleetReport r, BuildFleetReport(store, req, vm_rows, window_row));
  WriteFleetRows(s, r);
  s.Flush();
  if (!s.ok()) return Status::IOError("could not write the CSV report");
  return r;
}

}  // namespace vrecon::report
