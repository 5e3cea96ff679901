// The rows of `vrecon report --format csv` (docs/report.md, "CSV"): one header for every record.
#ifndef VRECON_SRC_REPORT_CSV_ROW_H_
#define VRECON_SRC_REPORT_CSV_ROW_H_

#include <optional>
#include <string>

#include "src/report/capacity_report.h"
#include "src/report/output.h"
#include "src/report/report_data.h"

namespace vrecon::report {

constexpr const char* kCsvHeader =
    "record,vm,item,source,severity,start,end,count,vcpus,guest_util_pct,host_util_pct,w,steal_pct,"
    "ready_pct_per_vcpu,costop_pct_per_vcpu,clock_offset_s,guest_coverage,host_coverage,guest_pct,corrected_pct,"
    "ci_lo,ci_hi,host_load_pct,flags,message,vm_key,host_counter,basis,bottleneck_pct,queue_ms_mean,queue_ms_p95,"
    "sampled_pct,events_pct,capacity_cores,usable_cores,demand_p95_cores,time_remaining_days,"
    "peak_time_remaining_days,capacity_remaining_pct,recommended_vcpus,lower,mid,upper,cores_now,cores_per_30d,"
    "guest_utility_pct\n";
// The capacity columns of a row that has none (a window row, written without Row); its last
// column, guest_utility_pct, follows.
constexpr const char* kCapacityColumnsEmpty = ",,,,,,,,,,,,";

using D = std::optional<double>;

// One CSV row by column name; unset columns stay empty.
struct Row {
  std::string record, vm, item, source, severity, start, end, count, vcpus, flags, message, vm_key, host_counter, basis;
  D guest, host, w, steal, ready, costop, clock, gcov, hcov, gpct, cpct, lo, hi, load;
  // A process's event figures (models/event_correction.h): Perfmon's and the trace's means over
  // the windows both had it.
  D bottleneck, queue_mean, queue_p95, sampled, events;
  // Capacity rows (capacity_csv.cc): the answers, a forecast day, a growth driver.
  D capacity, usable, demand_p95, days_left, peak_days_left, room, recommended, lower, mid, upper, cores_now, per_30d;
  D utility;  // a window's Processor Utility (frequency-scaled, not divided by w)
  void Write(Sink& s) const {
    s << record << ',' << CsvCell(vm) << ',' << CsvCell(item) << ',' << source << ',' << severity << ',' << start << ','
      << end << ',' << count << ',' << vcpus;
    std::string nums;
    for (const D* d :
         {&guest, &host, &w, &steal, &ready, &costop, &clock, &gcov, &hcov, &gpct, &cpct, &lo, &hi, &load}) {
      nums += ',';
      AppendFixed4(&nums, *d);
    }
    s << nums;
    s << ',' << CsvCell(flags) << ',' << CsvCell(message) << ',' << CsvCell(vm_key) << ',' << CsvCell(host_counter)
      << ',' << basis;
    nums.clear();
    for (const D* d :
         {&bottleneck, &queue_mean, &queue_p95, &sampled, &events, &capacity, &usable, &demand_p95, &days_left,
          &peak_days_left, &room, &recommended, &lower, &mid, &upper, &cores_now, &per_30d, &utility}) {
      nums += ',';
      AppendFixed4(&nums, *d);
    }
    s << nums << '\n';
  }
};

// The Capacity section's rows, first in the file: `capacity` per entity, `forecast` per entity
// and day, `growth` per VM and growth driver.
void WriteCapacityRows(Sink& s, const CapacityReport& c);
// The markdown summary's capacity lines (capacity_csv.cc, beside the rows with the same numbers).
void WriteCapacityMarkdown(std::ostream& os, const CapacityReport& c);

}  // namespace vrecon::report

#endif  // VRECON_SRC_REPORT_CSV_ROW_H_
