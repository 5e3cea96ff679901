// One VM seen by two host-side sources (docs/storage.md, "VM identity"): an esxtop capture of a
// host and a vSphere collection or PowerCLI Get-Stat export name the same VMs. Where no vCenter
// inventory places the VM on the esxtop host, the two are taken for one VM only when their CPU
// series agree in time: they move together and their levels match within the counters' tolerance.
#ifndef VRECON_MODELS_HOST_LINK_H_
#define VRECON_MODELS_HOST_LINK_H_

#include <optional>
#include <string>
#include <vector>

#include "models/clock_alignment.h"

namespace vrecon::models {

struct HostSeriesPair {
  std::vector<TimedValue> esxtop;   // the group's % Used or % Run, summed over its vCPUs
  std::vector<TimedValue> vsphere;  // cpu.usage.average (% of capacity) or cpu.run.summation (summed over vCPUs)
  bool vsphere_per_vcpu = true;     // usage: esxtop / vCPUs matches it; run.summation: esxtop matches it
  // Both frequency-scaled (% Used, usage) or both time (% Run, run): 10% apart at most. Otherwise
  // a turbo or hyper-threading factor lies between them: 35%.
  bool like_counters = true;
  std::optional<int> vcpus;  // the inventory's numCPU, when known
};

struct SeriesAgreement {
  bool agree = false;
  int points = 0;                     // common intervals compared
  std::optional<double> correlation;  // unset when both series are flat
  int scale = 1;                      // the vCPUs taken to lie between the two
  std::string why;                    // what failed, when they do not agree
};

// Intervals of the coarser series the finer one must cover (80% of each) for a verdict.
inline constexpr int kMinAgreementPoints = 6;
inline constexpr double kMinAgreementCorrelation = 0.8;
// A series moving less than this (standard deviation, percentage points on esxtop's scale) is
// flat: it cannot be told from another flat one by its shape, only by its level.
inline constexpr double kFlatStddevPct = 1.0;

// Compares the two over the coarser one's intervals (the finer averaged over each).
SeriesAgreement CompareHostSeries(const HostSeriesPair& p);

}  // namespace vrecon::models

#endif  // VRECON_MODELS_HOST_LINK_H_
