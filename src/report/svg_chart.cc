#include "src/report/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

namespace vrecon::report {
namespace {

// Geometry of every chart, in SVG user units (the SVG scales to its container).
constexpr int kWidth = 760, kHeight = 210;
constexpr int kLeft = 52, kRight = 52, kTop = 26, kBottom = 40;
constexpr int kPlotW = kWidth - kLeft - kRight, kPlotH = kHeight - kTop - kBottom;

std::string N(double v) {  // one decimal is plenty at this size
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", v);
  std::string s = b;
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  return s;
}

std::string I(double v) { return std::to_string(std::lround(v)); }  // path points: whole units keep files small

// Path data in whole units: "M x y" for a move, then "l dx dy ..." relative steps (implicit
// repeats of l), the shortest form a browser accepts.
class PathData {
 public:
  void Move(double x, double y) {
    px_ = std::lround(x);
    py_ = std::lround(y);
    d_ += "M" + std::to_string(px_) + " " + std::to_string(py_);
    in_line_ = false;
  }
  void Line(double x, double y) {
    const long nx = std::lround(x), ny = std::lround(y);
    d_ += in_line_ ? "" : "l";
    Num(nx - px_, !in_line_);
    Num(ny - py_, false);
    px_ = nx;
    py_ = ny;
    in_line_ = true;
  }
  void Close() {
    d_ += "z";
    in_line_ = false;
  }
  const std::string& str() const { return d_; }
  bool empty() const { return d_.empty(); }

