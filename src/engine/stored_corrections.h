// Stored corrections: runs the correction (RunCorrection) and the Ready-Time analysis
// (RunReadyAnalysis) and keeps their results in the store's corr_* tables
// (src/store/correction_tables.h) for `vrecon report`, and for fleet collection to refresh after
// each round.
#ifndef VRECON_SRC_ENGINE_STORED_CORRECTIONS_H_
#define VRECON_SRC_ENGINE_STORED_CORRECTIONS_H_

#include <cstdint>

#include "src/engine/correction_job.h"
#include "src/store/correction_tables.h"

namespace vrecon {

// Recomputes the correction windows overlapping [req.from, req.to) (all when unset) for the
// VMs matching req.vm (all when unset) and replaces what the store held for them, together with
// the Ready-Time results reports read. Returns the number of windows stored.
//
// The range is widened to whole multiples of lcm(1 h, req.window) UTC so that the hourly process
// aggregates are always rebuilt from complete hours; except that when req.from falls inside an
// hour and req.window divides the hour (a fleet round's recompute), the VMs without a guest log,
// which have no process aggregates and whose stored windows reach two windows past req.from,
// are recomputed from req.from's window on and keep the hour's earlier stored windows.
//
// The Ready-Time summaries (they summarise the whole period) are updated for the UTC days from
// req.from on (src/engine/ready_summaries.h). One transaction: a failure leaves the previous
// results in place. A req.vm matching nothing is NotFound, as for RunCorrection.
StatusOr<int64_t> StoreCorrections(Store* store, const CorrectionRequest& req);

// Converts one window result to its stored form (flags kept, processes left to the aggregates).
StoredWindow ToStoredWindow(const models::WindowResult& r);

}  // namespace vrecon

#endif  // VRECON_SRC_ENGINE_STORED_CORRECTIONS_H_
