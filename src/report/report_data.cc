#include "src/report/report_data.h"

#include <charconv>
#include <cmath>
#include <string>

#include "src/core/text_util.h"
#include "src/report/csv_row.h"
#include "src/report/output.h"

namespace vrecon::report {

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
