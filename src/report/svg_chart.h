// Time-series charts as inline SVG for the HTML report, drawn by us (no scripts). Any number of
// windows is reduced to a fixed number of time buckets (min / mean / max per bucket), so a chart
// has the same size for 5 minutes or 30 days of data. Time axis in UTC.
#ifndef VRECON_SRC_REPORT_SVG_CHART_H_
#define VRECON_SRC_REPORT_SVG_CHART_H_

#include <optional>
#include <string>
#include <vector>

#include "src/core/severity.h"
#include "src/core/time_util.h"
#include "src/report/svg_defs.h"

namespace vrecon::report {

// Per-bucket min / mean / max of a value over [t0, t1); a window counts in the bucket holding
// its midpoint. Unknown values are skipped; a bucket without values stays unknown (a gap).
class Buckets {
 public:
  Buckets(TimeNs t0, TimeNs t1, int n);
  void Add(TimeNs start, TimeNs end, const std::optional<double>& v);
  int size() const { return static_cast<int>(n_.size()); }
  std::optional<double> mean(int i) const;
  std::optional<double> min(int i) const;
  std::optional<double> max(int i) const;
  bool any() const;
  int Index(TimeNs start, TimeNs end) const;  // -1 outside [t0, t1)
  TimeNs t0() const { return t0_; }
  TimeNs t1() const { return t1_; }

 private:
  TimeNs t0_, t1_;
  std::vector<int> n_;
  std::vector<double> sum_, min_, max_;
};

struct ChartSeries {
  std::string label, color;
  const Buckets* data = nullptr;
  bool right_axis = false;  // drawn against the second y axis
  bool envelope = false;    // shade the min..max range of each bucket
  bool dashed = false;
  bool line = true;  // false: only the envelope (a forecast's band), no line through the means
};

// A horizontal band on the left axis (a threshold's range): a faint tint, so the lines inside
// stay the thing seen, with a dashed line in `edge` where it begins.
struct ChartBand {
  double lo = 0, hi = 0;
  std::string color, label, edge;
};

struct ChartSpec {
  std::string title, y_label, y2_label;  // labels carry the unit, e.g. "CPU utilization (%)"
  double y_min_max = 10;                 // the left axis reaches at least this far
  double y2_min_max = 2;
  std::vector<ChartSeries> series;
  std::vector<ChartBand> bands;
  std::vector<std::pair<double, std::string>> lines;  // dashed threshold lines: value, label
};

// A complete <svg> element. When no series has a value it still draws the axes, with a message
// saying the data is missing (never a blank chart). With `defs`, the parts shared with other
// charts (grid, time axis, frame, axis titles, legend) are drawn with <use>.
std::string RenderChart(const ChartSpec& spec, TimeNs t0, TimeNs t1, SvgDefs* defs = nullptr);

// One row per severity (error, warning, info): a mark in every bucket where a window raised a
// flag of that severity; each mark's <title> lists the codes.
struct FlagMark {
  int bucket = 0;
  Severity severity = Severity::kError;
  std::string codes;
};
std::string RenderFlagStrip(const std::vector<FlagMark>& marks, int buckets, TimeNs t0, TimeNs t1,
                            SvgDefs* defs = nullptr);

// Axis ticks: a round step (5 min .. 7 days) giving at most `max_ticks` labels.
TimeNs TimeTickStep(TimeNs span, int max_ticks);
// Round axis maximum: 1, 2, 2.5, 5 x 10^k at or above v.
double NiceMax(double v);

std::string XmlEscape(std::string_view s);

}  // namespace vrecon::report

#endif  // VRECON_SRC_REPORT_SVG_CHART_H_
