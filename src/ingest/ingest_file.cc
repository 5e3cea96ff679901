#include "src/ingest/ingest_file.h"

#include <algorithm>
#include <filesystem>
#include <optional>

#include "adapters/linux_proc/sar_parser.h"
#include "adapters/powercli/powercli_file.h"
#include "src/core/text_util.h"
#include "src/store/block_writer.h"

namespace vrecon {
namespace {

// A PowerCLI summary in the shape the rest of ingest (and its output) uses.
perfmon::ParseSummary FromPowerCli(const powercli::ParseSummary& p) {
  perfmon::ParseSummary s;
  s.encoding = p.encoding;
  s.format.tsv = p.delimiter == '\t';
  s.bias_minutes = p.bias_minutes;
  s.columns = p.columns;
  s.fingerprint = p.fingerprint;
  s.lines = p.lines;
  s.consumed_lines = p.consumed_lines;
  s.consumed_line_hash = p.consumed_line_hash;
  s.rows = p.rows;
  s.rows_already = p.rows_already;
  s.issues = p.issues;
  s.first_end = p.first_end;
  s.last_end = p.last_end;
  return s;
}

}  // namespace

StatusOr<IngestResult> IngestFile(Store* store, const std::string& path, const IngestOptions& options) {
  ASSIGN_OR_RETURN(Transaction tx, store->BeginTransaction());
  BlockWriter writer(store);
  IngestResult result;
  result.path = path;
  Status lookup_status;
  perfmon::ResumePoint resume;

  // The reader is picked by the first bytes: a Get-Stat export's header names Value, Timestamp
  // and MetricId; anything else goes to the Perfmon reader, whose errors say what it expected.
  const std::string head = ReadHead(path, 8192);
  const bool powercli = powercli::LooksLikePowerCliExport(head);
  // sysstat `sar -u` text: a "Linux ... (host) date" header or "HH:MM:SS [AM|PM] all ..." rows.
  const bool sar_text = !powercli && sar::LooksLikeSar(head);
  const std::string format = powercli ? "powercli-csv" : sar_text ? "sar-text" : "perfmon-csv";
  auto resume_lookup = [&](uint64_t fingerprint) {
    FileRecord& rec = result.record;
    if (Status locked = store->SerializeWriters("file " + HexU64(fingerprint)); !locked.ok()) {
      lookup_status = locked;
      return perfmon::ResumePoint{};
    }
    auto found = store->FindFile(HexU64(fingerprint));
    if (!found.ok()) {
      lookup_status = found.status();
      return perfmon::ResumePoint{};
    }
    if (*found) {
      rec = **found;
      // Only this program writes the hash (HexU64). Anything else means the store was edited or
      // damaged: refuse the file rather than guess where to resume (re-reading from the start
      // would store its rows twice; resuming unchecked could skip changed lines silently).
      const std::optional<uint64_t> hash = ParseHexU64(rec.consumed_line_hash);
      if (!hash) {
        lookup_status = Status::ParseError("store " + store->location() + ": the resume point recorded for " + path +
                                           " has line hash \"" + rec.consumed_line_hash +
                                           "\", not a hexadecimal number; the store was edited or is damaged");
        return perfmon::ResumePoint{};
      }
      result.seen_before = true;
      resume.after_line = rec.consumed_lines;
      resume.line_hash = *hash;
    } else {
      rec.fingerprint = HexU64(fingerprint);
      rec.path = path;
      rec.format = format;
      rec.consumed_line_hash = HexU64(0);
      lookup_status = store->SaveFile(&rec);
    }
    writer.set_file_id(rec.id);
    return resume;
  };
  Status s;
  if (powercli) {
    powercli::ParserOptions po;
    po.file = path;
    po.tz_bias_minutes = options.tz_bias_minutes;
    po.resume_lookup = resume_lookup;
    powercli::ParseSummary ps;
    s = powercli::ReadPowerCliFile(path, std::move(po), &writer, &ps, options.progress);
    result.summary = FromPowerCli(ps);
  } else if (sar_text) {
    sar::ParserOptions so;
    so.file = path;
    so.default_machine = std::filesystem::path(path).stem().string();
    so.tz_bias_minutes = options.tz_bias_minutes;
    so.date = options.date;
    so.resume_lookup = resume_lookup;
    sar::SarParser parser(std::move(so), &writer);
    s = StreamFile(
        path, [&](std::string_view chunk) { return parser.Parse(chunk); }, options.progress);
    if (s.ok()) s = parser.Finish();
    result.summary = parser.summary();
  } else {
    perfmon::ParserOptions po;
    po.file = path;
    po.tz_bias_minutes = options.tz_bias_minutes;
    po.encoding = options.encoding;
    po.resume_lookup = resume_lookup;
    s = perfmon::ReadPerfmonFile(path, std::move(po), &writer, &result.summary, options.progress);
  }
  if (!lookup_status.ok()) return lookup_status;
  if (!s.ok()) return s;

  const perfmon::ParseSummary& sum = result.summary;
  int64_t issues = sum.issues;  // exact, while the stored details are capped per code
  if (result.seen_before && sum.lines < resume.after_line) {
    ++issues;
    writer.AddIssue(ImportIssue{path, 0, Severity::kWarning, "file-shrunk",
                                "the file has " + std::to_string(sum.lines) + " lines but an earlier ingest read " +
                                    std::to_string(resume.after_line) + "; nothing was read again"});
  }
  RETURN_IF_ERROR(writer.Finish());
  result.issues = writer.issues();

  for (const SeriesKey& k : sum.columns) {
    result.kinds.insert(std::string(SourceKindName(k.source)));
    result.machines.insert(k.machine);
  }
  FileRecord& rec = result.record;
  rec.path = path;
  rec.format = powercli || sar_text ? format : sum.format.tsv ? "perfmon-tsv" : "perfmon-csv";
  rec.encoding = std::string(perfmon::EncodingName(sum.encoding));
  rec.kinds = Join(result.kinds, ",");
  rec.machines = Join(result.machines, ",");
  rec.time_zone = sum.format.time_zone;
  rec.bias_minutes = sum.bias_minutes;
  if (sum.consumed_lines > rec.consumed_lines) {
    rec.consumed_lines = sum.consumed_lines;
    rec.consumed_line_hash = HexU64(sum.consumed_line_hash);
  }
  rec.rows += sum.rows;
  rec.issues += issues;
  if (sum.first_end && (!rec.first_end || *sum.first_end < *rec.first_end)) rec.first_end = sum.first_end;
  if (sum.last_end && (!rec.last_end || *sum.last_end > *rec.last_end)) rec.last_end = sum.last_end;
  RETURN_IF_ERROR(store->SaveFile(&rec));
  RETURN_IF_ERROR(tx.Commit());
  return result;
}

}  // namespace vrecon
