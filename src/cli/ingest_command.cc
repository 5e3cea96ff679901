// `vrecon ingest FILE...`: logs and exports into the store; a store with stored corrections gets
// them recomputed over the new rows.
#include <unistd.h>

#include <iostream>

#include "src/cli/command_options.h"
#include "src/cli/commands.h"
#include "src/cli/ingest_runner.h"
#include "src/engine/refresh_corrections.h"
#include "src/store/staged_store.h"
#include "src/store/store.h"
#include "src/store/store_location.h"
#include "src/store/window_blocks.h"

namespace vrecon::cli {
namespace {

// A store holding stored corrections gets them recomputed over the new rows (the next `vrecon
// report` includes them); the user is told which span.
Status RefreshStoredCorrections(Store* store, const IngestRunResult& r) {
  if (!store || !r.first_new_end || !r.last_new_end) return Status::Ok();
  ASSIGN_OR_RETURN(std::optional<RefreshedSpan> span,
                   vrecon::RefreshStoredCorrections(store, *r.first_new_end, *r.last_new_end));
  if (!span) return Status::Ok();
  std::cerr << "vrecon: note: updated the stored corrections from " << FormatIso(span->from, false) << " to "
            << FormatIso(span->to, false) << " (" << span->windows << " windows) for the next `vrecon report`\n";
  return Status::Ok();
}

using Mappings = std::vector<std::pair<std::string, std::string>>;

Status ApplyMappings(Store* store, const Mappings& maps) {
  for (const auto& [g, v] : maps) RETURN_IF_ERROR(store->SetMapping(g, v));
  return Status::Ok();
}

struct Ingested {
  std::unique_ptr<Store> store;  // null when nothing was stored into a store that did not exist
  IngestRunResult run;
};

Ingested IntoExisting(std::unique_ptr<Store> store, const std::vector<std::string>& files, const IngestRunOptions& ro) {
  Ingested out;
  out.run = IngestAll(store.get(), files, ro);
  out.store = std::move(store);
  return out;
}

// A store that does not exist yet is built privately and published only when something was read
// into it, so that a run that reads nothing leaves nothing behind without removing a file another
// run may have opened meanwhile (docs/reliability.md, "Creating a store").
StatusOr<Ingested> IntoNewStore(const std::string& db, const Mappings& maps, const std::vector<std::string>& files,
                                const IngestRunOptions& ro) {
  ASSIGN_OR_RETURN(StagedStore staged, StagedStore::Begin(db));
  RETURN_IF_ERROR(ApplyMappings(staged.store(), maps));
  Ingested out;
  out.run = IngestAll(staged.store(), files, ro);
  if (out.run.succeeded == 0 && maps.empty()) return out;
  bool ours = false;
  ASSIGN_OR_RETURN(out.store, staged.Publish(&ours));
  if (ours) return out;
  // Another run published the store first: what this run read is only in its private copy, so
  // the files read are read again into the published store (those that failed stay failed).
  RETURN_IF_ERROR(ApplyMappings(out.store.get(), maps));
  std::vector<std::string> again;
  for (const IngestResult& f : out.run.files) again.push_back(f.path);
  const int failed_before = out.run.failed;
  out.run = IngestAll(out.store.get(), again, ro);
  out.run.failed += failed_before;
  return out;
}

StatusOr<Ingested> Ingest(const IngestArgs& o, const Mappings& maps, const IngestRunOptions& ro) {
  if (IsNewStoreFile(o.db)) return IntoNewStore(o.db, maps, o.files, ro);
  ASSIGN_OR_RETURN(std::unique_ptr<Store> store, Store::Open(o.db));
  RETURN_IF_ERROR(ApplyMappings(store.get(), maps));
  return IntoExisting(std::move(store), o.files, ro);
}

}  // namespace

int RunIngestCommand(const IngestArgs& o) {
  Mappings maps;
  for (const std::string& m : o.maps) {
    std::string g, v;
    Status s = ParseMapping(m, &g, &v);
    if (!s.ok()) return FailUsage(s);
    maps.emplace_back(g, v);
  }
  std::optional<TimeNs> date;
  if (!o.date.empty()) {
    date = ParseIso(o.date);
    if (!date || o.date.size() != 10) return FailUsage("--date \"" + o.date + "\" is not a date (YYYY-MM-DD)");
  }
  std::optional<TimeNs> trace_start;
  if (Status s = ParseTraceStartOption(o.trace_start, &trace_start); !s.ok()) return FailUsage(s);
  IngestRunOptions ro;
  ro.ingest.tz_bias_minutes = o.tz_bias;
  ro.ingest.date = date;
  ro.ingest.machine = o.machine;
  ro.ingest.trace_start = trace_start;
  if (!o.encoding.empty()) ro.ingest.encoding = ParseEncodingName(o.encoding);
  ro.progress = isatty(STDERR_FILENO) != 0;
  auto done = Ingest(o, maps, ro);
  if (!done.ok()) return Fail(done.status());
  PrintIngestResults(std::cout, ToFormat(o.format), done->run.files);
  Status refreshed = RefreshStoredCorrections(done->store.get(), done->run);
  if (!refreshed.ok())
    return Fail("the files were read, but updating the store's stored corrections failed: " + refreshed.message() +
                " (`vrecon report --recompute --db " + o.db + "` rebuilds them)");
  return done->run.failed == 0 ? kExitOk : kExitFailure;
}

}  // namespace vrecon::cli
