#include "src/ingest/ingest_file.h"

#include <algorithm>
#include <optional>

#include "src/core/text_util.h"
#include "src/ingest/readers.h"
#include "src/store/block_writer.h"

namespace vrecon {

namespace {

// The reader's resume lookup: the file's record by its fingerprint, found (where an earlier ingest
// stopped) or created, and the writer's rows then belong to it. A store error is kept for after
// the read.
class FileLookup {
 public:
  FileLookup(Store* store, const std::string& path, std::string_view format, BlockWriter* writer, IngestResult* result)
      : store_(store), path_(path), format_(format), writer_(writer), result_(result) {}
  ResumePoint Find(uint64_t fingerprint);
  const Status& status() const { return status_; }
  const ResumePoint& resume() const { return resume_; }

 private:
  Store* store_;
  const std::string& path_;
  std::string_view format_;
  BlockWriter* writer_;
  IngestResult* result_;
  Status status_;
  ResumePoint resume_;
};

ResumePoint FileLookup::Find(uint64_t fingerprint) {
  FileRecord& rec = result_->record;
  if (Status locked = store_->SerializeWriters("file " + HexU64(fingerprint)); !locked.ok()) {
    status_ = locked;
    return ResumePoint{};
  }
  auto found = store_->FindFile(HexU64(fingerprint));
  if (!found.ok()) {
    status_ = found.status();
    return ResumePoint{};
  }
  if (*found) {
    rec = **found;
    // Only this program writes the hash (HexU64). Anything else means the store was edited or
    // damaged: refuse the file rather than guess where to resume (re-reading from the start
    // would store its rows twice; resuming unchecked could skip changed lines silently).
    const std::optional<uint64_t> hash = ParseHexU64(rec.consumed_line_hash);
    if (!hash) {
      status_ = Status::ParseError("store " + store_->location() + ": the resume point recorded for " + path_ +
                                   " has line hash \"" + rec.consumed_line_hash +
                                   "\", not a hexadecimal number; the store was edited or is damaged");
      return ResumePoint{};
    }
    result_->seen_before = true;
    resume_.after_line = rec.consumed_lines;
    resume_.line_hash = *hash;
  } else {
    rec.fingerprint = HexU64(fingerprint);
    rec.path = path_;
    rec.format = std::string(format_);
    rec.consumed_line_hash = HexU64(0);
    status_ = store_->SaveFile(&rec);
  }
  writer_->set_file_id(rec.id);
  return resume_;
}

ReaderOptions ReaderOptionsFor(const std::string& path, const IngestOptions& options, FileLookup* lookup) {
  ReaderOptions ro;
  ro.file = path;
  ro.tz_bias_minutes = options.tz_bias_minutes;
  ro.encoding = options.encoding;
  ro.date = options.date;
  ro.default_machine = options.machine;
  ro.trace_start = options.trace_start;
  ro.resume_lookup = [lookup](uint64_t fingerprint) { return lookup->Find(fingerprint); };
  return ro;
}

// The file's record after this read: what it is, and how far it has now been read.
void RecordRead(const std::string& path, const ReadSummary& sum, int64_t issues, IngestResult* result) {
  for (const SeriesKey& k : sum.columns) {
    result->kinds.insert(std::string(SourceKindName(k.source)));
    result->machines.insert(k.machine);
  }
  FileRecord& rec = result->record;
  rec.path = path;
  rec.format = sum.format;
  rec.encoding = std::string(EncodingName(sum.encoding));
  rec.kinds = Join(result->kinds, ",");
  rec.machines = Join(result->machines, ",");
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
}

}  // namespace

StatusOr<IngestResult> IngestFile(Store* store, const std::string& path, const IngestOptions& options) {
  const FormatGuess guess = GuessFormat(ReadHead(path, kSniffBytes));
  if (!guess.reader) return Status::NotSupported(path + guess.refusal);
  const ReaderFormat& format = *guess.reader;
  ASSIGN_OR_RETURN(Transaction tx, store->BeginTransaction());
  BlockWriter writer(store);
  IngestResult result;
  result.path = path;
  FileLookup lookup(store, path, format.name, &writer, &result);
  std::unique_ptr<Reader> reader = format.make(ReaderOptionsFor(path, options, &lookup), &writer);
  const Status s = ReadFileWith(path, reader.get(), options.progress);
  result.summary = reader->summary();
  if (!lookup.status().ok()) return lookup.status();
  if (!s.ok()) return s;

  const ReadSummary& sum = result.summary;
  int64_t issues = sum.issues;  // exact, while the stored details are capped per code
  if (result.seen_before && sum.lines < lookup.resume().after_line) {
    ++issues;
    writer.AddIssue(ImportIssue{path, 0, Severity::kWarning, "file-shrunk",
                                "the file has " + std::to_string(sum.lines) + " lines but an earlier ingest read " +
                                    std::to_string(lookup.resume().after_line) + "; nothing was read again"});
  }
  RETURN_IF_ERROR(writer.Finish());
  result.issues = writer.issues();
  RecordRead(path, sum, issues, &result);
  RETURN_IF_ERROR(store->SaveFile(&result.record));
  RETURN_IF_ERROR(tx.Commit());
  return result;
}

}  // namespace vrecon