 private:
  void Num(long v, bool first) {
    if (!first && v >= 0) d_ += ' ';
    d_ += std::to_string(v);
  }
  std::string d_;
  long px_ = 0, py_ = 0;
  bool in_line_ = false;
};

std::string TickLabel(double v) {
  char b[32];
  if (v == std::floor(v)) {
    std::snprintf(b, sizeof b, "%.0f", v);
  } else {
    std::snprintf(b, sizeof b, "%.2g", v);
  }
  return b;
}

std::string TimeLabel(TimeNs t, TimeNs step) {
  const CivilTime c = CivilFromNs(t);
  char b[32];
  if (step >= 86400 * kNsPerSec) {
    std::snprintf(b, sizeof b, "%02d-%02d", c.month, c.day);
  } else if (c.hour == 0 && c.minute == 0) {
    std::snprintf(b, sizeof b, "%02d-%02d 00:00", c.month, c.day);
  } else {
    std::snprintf(b, sizeof b, "%02d:%02d", c.hour, c.minute);
  }
  return b;
}

struct Frame {
  TimeNs t0, t1;
  double y_max, y2_max;
  bool any = false;    // a series has a value
  bool right = false;  // a series is on the right axis
  double X(double frac) const { return kLeft + frac * kPlotW; }
  double Y(double v, bool right) const {
    const double m = right ? y2_max : y_max;
    return kTop + kPlotH - std::clamp(v / m, 0.0, 1.02) * kPlotH;
  }
};

// Grids, frames, tick and axis labels and legends are styled by presentation attributes, not by
// the page's CSS: drawn through <use> (svg_defs.h), they are clones the style sheet does not reach.
void TimeAxis(std::string* o, TimeNs t0, TimeNs t1, int top, int height) {
  const TimeNs span = std::max<TimeNs>(t1 - t0, 1);
  const TimeNs step = TimeTickStep(span, 8);
  TimeNs t = (t0 / step) * step;
  if (t < t0) t += step;
  std::string grid, labels;
  for (; t <= t1; t += step) {
    const std::string x = I(kLeft + static_cast<double>(t - t0) / static_cast<double>(span) * kPlotW);
    grid += "M" + x + " " + std::to_string(top) + "v" + std::to_string(height);
    labels += "<text x=\"" + x + "\" y=\"" + std::to_string(top + height + 14) + "\">" + TimeLabel(t, step) + "</text>";
  }
  *o += "<path class=\"grid\" stroke=\"#e6e6e6\" fill=\"none\" d=\"" + grid +
        "\"/><g class=\"tick\" font-size=\"10\" fill=\"#444\" text-anchor=\"middle\">" + labels + "</g>";
}

// Legend along the top.
std::string Legend(const ChartSpec& spec) {
  int x = kLeft;
  std::string o = "<g class=\"legend\" font-size=\"10\" fill=\"#444\">";
  auto legend = [&](const std::string& color, const std::string& label, bool box) {
    o += box ? "<rect x=\"" + std::to_string(x) + "\" y=\"8\" width=\"14\" height=\"10\" fill=\"" + color + "\"/>"
             : "<line x1=\"" + std::to_string(x) + "\" y1=\"13\" x2=\"" + std::to_string(x + 14) +
                   "\" y2=\"13\" stroke=\"" + color + "\" stroke-width=\"3\"/>";
    o += "<text x=\"" + std::to_string(x + 18) + "\" y=\"17\">" + XmlEscape(label) + "</text>";
    x += 26 + static_cast<int>(label.size()) * 6;
  };
  for (const ChartSeries& s : spec.series) legend(s.color, s.label, !s.line);
  for (const ChartBand& b : spec.bands) legend(b.color, b.label, true);
  for (const auto& [v, label] : spec.lines) legend("#555", label, false);
  return o + "</g>";
}

// The axes' reach: the data's largest values (an envelope's maxima), at least the spec's minimum,
// rounded up.
Frame ChartFrame(const ChartSpec& spec, TimeNs t0, TimeNs t1) {
  Frame f{t0, std::max(t1, t0 + 1), spec.y_min_max, spec.y2_min_max};
  for (const ChartSeries& s : spec.series) {
    if (!s.data) continue;
    f.right |= s.right_axis;
    for (int i = 0; i < s.data->size(); ++i) {
      auto v = s.envelope ? s.data->max(i) : s.data->mean(i);
      if (!v) continue;
      f.any = true;
      double& m = s.right_axis ? f.y2_max : f.y_max;
      m = std::max(m, *v);
    }
  }
  // The axis reaches just past the first threshold, so it shows where data would start to
  // matter; higher bands come into view only when the data climbs towards them.
  if (!spec.bands.empty()) {
    double first = spec.bands.front().lo;
    for (const ChartBand& b : spec.bands) first = std::min(first, b.lo);
    f.y_max = std::max(f.y_max, first * 1.1);
  }
  f.y_max = NiceMax(f.y_max);
  f.y2_max = NiceMax(f.y2_max);
  return f;
}

// Threshold bands, each with its dashed lower edge.
void DrawBands(std::string* o, const ChartSpec& spec, const Frame& f) {
  for (const ChartBand& b : spec.bands) {
    const double y_hi = f.Y(std::min(b.hi, f.y_max), false), y_lo = f.Y(b.lo, false);
    if (y_lo <= y_hi) continue;
    *o += "<rect class=\"band\" x=\"" + std::to_string(kLeft) + "\" y=\"" + N(y_hi) + "\" width=\"" +
          std::to_string(kPlotW) + "\" height=\"" + N(y_lo - y_hi) + "\" fill=\"" + b.color +
          "\" fill-opacity=\"0.3\"/>";
    if (!b.edge.empty() && b.lo > 0) {
      *o += "<path class=\"band-edge\" stroke=\"" + b.edge + "\" stroke-dasharray=\"6 3\" fill=\"none\" d=\"M" +
            std::to_string(kLeft) + " " + N(y_lo) + "h" + std::to_string(kPlotW) + "\"/>";
    }
  }
}

// Left axis (and right, with a second series axis): 5 ticks. The grid, time axis, frame, axis
// titles and legend are the same for every chart of its kind and period (`fixed`, shared
// through `defs`); the tick labels and threshold lines follow the data.
void DrawAxes(std::string* o, const ChartSpec& spec, const Frame& f, SvgDefs* defs) {
  std::string grid, left, right_labels, fixed;
  for (int k = 0; k <= 4; ++k) {
    const double v = f.y_max * k / 4, y = f.Y(v, false);
    grid += "M" + std::to_string(kLeft) + " " + I(y) + "h" + std::to_string(kPlotW);
    left += "<text x=\"" + std::to_string(kLeft - 4) + "\" y=\"" + I(y + 4) + "\">" + TickLabel(v) + "</text>";
    if (f.right)
      right_labels += "<text x=\"" + std::to_string(kLeft + kPlotW + 4) + "\" y=\"" + I(y + 4) + "\">" +
                      TickLabel(f.y2_max * k / 4) + "</text>";
  }
  fixed += "<path class=\"grid\" stroke=\"#e6e6e6\" fill=\"none\" d=\"" + grid + "\"/>";
  TimeAxis(&fixed, f.t0, f.t1, kTop, kPlotH);
  fixed += "<rect class=\"frame\" fill=\"none\" stroke=\"#999\" x=\"" + std::to_string(kLeft) + "\" y=\"" +
           std::to_string(kTop) + "\" width=\"" + std::to_string(kPlotW) + "\" height=\"" + std::to_string(kPlotH) +
           "\"/>";
  fixed += "<text class=\"axis\" font-size=\"11\" fill=\"#333\" x=\"12\" y=\"" + std::to_string(kTop + kPlotH / 2) +
           "\" transform=\"rotate(-90 12 " + std::to_string(kTop + kPlotH / 2) + ")\" text-anchor=\"middle\">" +
           XmlEscape(spec.y_label) + "</text>";
  if (f.right)
    fixed += "<text class=\"axis\" font-size=\"11\" fill=\"#333\" x=\"" + std::to_string(kWidth - 8) + "\" y=\"" +
             std::to_string(kTop + kPlotH / 2) + "\" transform=\"rotate(90 " + std::to_string(kWidth - 8) + " " +
             std::to_string(kTop + kPlotH / 2) + ")\" text-anchor=\"middle\">" + XmlEscape(spec.y2_label) + "</text>";
  fixed += "<text class=\"axis\" font-size=\"11\" fill=\"#333\" x=\"" + std::to_string(kLeft + kPlotW / 2) + "\" y=\"" +
           std::to_string(kHeight - 4) + "\" text-anchor=\"middle\">time (UTC)</text>";
  fixed += Legend(spec);
  *o += defs ? defs->Use(fixed) : fixed;
  *o += "<g class=\"tick\" font-size=\"10\" fill=\"#444\" text-anchor=\"end\">" + left + "</g>";
  if (f.right) *o += "<g class=\"tick\" font-size=\"10\" fill=\"#444\">" + right_labels + "</g>";
  for (const auto& [v, label] : spec.lines) {
    const double y = f.Y(v, false);
    *o += "<line class=\"thr\" x1=\"" + std::to_string(kLeft) + "\" y1=\"" + N(y) + "\" x2=\"" +
          std::to_string(kLeft + kPlotW) + "\" y2=\"" + N(y) + "\"/>";
  }
}

// The x of bucket i's midpoint.
double BucketX(const Frame& f, double i, int n) { return f.X((i + 0.5) / n); }

// A min-max envelope: each run of buckets with values, along the maxima and back along the minima.
void DrawEnvelope(std::string* o, const ChartSeries& s, const Frame& f) {
  const Buckets& b = *s.data;
  const int n = b.size();
  PathData env;
  for (int i = 0; i < n;) {
    if (!b.max(i)) {
      ++i;
      continue;
    }
    int j = i;
    while (j + 1 < n && b.max(j + 1)) ++j;
    env.Move(BucketX(f, i, n), f.Y(*b.max(i), s.right_axis));
    for (int k = i + 1; k <= j; ++k) env.Line(BucketX(f, k, n), f.Y(*b.max(k), s.right_axis));
    for (int k = j; k >= i; --k) env.Line(BucketX(f, k, n), f.Y(*b.min(k), s.right_axis));
    env.Close();
    i = j + 1;
  }
  *o += "<path class=\"env\" fill=\"" + s.color + "\" d=\"" + env.str() + "\"/>";
}

// A path through the bucket means, broken where a bucket has no value; an isolated bucket is drawn
// across its width so that it shows.
void DrawLine(std::string* o, const ChartSeries& s, const Frame& f) {
  const Buckets& b = *s.data;
  const int n = b.size();
  PathData d;
  for (int i = 0; i < n; ++i) {
    auto v = b.mean(i);
    if (!v) continue;
    const bool starts = i == 0 || !b.mean(i - 1);
    const bool alone = starts && (i + 1 >= n || !b.mean(i + 1));
    const double y = f.Y(*v, s.right_axis);
    if (alone) {
      d.Move(f.X(static_cast<double>(i) / n), y);
      d.Line(f.X(static_cast<double>(i + 1) / n), y);
    } else if (starts) {
      d.Move(BucketX(f, i, n), y);
    } else {
      d.Line(BucketX(f, i, n), y);
    }
  }
  *o += "<path class=\"line" + std::string(s.dashed ? " dash" : "") + "\" stroke=\"" + s.color + "\" d=\"" + d.str() +
        "\"/>";
}

}  // namespace

Buckets::Buckets(TimeNs t0, TimeNs t1, int n)
    : t0_(t0),
      t1_(std::max(t1, t0 + 1)),
      n_(std::max(n, 1), 0),
      sum_(n_.size(), 0),
      min_(n_.size(), std::numeric_limits<double>::infinity()),
      max_(n_.size(), -std::numeric_limits<double>::infinity()) {}

int Buckets::Index(TimeNs start, TimeNs end) const {
  const TimeNs mid = start + (end - start) / 2;
  if (mid < t0_ || mid >= t1_) return -1;
  const double frac = static_cast<double>(mid - t0_) / static_cast<double>(t1_ - t0_);
  return std::min(static_cast<int>(frac * static_cast<double>(n_.size())), size() - 1);
}

void Buckets::Add(TimeNs start, TimeNs end, const std::optional<double>& v) {
  if (!v || !std::isfinite(*v)) return;
  const int i = Index(start, end);
  if (i < 0) return;
  ++n_[i];
  sum_[i] += *v;
  min_[i] = std::min(min_[i], *v);
  max_[i] = std::max(max_[i], *v);
}

std::optional<double> Buckets::mean(int i) const {
  return n_[i] ? std::optional<double>(sum_[i] / n_[i]) : std::nullopt;
}
std::optional<double> Buckets::min(int i) const { return n_[i] ? std::optional<double>(min_[i]) : std::nullopt; }
std::optional<double> Buckets::max(int i) const { return n_[i] ? std::optional<double>(max_[i]) : std::nullopt; }
bool Buckets::any() const {
  return std::any_of(n_.begin(), n_.end(), [](int k) { return k > 0; });
}

TimeNs TimeTickStep(TimeNs span, int max_ticks) {
  constexpr int64_t kSteps[] = {60,    300,   600,   900,    1800,   3600,    7200,   10800,
                                21600, 43200, 86400, 172800, 604800, 1209600, 2592000};
  for (int64_t s : kSteps)
    if (span / (s * kNsPerSec) <= max_ticks) return s * kNsPerSec;
  return 2592000 * kNsPerSec * (span / (2592000 * kNsPerSec * max_ticks) + 1);
}

double NiceMax(double v) {
  if (!(v > 0) || !std::isfinite(v)) return 1;
  const double p = std::pow(10.0, std::floor(std::log10(v)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (m * p >= v * (1 - 1e-12)) return m * p;
  return 10 * p;
}

std::string XmlEscape(std::string_view s) {
  std::string o;
  o.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '&': o += "&amp;"; break;
      case '"': o += "&quot;"; break;
      default: o += c;
    }
  }
  return o;
}

std::string RenderChart(const ChartSpec& spec, TimeNs t0, TimeNs t1, SvgDefs* defs) {
  const Frame f = ChartFrame(spec, t0, t1);
  std::string o = "<svg class=\"chart\" viewBox=\"0 0 " + std::to_string(kWidth) + " " + std::to_string(kHeight) +
                  "\" role=\"img\"><title>" + XmlEscape(spec.title) + "</title>";
  DrawBands(&o, spec, f);  // under everything else
  DrawAxes(&o, spec, f, defs);
  for (const ChartSeries& s : spec.series) {
    if (!s.data || !s.data->any()) continue;
    if (s.envelope) DrawEnvelope(&o, s, f);
    if (s.line) DrawLine(&o, s, f);
  }
  if (!f.any)
    o += "<text class=\"empty\" x=\"" + std::to_string(kLeft + kPlotW / 2) + "\" y=\"" +
         std::to_string(kTop + kPlotH / 2) + "\" text-anchor=\"middle\">no data for this chart in this period</text>";
  o += "</svg>";
  return o;
}

std::string RenderFlagStrip(const std::vector<FlagMark>& marks, int buckets, TimeNs t0, TimeNs t1, SvgDefs* defs) {
  constexpr int kRow = 14, kStripTop = 6;
  const int height = kStripTop + 3 * kRow + 24;
  std::string o = "<svg class=\"chart strip\" viewBox=\"0 0 " + std::to_string(kWidth) + " " + std::to_string(height) +
                  "\" role=\"img\"><title>flags over time</title>";
  // Top to bottom: the worst first.
  constexpr Severity kRows[] = {Severity::kError, Severity::kWarning, Severity::kInfo};
  const char* colors[] = {"#c62828", "#ef8f00", "#1e88e5"};
  std::string fixed;
  for (int r = 0; r < 3; ++r)
    fixed += "<text class=\"tick\" font-size=\"10\" fill=\"#444\" x=\"" + std::to_string(kLeft - 4) + "\" y=\"" +
             std::to_string(kStripTop + r * kRow + 11) + "\" text-anchor=\"end\">" +
             std::string(SeverityName(kRows[r])) + "</text>";
  fixed += "<rect class=\"frame\" fill=\"none\" stroke=\"#999\" x=\"" + std::to_string(kLeft) + "\" y=\"" +
           std::to_string(kStripTop) + "\" width=\"" + std::to_string(kPlotW) + "\" height=\"" +
           std::to_string(3 * kRow) + "\"/>";
  TimeAxis(&fixed, t0, std::max(t1, t0 + 1), kStripTop, 3 * kRow);
  o += defs ? defs->Use(fixed) : fixed;
  // One path per severity; neighbouring buckets merge into one bar. The row's <title> names the
  // codes (the table under the strip dates each one).
  const double bw = static_cast<double>(kPlotW) / std::max(buckets, 1);
  for (int row = 0; row < 3; ++row) {
    const Severity sev = kRows[row];
    std::vector<int> on;
    std::set<std::string> codes;
    for (const FlagMark& m : marks)
      if (m.severity == sev) {
        on.push_back(m.bucket);
        for (size_t a = 0; a < m.codes.size();) {  // m.codes is "code, code"
          size_t b = m.codes.find(", ", a);
          if (b == std::string::npos) b = m.codes.size();
          codes.insert(m.codes.substr(a, b - a));
          a = b + 2;
        }
      }
    if (on.empty()) continue;
    std::sort(on.begin(), on.end());
    std::string d;
    const std::string y = std::to_string(kStripTop + row * kRow + 2), h = std::to_string(kRow - 4);
    for (size_t i = 0; i < on.size();) {
      size_t j = i;
      while (j + 1 < on.size() && on[j + 1] == on[j] + 1) ++j;
      const double x0 = kLeft + on[i] * bw, x1 = kLeft + (on[j] + 1) * bw;
      d += "M" + N(x0) + " " + y + "h" + N(std::max(x1 - x0, 1.5)) + "v" + h + "h" + N(-std::max(x1 - x0, 1.5)) + "z";
      i = j + 1;
    }
    std::string title;
    for (const auto& c : codes) title += (title.empty() ? "" : "; ") + c;
    o += "<path class=\"mark\" fill=\"" + std::string(colors[row]) + "\" d=\"" + d + "\"><title>" + XmlEscape(title) +
         "</title></path>";
  }
  if (marks.empty())
    o += "<text class=\"empty\" x=\"" + std::to_string(kLeft + kPlotW / 2) + "\" y=\"" +
         std::to_string(kStripTop + 25) + "\" text-anchor=\"middle\">no flags in this period</text>";
  o += "</svg>";
  return o;
}

}  // namespace vrecon::report
