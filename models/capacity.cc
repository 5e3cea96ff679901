#include "models/capacity.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

namespace vrecon::models {
namespace {

double Band(const ForecastDay& d, Risk risk) { return risk == Risk::kConservative ? d.upper : d.mid; }

std::string Number(double v, const char* format) {
  char b[32];
  std::snprintf(b, sizeof b, format, v);
  return b;
}

}  // namespace

std::optional<Risk> ParseRisk(std::string_view text) {
  if (text == "conservative") return Risk::kConservative;
  if (text == "aggressive") return Risk::kAggressive;
  return std::nullopt;
}

std::string_view RiskName(Risk risk) { return risk == Risk::kConservative ? "conservative" : "aggressive"; }

std::optional<CapacityCores> HostCapacity(const HostProcessors& p) {
  if (p.hyperthreading.value_or(false) && p.cores) return CapacityCores{static_cast<double>(*p.cores), false};
  const std::optional<int> logical = p.threads ? p.threads : p.cores;
  if (!logical) return std::nullopt;
  return CapacityCores{static_cast<double>(*logical), !p.hyperthreading.has_value()};
}

double ClusterCapacity(std::vector<double> host_cores, int ha_hosts) {
  std::sort(host_cores.begin(), host_cores.end(), std::greater<>());
  double sum = 0;
  for (size_t i = static_cast<size_t>(std::max(ha_hosts, 0)); i < host_cores.size(); ++i) sum += host_cores[i];
  return std::max(sum, 0.0);
}

double ClusterCapacityLessShare(const std::vector<double>& host_cores, double reserve_pct) {
  double total = 0;
  for (double c : host_cores) total += c;
  return total * (1 - std::clamp(reserve_pct, 0.0, 100.0) / 100);
}

int DefaultHaHosts(size_t hosts) { return hosts >= 2 ? 1 : 0; }

double UsableCores(double capacity_cores, double buffer_pct) { return capacity_cores * (1 - buffer_pct / 100); }

std::optional<int> TimeRemainingDays(const Forecast& f, const std::vector<DailyDemand>& history, double usable,
                                     Risk risk) {
  if (!f.sufficient) return std::nullopt;
  for (const DailyDemand& d : history) {
    const bool last_week = d.day > f.as_of_day - 7 && d.day <= f.as_of_day;
    const bool peak = std::binary_search(f.peak_days.begin(), f.peak_days.end(), d.day);
    if (last_week && !peak && std::isfinite(d.cores) && d.cores > usable) return 0;
  }
  for (const ForecastDay& d : f.days)
    if (Band(d, risk) > usable) return static_cast<int>(d.day - f.as_of_day);
  return std::nullopt;
}

std::optional<int> PeakTimeRemainingDays(const Forecast& f, const std::vector<DailyDemand>& history, double usable,
                                         Risk risk) {
  if (!f.sufficient || !f.recurring_peak || f.recurring_peak->seen.empty()) return std::nullopt;
  const int64_t latest = f.recurring_peak->seen.back();
  for (const DailyDemand& d : history)
    if (d.day == latest && std::isfinite(d.cores) && d.cores > usable) return 0;
  for (const ForecastDay& d : f.peak_days_ahead)
    if (Band(d, risk) > usable) return static_cast<int>(d.day - f.as_of_day);
  return std::nullopt;
}

std::optional<double> CapacityRemainingPct(const Forecast& f, double usable, Risk risk) {
  if (!f.sufficient || f.days.empty() || usable <= 0) return std::nullopt;
  double most = 0;
  for (size_t i = 0; i < f.days.size() && i < 3; ++i) most = std::max(most, Band(f.days[i], risk));
  return std::max(0.0, (usable - most) / usable * 100);
}

VcpuAdvice RecommendVcpus(double p95_demand_cores, double target_util_pct, std::optional<int> host_cores,
                          std::optional<int> vcpus, bool costop_high) {
  VcpuAdvice a;
  const double need = p95_demand_cores / (target_util_pct / 100);
  a.recommended = std::max(1, static_cast<int>(std::ceil(need - 1e-9)));
  const bool capped = host_cores && *host_cores > 0 && a.recommended > *host_cores;
  if (capped) a.recommended = *host_cores;
  if (!vcpus) return a;
  const std::string why = "its 5-minute demand's p95 over 30 days is " + Number(p95_demand_cores, "%.2f") +
                          " cores; at " + Number(target_util_pct, "%g") + "% target utilisation that is " +
                          (capped ? "more than its host's " + std::to_string(*host_cores) + " cores: " : "") +
                          std::to_string(a.recommended) + " vCPU(s), it has " + std::to_string(*vcpus);
  if (a.recommended < *vcpus) {
    a.hints.push_back({"fewer-vcpus", Severity::kInfo, why + (costop_high ? "; its high co-stop says the same" : "")});
  } else if (a.recommended > *vcpus) {
    if (costop_high)
      a.hints.push_back({"more-vcpus", Severity::kInfo,
                         why + ", but its co-stop is high: more vCPUs would wait longer to be scheduled together; "
                               "move it to a less loaded host first"});
    else a.hints.push_back({"more-vcpus", Severity::kWarning, why});
  }
  return a;
}

}  // namespace vrecon::models
