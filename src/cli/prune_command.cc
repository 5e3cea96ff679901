// `vrecon prune --db D --samples 35d --corrections 400d`: retention. Removes the samples and the
// stored corrections older than what is kept (src/store/retention.h); reports over the pruned
// range go on from the stored corrections and say so. See docs/storage.md "Retention".
#include <iostream>

#include "src/cli/command_options.h"
#include "src/cli/commands.h"
#include "src/engine/capacity_job.h"
#include "src/fleet/fleet_config.h"
#include "src/store/retention.h"

namespace vrecon::cli {
namespace {

// A --samples or --corrections value; usage error text when it is not a duration.
Status ParseKeep(const std::string& option, const std::string& text, std::optional<TimeNs>* out) {
  if (text.empty()) return Status::Ok();
  *out = fleet::ParseDuration(text);
  if (!*out) return Status::InvalidArgument(option + " \"" + text + "\" is not a duration to keep (35d, 12h, 400d)");
  return Status::Ok();
}

std::string Iso(const std::optional<TimeNs>& t) { return t ? FormatIso(*t, false) : ""; }

void WriteJson(const PruneArgs& o, const PruneRequest& req, const PruneResult& r) {
  std::cout << "{\"db\": " << JsonString(o.db) << ", \"dry_run\": " << (o.dry_run ? "true" : "false")
            << ", \"samples\": ";
  if (req.samples_before) {
    std::cout << "{\"before\": " << JsonString(Iso(req.samples_before)) << ", \"time_blocks\": " << r.time_blocks
              << ", \"rows\": " << r.sample_rows << ", \"partitions_dropped\": " << r.partitions_dropped << "}";
  } else {
    std::cout << "null";
  }
  std::cout << ", \"corrections\": ";
  if (req.corrections_before) {
    std::cout << "{\"before\": " << JsonString(Iso(req.corrections_before)) << ", \"windows\": " << r.windows
              << ", \"process_hours\": " << r.process_hours << "}";
  } else {
    std::cout << "null";
  }
  std::cout << "}\n";
}

void WriteCsv(const PruneRequest& req, const PruneResult& r) {
  std::cout << "what,before,time_blocks,rows,partitions_dropped,windows,process_hours\n";
  if (req.samples_before)
    std::cout << "samples," << Iso(req.samples_before) << "," << r.time_blocks << "," << r.sample_rows << ","
              << r.partitions_dropped << ",,\n";
  if (req.corrections_before)
    std::cout << "corrections," << Iso(req.corrections_before) << ",,,," << r.windows << "," << r.process_hours << "\n";
}

void WriteTable(const PruneArgs& o, const PruneRequest& req, const PruneResult& r) {
  const std::string verb = o.dry_run ? "would remove" : "removed";
  TextTable t({"what", "before", verb});
  if (req.samples_before) {
    std::string what = std::to_string(r.sample_rows) + " sample rows in " + std::to_string(r.time_blocks) + " blocks";
    if (r.partitions_dropped) what += " (" + std::to_string(r.partitions_dropped) + " monthly partitions whole)";
    t.AddRow({"samples", Iso(req.samples_before), what});
  }
  if (req.corrections_before) {
    t.AddRow({"corrections", Iso(req.corrections_before),
              std::to_string(r.windows) + " windows, " + std::to_string(r.process_hours) + " process hours"});
  }
  t.Print(std::cout);
}
}  // namespace

int RunPruneCommand(const PruneArgs& o) {
  PruneRequest req;
  std::optional<TimeNs> keep_samples, keep_corrections;
  Status usage = ParseKeep("--samples", o.samples, &keep_samples);
  if (usage.ok()) usage = ParseKeep("--corrections", o.corrections, &keep_corrections);
  if (usage.ok() && !keep_samples && !keep_corrections)
    usage = Status::InvalidArgument("say what to prune: --samples DURATION, --corrections DURATION or both");
  // Corrections are computed from samples: kept for less time, the next recompute would bring
  // them back.
  if (usage.ok() && keep_samples && keep_corrections && *keep_corrections < *keep_samples)
    usage = Status::InvalidArgument("--corrections " + o.corrections + " is shorter than --samples " + o.samples +
                                    ": stored corrections are computed from the samples, keep them at least as long");
  if (!usage.ok()) return FailUsage(usage);
  req.now = NowNs();
  req.dry_run = o.dry_run;
  if (keep_samples) req.samples_before = RetentionCutoff(req.now, *keep_samples);
  if (keep_corrections) req.corrections_before = RetentionCutoff(req.now, *keep_corrections);

  auto store = OpenExistingStore(o.db);
  if (store.ok() && (*store)->read_only_reason())
    store = Status::IOError("store " + o.db + " cannot be pruned: " + *(*store)->read_only_reason());
  if (!store.ok()) return Fail(store.status());
  // A collector may be writing: wait for its transaction rather than fail at once.
  if (Status s = (*store)->WaitForWritersUpTo(std::chrono::minutes(2)); !s.ok()) return Fail(s);
  // The capacity day digests take in the samples first: their days outlive the samples.
  if (req.samples_before && !req.dry_run) {
    if (Status s = RefreshCapacityDigests(store->get()); !s.ok()) return Fail(s);
  }
  auto r = Prune(store->get(), req);
  if (!r.ok()) return Fail(r.status());
  if (o.format == "json") WriteJson(o, req, *r);
  else if (o.format == "csv") WriteCsv(req, *r);
  else WriteTable(o, req, *r);
  return kExitOk;
}

}  // namespace vrecon::cli
