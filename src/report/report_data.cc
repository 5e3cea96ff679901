#include "src/report/report_data.h"

#include <charconv>
#include <cmath>
#include <string>

#include "src/core/text_util.h"
#include "src/report/csv_row.h"
#include "src/report/output.h"

namespace vrecon::report {
namespace {

D Ratio(int64_t a, int64_t b) { return b ? D(static_cast<double>(a) / static_cast<double>(b)) : std::nullopt; }

std::string Codes(const std::vector<StoredFlag>& flags) {
  std::string o;
  for (const StoredFlag& f : flags) o += (o.empty() ? "" : ";") + f.code;
  return o;
}

void FlagRows(Sink& s, const CorrVm& vm, const std::map<std::string, FlagStat>& flags) {
  for (const auto& [code, f] : flags) {
    Row r;
    r.record = "flag";
    r.vm = vm.vm;
    r.vm_key = vm.vm_key;
    r.item = code;
    r.severity = SeverityName(f.severity);
    r.start = Iso(f.first);
    r.end = Iso(f.last);
    r.count = std::to_string(f.windows);
    r.message = f.message;
    r.Write(s);
  }
}

}  // namespace

void AppendIso(std::string* out, TimeNs t) {
  // Whole seconds (every window boundary): the date part is formatted once per day.
  if (t % kNsPerSec != 0 || t < 0) {
    *out += FormatIso(t, t % kNsPerSec != 0);
    return;
  }
  thread_local TimeNs day = -1;
  thread_local std::string date;
  if (t / kNsPerDay != day) {
    day = t / kNsPerDay;
    date = FormatIso(day * kNsPerDay, false).substr(0, 11);  // "2026-11-02T"
  }
  const int64_t sec = (t % kNsPerDay) / kNsPerSec;
  const char b[9] = {static_cast<char>('0' + sec / 36000),
                     static_cast<char>('0' + sec / 3600 % 10),
                     ':',
                     static_cast<char>('0' + sec % 3600 / 600),
                     static_cast<char>('0' + sec % 3600 / 60 % 10),
                     ':',
                     static_cast<char>('0' + sec % 60 / 10),
                     static_cast<char>('0' + sec % 10),
                     'Z'};
  *out += date;
  out->append(b, 9);
}

std::string Iso(TimeNs t) {
  std::string s;
  AppendIso(&s, t);
  return s;
}

void AppendFixed4(std::string* out, const std::optional<double>& v) {
  if (!v || !std::isfinite(*v)) return;
  if (std::fabs(*v) >= 1e14) {
    *out += FormatDouble(*v);
    return;
  }
  int64_t q = std::llround(*v * 10000.0);
  char b[32];
  char* p = b;
  if (q < 0) {
    *p++ = '-';
    q = -q;
  }
  p = std::to_chars(p, b + sizeof(b), q / 10000).ptr;
  int64_t frac = q % 10000;
  if (frac != 0) {
    *p++ = '.';
    int digits = 4;
    while (frac % 10 == 0) {
      frac /= 10;
      --digits;
    }
    for (int i = digits - 1; i >= 0; --i, frac /= 10) p[i] = static_cast<char>('0' + frac % 10);
    p += digits;
  }
  out->append(b, static_cast<size_t>(p - b));
}
std::string OptInt(const std::optional<int>& v) { return v ? std::to_string(*v) : ""; }

StatusOr<FleetReport> WriteReportCsv(std::ostream& os, Store* store, const ReportRequest& req) {
  ASSIGN_OR_RETURN(const CapacityReport capacity, BuildCapacityReport(store, req));
  Sink s(os);
  s << kCsvHeader;
  WriteCapacityRows(s, capacity);
  // The hot path (2 M rows for 1,000 VMs x 7 days): one reused buffer, no Row.
  std::string line, vm_cell, key_cell;
  size_t vm_of_cell = static_cast<size_t>(-1);
  auto window_row = [&](size_t index, const VmReport& v, const StoredWindow& w) {
    if (index != vm_of_cell) {
      vm_cell = CsvCell(v.vm.vm);
      key_cell = CsvCell(v.vm.vm_key);
      vm_of_cell = index;
    }
    line.assign("window,");
    line += vm_cell;
    line += ",,,,";
    AppendIso(&line, w.start);
    line += ',';
    AppendIso(&line, w.end);
    line += ",,";
    if (w.vcpus) line += std::to_string(*w.vcpus);
    for (const D* d : {&w.guest_util, &w.host_util, &w.w, &w.steal, &w.ready, &w.costop, &w.clock_offset_s}) {
      line += ',';
      AppendFixed4(&line, *d);
    }
    line += ',';
    AppendFixed4(&line, w.guest_cov);
    line += ',';
    AppendFixed4(&line, w.host_cov);
    line += ",,,,,,";
    line += CsvCell(Codes(w.flags));
    line += ",,";
    line += key_cell;
    line += ",,,,,,,";  // host_counter: on the vm row; the event figures: on process rows
    line += kCapacityColumnsEmpty;
    line += ',';
    AppendFixed4(&line, w.guest_utility);
    line += '\n';
    s << line;
  };
  auto visit = [&](size_t, const VmReport& v, const std::vector<StoredWindow>&) -> Status {
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
    for (const ProcessAggregate& p : v.processes) {
      Row row;
      row.record = "process";
      row.vm = v.vm.vm;
      row.vm_key = v.vm.vm_key;
      row.item = p.name;
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
    FlagRows(s, v.vm, st.flags);
    for (const StoredReady& rd : v.ready) {
      for (const StoredFlag& h : rd.hints) {
        Row row;
        row.record = "hint";
        row.vm = v.vm.vm;
        row.vm_key = v.vm.vm_key;
        row.item = h.code;
        row.source = rd.source;
        row.severity = SeverityName(h.severity);
        row.message = h.message;
        row.Write(s);
      }
    }
    return Status::Ok();
  };
  ASSIGN_OR_RETURN(FleetReport r, BuildFleetReport(store, req, visit, window_row));
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
  FlagRows(s, CorrVm{}, r.flags);
  for (const HostLoad& h : r.hosts) {
    Row row;
    row.record = "host";
    row.item = h.host;
    row.count = std::to_string(h.vms);
    row.host = h.load_mean;
    row.load = h.load_p95;
    row.Write(s);
  }
  s.Flush();
  if (!s.ok()) return Status::IOError("could not write the CSV report");
  return r;
}

void WriteReportMarkdown(std::ostream& os, const FleetReport& r, const CapacityReport& capacity) {
  auto fx = [](const D& v, int d) { return v ? FormatFixed(*v, d) : std::string("n/a"); };
  os << "## vrecon capacity report\n\n";
  WriteCapacityMarkdown(os, capacity);
  if (r.windows) {
    os << "- Period: " << Iso(r.first) << " to " << Iso(r.last) << " (UTC)\n";
  }
  os << "- VMs: " << r.vms.size() << ", windows: " << r.windows << ", with w: " << r.with_w << " ("
     << fx(r.windows ? D(100.0 * r.with_w / r.windows) : std::nullopt, 0) << "%)\n";
  for (const auto& n : r.notes) os << "- Note: " << n << "\n";
  auto top = [&](const char* title, const std::vector<size_t>& idx,
                 const std::function<std::string(const VmReport&)>& f) {
    if (idx.empty()) return;
    os << "\n**" << title << "**\n\n";
    for (size_t k = 0; k < idx.size() && k < 5; ++k)
      os << k + 1 << ". " << r.vms[idx[k]].label << ": " << f(r.vms[idx[k]]) << "\n";
  };
  top("Largest gap between guest-reported and real CPU", RankByGap(r), [&](const VmReport& v) {
    return "guest " + fx(v.stats.guest.value(), 1) + "%, real " + fx(v.stats.host.value(), 1) + "%, w " +
           fx(v.stats.w.value(), 2);
  });
  top("Most ready time", RankByReady(r), [&](const VmReport& v) {
    return fx(v.stats.ready.value(), 2) + "% per vCPU (max " + fx(v.stats.max_ready, 1) + "%)";
  });
  top("Most co-stop", RankByCostop(r), [&](const VmReport& v) { return fx(v.stats.costop.value(), 2) + "% per vCPU"; });
  if (!r.flags.empty()) {
    os << "\n**Flags**: ";
    bool first = true;
    for (const auto& [code, f] : r.flags) {
      os << (first ? "" : ", ") << "`" << code << "` " << f.windows;
      first = false;
    }
    os << " (windows)\n";
  }
  size_t hints = 0;
  for (const VmReport& v : r.vms)
    for (const StoredReady& rd : v.ready) hints += rd.hints.size();
  if (hints) os << "\n**Right-sizing hints**: " << hints << " (see the HTML report)\n";
}

}  // namespace vrecon::report
