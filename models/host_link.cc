#include "models/host_link.h"

#include <algorithm>
#include <cmath>

#include "src/core/text_util.h"

namespace vrecon::models {
namespace {

bool ByStart(const TimedValue& a, const TimedValue& b) { return a.start < b.start; }

// (esxtop, vsphere) value pairs: each interval of the coarser series against the finer one's
// time-weighted mean over it, where the finer covers 80% of it. Both sorted by start.
std::vector<std::pair<double, double>> Pairs(const std::vector<TimedValue>& esxtop,
                                             const std::vector<TimedValue>& vsphere) {
  const bool esxtop_coarser = MedianSampleLength(esxtop).value_or(0) > MedianSampleLength(vsphere).value_or(0);
  const std::vector<TimedValue>& base = esxtop_coarser ? esxtop : vsphere;
  const std::vector<TimedValue>& fine = esxtop_coarser ? vsphere : esxtop;
  std::vector<std::pair<double, double>> out;
  size_t first = 0;
  for (const TimedValue& b : base) {
    if (b.end <= b.start) continue;
    while (first < fine.size() && fine[first].end <= b.start) ++first;
    double weighted = 0;
    TimeNs covered = 0;
    for (size_t k = first; k < fine.size() && fine[k].start < b.end; ++k) {
      const TimeNs overlap = std::min(b.end, fine[k].end) - std::max(b.start, fine[k].start);
      if (overlap <= 0) continue;
      weighted += static_cast<double>(overlap) * fine[k].value;
      covered += overlap;
    }
    if (static_cast<double>(covered) < 0.8 * static_cast<double>(b.end - b.start)) continue;
    const double mean = weighted / static_cast<double>(covered);
    out.emplace_back(esxtop_coarser ? b.value : mean, esxtop_coarser ? mean : b.value);
  }
  return out;
}

struct Moments {
  double mean_x = 0, mean_y = 0, sd_x = 0, sd_y = 0, cov = 0;
};
Moments MomentsOf(const std::vector<std::pair<double, double>>& pairs) {
  Moments m;
  const double n = static_cast<double>(pairs.size());
  for (const auto& [x, y] : pairs) {
    m.mean_x += x / n;
    m.mean_y += y / n;
  }
  for (const auto& [x, y] : pairs) {
    m.sd_x += (x - m.mean_x) * (x - m.mean_x) / n;
    m.sd_y += (y - m.mean_y) * (y - m.mean_y) / n;
    m.cov += (x - m.mean_x) * (y - m.mean_y) / n;
  }
  m.sd_x = std::sqrt(m.sd_x);
  m.sd_y = std::sqrt(m.sd_y);
  return m;
}

// The vCPUs between esxtop's sum and vSphere's per-capacity figure: the inventory's, else the
// nearest whole ratio of their means; nullopt when vSphere's mean is too low to tell.
std::optional<int> ScaleOf(const HostSeriesPair& p, const Moments& m) {
  if (!p.vsphere_per_vcpu) return 1;
  if (p.vcpus && *p.vcpus > 0) return *p.vcpus;
  if (m.mean_y < kFlatStddevPct) return std::nullopt;
  const double ratio = std::round(m.mean_x / m.mean_y);
  if (ratio < 1 || ratio > 768) return std::nullopt;  // vSphere 8's most vCPUs a VM can have
  return static_cast<int>(ratio);
}

}  // namespace

SeriesAgreement CompareHostSeries(const HostSeriesPair& p) {
  SeriesAgreement a;
  std::vector<TimedValue> esxtop = p.esxtop, vsphere = p.vsphere;
  std::sort(esxtop.begin(), esxtop.end(), ByStart);
  std::sort(vsphere.begin(), vsphere.end(), ByStart);
  const std::vector<std::pair<double, double>> pairs = Pairs(esxtop, vsphere);
  a.points = static_cast<int>(pairs.size());
  if (a.points < kMinAgreementPoints) {
    a.why =
        "they share " + std::to_string(a.points) + " intervals (" + std::to_string(kMinAgreementPoints) + " needed)";
    return a;
  }
  const Moments m = MomentsOf(pairs);
  const std::optional<int> scale = ScaleOf(p, m);
  if (!scale) {
    a.why = "vSphere's figure is too low to tell the vCPUs between the two";
    return a;
  }
  a.scale = *scale;
  const double x = m.mean_x, y = m.mean_y * a.scale;
  const double tolerance = p.like_counters ? 0.10 : 0.35;
  if (std::fabs(x - y) > tolerance * std::max(x, y) + kFlatStddevPct * a.scale) {
    a.why = "their levels differ: esxtop " + FormatFixed(x, 1) + " against vSphere " + FormatFixed(y, 1) +
            " (summed over " + std::to_string(a.scale) + " vCPUs)";
    return a;
  }
  if (std::max(m.sd_x, m.sd_y * a.scale) >= kFlatStddevPct) {
    a.correlation = m.sd_x > 0 && m.sd_y > 0 ? m.cov / (m.sd_x * m.sd_y) : 0.0;
    if (*a.correlation < kMinAgreementCorrelation) {
      a.why = "they do not move together (correlation " + FormatFixed(*a.correlation, 2) + ")";
      return a;
    }
  }
  a.agree = true;
  return a;
}

}  // namespace vrecon::models
