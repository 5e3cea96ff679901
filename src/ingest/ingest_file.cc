#include "src/ingest/ingest_file.h"

#include <algorithm>
#include <optional>

#include "src/core/text_util.h"
#include "src/ingest/readers.h"
#include "src/store/block_writer.h"

namespace vrecon {

StatusOr<IngestResult> IngestFile(Store* store, const std::string& path, const IngestOptions& options) {
  const FormatGuess guess = GuessFormat(ReadHead(path, kSniffBytes));
  if (!guess.reader) return Status::NotSupported(path + guess.refusal);
  const ReaderFormat& format = *guess.reader;
  ASSIGN_OR_RETURN(Transaction tx, store->BeginTransaction());
  BlockWriter writer(store);
  IngestResult result;
  result.path = path;
  Status lookup_status;
  ResumePoint resume;
  auto resume_lookup = [&](uint64_t fingerprint) {
    FileRecord& rec = result.record;
    if (Status locked = store->SerializeWriters("file " + HexU64(fingerprint)); !locked.ok()) {
      lookup_status = locked;
      return ResumePoint{};
    }
    auto found = store->FindFile(HexU64(fingerprint));
    if (!found.ok()) {
      lookup_status = found.status();
      return ResumePoint{};
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
        return ResumePoint{};
      }
      result.seen_before = true;
      resume.after_line = rec.consumed_lines;
      resume.line_hash = *hash;
    } else {
      rec.fingerprint = HexU64(fingerprint);
      rec.path = path;
      rec.format = std::string(format.name);
      rec.consumed_line_hash = HexU64(0);
      lookup_status = store->SaveFile(&rec);
    }
    writer.set_file_id(rec.id);
    return resume;
  };
  ReaderOptions ro;
  ro.file = path;
  ro.tz_bias_minutes = options.tz_bias_minutes;
  ro.encoding = options.encoding;
  ro.date = options.date;
  ro.default_machine = options.machine;
  ro.trace_start = options.trace_start;
  ro.resume_lookup = resume_lookup;
  std::unique_ptr<Reader> reader = format.make(std::move(ro), &writer);
  const Status s = ReadFileWith(path, reader.get(), options.progress);
  result.summary = reader->summary();
  if (!lookup_status.ok()) return lookup_status;
  if (!s.ok()) return s;

  const ReadSummary& sum = result.summary;
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
  rec.format = sum.format;
  rec.encoding = std::string(EncodingName(sum.encoding));
  rec.kinds = Join(result.kinds, ",");
  rec.machines = Join(result.machines, ",");
  rec.time_zone = sum.time_zone;
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
