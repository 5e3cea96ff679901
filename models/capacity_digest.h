// A UTC day of an entity's 5-minute demand, kept in the store so that a forecast reads a row a
// day rather than the samples, and outlives sample retention (docs/capacity.md, "Day digests").
// A day keeps each of its 5-minute values by its place in the day, to the thousandth of a core
// (and its mean co-stop to the hundredth of a percent): percentiles over any days are the values'
// own, and an update replaces the values from any 5-minute boundary on with those its samples
// give, whether new samples continue the day or overlap what it holds.
#ifndef VRECON_MODELS_CAPACITY_DIGEST_H_
#define VRECON_MODELS_CAPACITY_DIGEST_H_

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "models/capacity_demand.h"

namespace vrecon::models {

inline constexpr int kBinsPerDay = static_cast<int>(kNsPerDay / kDemandBinNs);

// Demand in thousandths of a core, the unit values are kept in (negative demand counts as 0).
int32_t ToMilliCores(double cores);
double FromMilliCores(int32_t milli);
// The nearest-rank percentile (the ceil(p n)-th smallest, as DailyP95) of `milli`, in cores;
// nullopt when empty. Reorders `milli`.
std::optional<double> NearestRankCores(std::vector<int32_t>* milli, double p);

struct DayBin {
  int index = 0;        // its place in the day, 0 to 287
  int32_t milli = 0;    // demand, thousandths of a core
  int32_t costop = -1;  // mean co-stop, hundredths of a percent summed over vCPUs; -1 when none
};

struct DemandDay {
  TimeNs day = 0;            // the UTC day's start
  std::vector<DayBin> bins;  // by index
  TimeNs reach = 0;          // the latest sample end read into the day
  int64_t block_seen = 0;    // the store's newest sample block of the entity when it was read
  int32_t sample_s = 0;      // the longest sample its values were read from (s; 0: not known)
  // The first place from which every value was read from samples of at most kFineSampleS
  // (kBinsPerDay when its last value was not): where a backfill's rollups give way to 5 minutes.
  int32_t fine_from = 0;

  int64_t Bins() const { return static_cast<int64_t>(bins.size()); }
  double Sum() const;
  double Max() const;
  std::optional<double> P95() const;
  TimeNs End() const;  // the end of its last value (0: none)
  std::vector<int32_t> Values() const;
  // Mean co-stop over the values that have one, in %; nullopt when none has.
  std::optional<double> CostopPct() const;
  // Co-stop's sum and count over the values that have one, in hundredths of a percent.
  std::pair<int64_t, int64_t> CostopSum() const;
};

// The days `demand`'s and `costop`'s bins (models::FiveMinuteDemand's; co-stop's in % / 100, as
// that function gives them) fall in.
std::map<TimeNs, DemandDay> DigestDays(const std::vector<DemandBin>& demand, const std::vector<DemandBin>& costop);

// `day`'s values from `from` (a 5-minute boundary) on replaced by `fresh`'s: an update that read
// every sample ending after `from`. Its longest sample is the longer of the two, or fresh's when
// every value is; its 5-minute values start where the two parts' say.
void ReplaceFrom(TimeNs from, const DemandDay& fresh, DemandDay* day);

}  // namespace vrecon::models

#endif  // VRECON_MODELS_CAPACITY_DIGEST_H_
