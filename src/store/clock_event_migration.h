// Schema migration 7's data step (src/store/schema.cc): the clock events that versions before 7
// recorded only in the text of import issues.
#ifndef VRECON_SRC_STORE_CLOCK_EVENT_MIGRATION_H_
#define VRECON_SRC_STORE_CLOCK_EVENT_MIGRATION_H_

#include <optional>

#include "src/core/sample.h"
#include "src/store/database.h"

namespace vrecon {

// The event an issue of those versions describes: dst-shift "...; shift at <ISO>" and
// time-backwards "the row's time <ISO> is not after the previous row's <ISO>; ..."
// (adapters/perfmon); nullopt for other issues and for texts without times (sar's).
std::optional<ClockRecord> ClockEventFromIssue(const ImportIssue& issue);

// Inserts into clock_event one row per such issue still listed in import_issue (the first 1,000
// per code and file: what those versions kept).
Status ClockEventsFromIssues(Database* db);

}  // namespace vrecon

#endif  // VRECON_SRC_STORE_CLOCK_EVENT_MIGRATION_H_
