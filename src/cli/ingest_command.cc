// `vrecon ingest FILE...`: logs and exports into the store; a store with stored corrections gets
// them recomputed over the new rows.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "src/cli/command_options.h"
#include "src/cli/commands.h"
#include "src/cli/ingest_runner.h"
#include "src/engine/stored_corrections.h"
#include "src/store/store.h"
#include "src/store/window_blocks.h"

namespace vrecon::cli {
namespace {

// A store that holds stored corrections (a fleet store, or one a report was made from) gets
// them recomputed over the span of the new rows, so the next `vrecon report` includes them. The
// window length is the one they were stored with.
Status RefreshStoredCorrections(Store* store, const IngestRunResult& r) {
  if (!store || !r.first_new_end || !r.last_new_end) return Status::Ok();
  ASSIGN_OR_RETURN(std::optional<TimeNs> length, NewestCorrWindowLength(store));
  if (!length || *length <= 0) return Status::Ok();
  CorrectionRequest req;
  req.window = *length;
  // A margin on each side: a sample's interval starts before its end, a sample near a window's
  // edge weighs on the neighbour through its span, and the clock alignment may move guest
  // samples by up to its largest lag.
  const TimeNs margin =
      std::max<TimeNs>(2 * *length, static_cast<TimeNs>(req.alignment.max_lag_s * kNsPerSec) + *length);
  req.from = FloorTo(*r.first_new_end - margin, *length);
  req.new_samples_from = r.first_new_end;
  req.to = FloorTo(*r.last_new_end + margin, *length) + *length;
  auto n = StoreCorrections(store, req);
  if (!n.ok()) return n.status().IsNotFound() ? Status::Ok() : n.status();
  std::cerr << "vrecon: note: updated the stored corrections from " << FormatIso(*req.from, false) << " to "
            << FormatIso(*req.to, false) << " (" << *n << " windows) for the next `vrecon report`\n";
  return Status::Ok();
}

}  // namespace

int RunIngestCommand(const IngestArgs& o) {
  std::vector<std::pair<std::string, std::string>> maps;
  for (const std::string& m : o.maps) {
    std::string g, v;
    Status s = ParseMapping(m, &g, &v);
    if (!s.ok()) {
      PrintError(s.message());
      return kExitUsage;
    }
    maps.emplace_back(g, v);
  }
  std::optional<TimeNs> date;
  if (!o.date.empty()) {
    date = ParseIso(o.date);
    if (!date || o.date.size() != 10) {
      PrintError("--date \"" + o.date + "\" is not a date (YYYY-MM-DD)");
      return kExitUsage;
    }
  }
  std::optional<TimeNs> trace_start;
  if (!ParseTraceStartOption(o.trace_start, &trace_start)) return kExitUsage;
  std::error_code ec;
  bool created = false;
  auto store = Store::Open(o.db, &created);
  if (!store.ok()) {
    PrintError(store.status().message());
    return kExitFailure;
  }
  for (const auto& [g, v] : maps) {
    Status s = (*store)->SetMapping(g, v);
    if (!s.ok()) {
      PrintError(s.message());
      return kExitFailure;
    }
  }
  IngestRunOptions ro;
  ro.ingest.tz_bias_minutes = o.tz_bias;
  ro.ingest.date = date;
  ro.ingest.machine = o.machine;
  ro.ingest.trace_start = trace_start;
  if (!o.encoding.empty()) ro.ingest.encoding = ParseEncodingName(o.encoding);
  ro.format = ToFormat(o.format);
  ro.progress = isatty(STDERR_FILENO) != 0;
  const IngestRunResult r = IngestAll(store->get(), o.files, ro, std::cout);
  if (r.succeeded == 0 && created && maps.empty()) {
    // Nothing was read into a store this command created: leave nothing behind.
    store->reset();
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(o.db + suffix, ec);
  }
  Status refreshed = RefreshStoredCorrections(store->get(), r);
  if (!refreshed.ok()) {
    PrintError("the files were read, but updating the store's stored corrections failed: " + refreshed.message() +
               " (`vrecon report --recompute --db " + o.db + "` rebuilds them)");
    return kExitFailure;
  }
  return r.failed == 0 ? kExitOk : kExitFailure;
}

}  // namespace vrecon::cli
