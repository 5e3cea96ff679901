// Retention after a fleet round: the fleet file's retain_samples / retain_corrections, applied
// as `vrecon prune` would (src/store/retention.h). The cutoff moves once a UTC day, so most
// rounds find nothing to remove and cost one indexed count.
#ifndef VRECON_SRC_FLEET_FLEET_RETENTION_H_
#define VRECON_SRC_FLEET_FLEET_RETENTION_H_

#include "src/fleet/fleet_config.h"
#include "src/fleet/fleet_log.h"
#include "src/store/retention.h"

namespace vrecon::fleet {

// Nothing to do (an empty result) when the configuration keeps everything. What was removed is
// logged at info level.
StatusOr<PruneResult> ApplyRetention(const FleetConfig& cfg, Store* store, TimeNs now, Logger* log);

}  // namespace vrecon::fleet

#endif  // VRECON_SRC_FLEET_FLEET_RETENTION_H_
