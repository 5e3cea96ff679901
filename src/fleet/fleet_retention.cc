#include "src/fleet/fleet_retention.h"

#include <chrono>

#include "src/core/text_util.h"
#include "src/engine/capacity_job.h"

namespace vrecon::fleet {

StatusOr<PruneResult> ApplyRetention(const FleetConfig& cfg, Store* store, TimeNs now, Logger* log) {
  if (!cfg.retain_samples && !cfg.retain_corrections) return PruneResult{};
  PruneRequest req;
  req.now = now;
  if (cfg.retain_samples) req.samples_before = RetentionCutoff(now, *cfg.retain_samples);
  if (cfg.retain_corrections) req.corrections_before = RetentionCutoff(now, *cfg.retain_corrections);
  RETURN_IF_ERROR(store->WaitForWritersUpTo(std::chrono::minutes(2)));
  // The capacity day digests take in the samples first, so that their days outlive them: every
  // entity's (rounds keep their VMs' current; host logs' hosts are not VMs) when the cutoff moves,
  // once a day.
  if (req.samples_before) {
    ASSIGN_OR_RETURN(const PruneHorizon pruned, PrunedBefore(store));
    if (!pruned.samples_before || *pruned.samples_before < *req.samples_before)
      RETURN_IF_ERROR(RefreshCapacityDigests(store));
  }
  ASSIGN_OR_RETURN(PruneResult r, Prune(store, req));
  if (r.time_blocks > 0) {
    log->Info("retention: removed " + std::to_string(r.sample_rows) + " sample rows (" + std::to_string(r.time_blocks) +
              " blocks) that ended before " + FormatIso(*req.samples_before, false));
  }
  if (r.windows > 0 || r.process_hours > 0) {
    log->Info("retention: removed " + std::to_string(r.windows) + " stored correction windows that ended before " +
              FormatIso(*req.corrections_before, false));
  }
  return r;
}

}  // namespace vrecon::fleet
