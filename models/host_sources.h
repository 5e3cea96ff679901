// One VM that two host-side sources see (an esxtop capture and a vSphere collection or PowerCLI
// export, models/host_link.h) is corrected against each, then each window takes one source's
// figure by a fixed preference and cross-checks it against the other's (docs/flags.md,
// host-sources-disagree).
#ifndef VRECON_MODELS_HOST_SOURCES_H_
#define VRECON_MODELS_HOST_SOURCES_H_

#include <optional>
#include <string>
#include <vector>

#include "models/correction.h"

namespace vrecon::models {

// One source's correction of the VM: the same guest, this source's host side.
struct HostSourceWindows {
  std::vector<WindowResult> windows;
  std::optional<double> interval_s;  // the source's typical sample length (VmSeries::host_interval_s)
  std::string counter;               // the counter its host figure comes from
};

// Whether a host counter counts time, as the guest's ticks do (% Run, cpu.run.summation, Hyper-V's
// run times), rather than work scaled by the cores' clock (% Used, cpu.usage.average).
bool IsTimeCounter(const std::string& counter);

// The sources in order of preference: the finer interval first (lengths within 5% are equal),
// then a time counter over a frequency-scaled one, then as given.
std::vector<size_t> HostPreference(const std::vector<HostSourceWindows>& sources);

// Two figures differ beyond their units' tolerance: by more than 10% of the larger and 2 points.
// Each source's window mean can miss part of one of the other's samples at the window's edges.
bool HostFiguresDisagree(double a, double b);

// Per window: the first source in preference order whose host figure covers the window
// (CorrectionConfig::min_coverage), else the first with a figure, else the preferred one; its
// window as it is, with host_sources listing every source's figure (the chosen first) and
// `host-sources-disagree` where two covering figures differ.
std::vector<WindowResult> JoinHostSources(std::vector<HostSourceWindows> sources, const CorrectionConfig& cfg);

}  // namespace vrecon::models

#endif  // VRECON_MODELS_HOST_SOURCES_H_
