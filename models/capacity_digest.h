// A UTC day of an entity's 5-minute demand, kept in the store so that a forecast reads a row a
// day rather than the samples, and outlives sample retention (docs/capacity.md, "Day digests").
// A day's bins are counted and summed, and each is kept to the thousandth of a core (sorted, a
// byte or two each stored): percentiles over any days are the bins' own, to 0.001 core. A day
// is built as its samples arrive: the bins before `open_from` are closed; the bins from there on
// may still get samples and are computed again from the samples by the next update.
#ifndef VRECON_MODELS_CAPACITY_DIGEST_H_
#define VRECON_MODELS_CAPACITY_DIGEST_H_

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "models/capacity_demand.h"

namespace vrecon::models {

// Demand in thousandths of a core, the unit bins are kept in (negative demand counts as 0).
int32_t ToMilliCores(double cores);
double FromMilliCores(int32_t milli);
// The nearest-rank percentile (the ceil(p n)-th smallest, as DailyP95) of `milli`, in cores;
// nullopt when empty. Reorders `milli`.
std::optional<double> NearestRankCores(std::vector<int32_t>* milli, double p);

struct DemandDay {
  TimeNs day = 0;                         // the UTC day's start
  std::vector<int32_t> closed;            // the bins before open_from, in thousandths of a core, ascending
  double closed_sum = 0, closed_max = 0;  // of the bins themselves
  TimeNs closed_end = 0;                  // the end of the last closed bin (0: none)
  TimeNs open_from = 0;                   // a bin boundary; bins from here on are `open`
  std::vector<DemandBin> open;            // in time order
  // Co-stop, in % summed over vCPUs, weighted by seconds: of the samples starting before
  // open_from, then of those from it on.
  double closed_costop_pct_s = 0, closed_costop_s = 0, open_costop_pct_s = 0, open_costop_s = 0;
  TimeNs reach = 0;        // the latest sample end read into the day
  int64_t block_seen = 0;  // the store's newest sample block of the entity when it was read

  int64_t Bins() const;
  double Sum() const;
  double Max() const;
  std::optional<double> P95() const;
  TimeNs End() const;                       // the end of its last bin (0: no bin)
  std::vector<int32_t> All() const;         // every bin, in thousandths of a core, in no set order
  std::optional<double> CostopPct() const;  // mean co-stop; nullopt without co-stop samples
};

// The days `bins` (in time order) fall in, every bin from `open_from` on open, the ones before it
// closed. Co-stop samples count in the day and part (closed or open) their start falls in.
std::map<TimeNs, DemandDay> DigestDays(const std::vector<DemandBin>& bins, const std::vector<Interval>& costop,
                                       TimeNs open_from);

// `fresh` (DigestDays of the samples ending after `into.open_from`, opened at the same point)
// added to a stored day: its open part replaced by what `fresh` has of the day.
void FoldDay(const DemandDay& fresh, DemandDay* into);

// The bin boundary from which the next update reads a day again: the bin holding `reach`.
TimeNs OpenFrom(TimeNs reach);

}  // namespace vrecon::models

#endif  // VRECON_MODELS_CAPACITY_DIGEST_H_
