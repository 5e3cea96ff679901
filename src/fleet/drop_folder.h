// One drop folder in one round: every new or grown file is ingested once. An unchanged file
// (same size and mtime as when last ingested) is not opened; a file still being written (its
// size or mtime moved during the settle time) waits for the next round; ingest's own resume
// (fingerprint + consumed line) makes a grown file add only its new rows.
#ifndef VRECON_SRC_FLEET_DROP_FOLDER_H_
#define VRECON_SRC_FLEET_DROP_FOLDER_H_

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "src/fleet/fleet_config.h"
#include "src/fleet/fleet_log.h"
#include "src/store/store.h"

namespace vrecon::fleet {

struct DropFolderResult {
  int files_seen = 0, files_ingested = 0, files_unchanged = 0, files_waiting = 0, files_failed = 0;
  int64_t rows = 0;
  std::optional<TimeNs> first_new_end, last_new_end;  // of the rows this round added
  std::vector<std::string> errors;                    // one sentence per file that could not be ingested
};

// An error only when the folder itself cannot be listed; a bad file is counted and named in
// `errors` and remembered, so it is read again only once it changes.
StatusOr<DropFolderResult> CollectDropFolder(Store* store, const DropFolderConfig& folder, TimeNs settle,
                                             const std::atomic<bool>* stop, Logger* log);

}  // namespace vrecon::fleet

#endif  // VRECON_SRC_FLEET_DROP_FOLDER_H_
