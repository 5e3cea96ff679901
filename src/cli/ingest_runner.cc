#include "src/cli/ingest_runner.h"

#include <iostream>

#include "src/cli/commands.h"
#include "src/core/text_util.h"

namespace vrecon::cli {
namespace {

std::string Span(const ReadSummary& s, bool millis) { return s.first_end ? FormatIso(*s.first_end, millis) : ""; }
std::string SpanEnd(const ReadSummary& s, bool millis) { return s.last_end ? FormatIso(*s.last_end, millis) : ""; }

void PrintJson(std::ostream& out, const std::vector<IngestResult>& results) {
  out << "{\"files\": [";
  for (size_t i = 0; i < results.size(); ++i) {
    const IngestResult& r = results[i];
    const auto& s = r.summary;
    out << (i ? ",\n  " : "\n  ") << "{\"path\": " << JsonString(r.path) << ", \"kinds\": [";
    size_t j = 0;
    for (const auto& k : r.kinds) out << (j++ ? ", " : "") << JsonString(k);
    out << "], \"machines\": [";
    j = 0;
    for (const auto& m : r.machines) out << (j++ ? ", " : "") << JsonString(m);
    out << "], \"encoding\": " << JsonString(EncodingName(s.encoding)) << ", \"counters\": " << s.columns.size()
        << ", \"rows\": " << s.rows << ", \"rows_already_stored\": " << s.rows_already
        << ", \"start\": " << (s.first_end ? JsonString(Span(s, true)) : "null")
        << ", \"end\": " << (s.last_end ? JsonString(SpanEnd(s, true)) : "null") << ", \"issues\": " << s.issues
        << ", \"issue_list\": [";
    for (size_t k = 0; k < r.issues.size(); ++k) {
      const ImportIssue& is = r.issues[k];
      out << (k ? ", " : "") << "{\"line\": " << is.line << ", \"severity\": " << JsonString(SeverityName(is.severity))
          << ", \"code\": " << JsonString(is.code) << ", \"message\": " << JsonString(is.message) << "}";
    }
    out << "]}";
  }
  out << (results.empty() ? "]}\n" : "\n]}\n");
}

void PrintCsv(std::ostream& out, const std::vector<IngestResult>& results) {
  out << "path,kinds,machines,counters,rows,rows_already_stored,start,end,issues\n";
  for (const IngestResult& r : results) {
    const auto& s = r.summary;
    out << CsvCell(r.path) << "," << CsvCell(Join(r.kinds, ";")) << "," << CsvCell(Join(r.machines, ";")) << ","
        << s.columns.size() << "," << s.rows << "," << s.rows_already << "," << Span(s, true) << "," << SpanEnd(s, true)
        << "," << s.issues << "\n";
  }
}

void PrintTable(std::ostream& out, const std::vector<IngestResult>& results) {
  TextTable t({"file", "source", "machines", "counters", "rows", "from (UTC)", "to (UTC)", "issues"});
  for (const IngestResult& r : results) {
    const auto& s = r.summary;
    std::string rows = std::to_string(s.rows);
    if (s.rows_already > 0) rows += " new (" + std::to_string(s.rows_already) + " already stored)";
    t.AddRow({r.path, Join(r.kinds, ","), Join(r.machines, ","), std::to_string(s.columns.size()), rows, Span(s, false),
              SpanEnd(s, false), std::to_string(s.issues)});
  }
  t.Print(out);
  for (const IngestResult& r : results) {
    constexpr size_t kShown = 10;
    for (size_t i = 0; i < r.issues.size() && i < kShown; ++i) {
      const ImportIssue& is = r.issues[i];
      out << "  " << is.file;
      if (is.line > 0) out << ":" << is.line;
      out << ": " << SeverityName(is.severity) << " " << is.code << ": " << is.message << "\n";
    }
    if (r.issues.size() > kShown)
      out << "  ... " << r.summary.issues - static_cast<int64_t>(kShown) << " more issues in " << r.path
          << " (--format json lists them; they are in the store's import_issue table)\n";
  }
}

}  // namespace

std::optional<Encoding> ParseEncodingName(const std::string& name) {
  for (auto e : {Encoding::kUtf8, Encoding::kUtf16Le, Encoding::kUtf16Be, Encoding::kCp1251, Encoding::kCp1252})
    if (EncodingName(e) == name) return e;
  return std::nullopt;
}

Status ParseTraceStartOption(const std::string& text, std::optional<TimeNs>* out) {
  if (text.empty()) return Status::Ok();
  *out = ParseIso(text);
  const bool zoned = text.back() == 'Z' || text.find_last_of("+-") > 10;
  if (*out && zoned) return Status::Ok();
  return Status::InvalidArgument(
      "--trace-start \"" + text +
      "\" is not an ISO 8601 time with its offset (2026-11-02T10:00:00+01:00, or Z for UTC)");
}

IngestRunResult IngestAll(Store* store, const std::vector<std::string>& files, const IngestRunOptions& options) {
  IngestRunResult result;
  for (const std::string& path : files) {
    IngestOptions io = options.ingest;
    int last_pct = -1;
    if (options.progress) {
      io.progress = [&](uint64_t d, uint64_t total) {
        const int pct = total ? static_cast<int>(100 * d / total) : 0;
        if (pct == last_pct) return;
        last_pct = pct;
        std::cerr << "\rreading " << path << "  " << pct << "%" << std::flush;
      };
    }
    auto r = IngestFile(store, path, io);
    if (options.progress && last_pct >= 0) std::cerr << "\r\033[K" << std::flush;
    if (!r.ok()) {
      PrintError(r.status().message());
      ++result.failed;
      continue;
    }
    ++result.succeeded;
    const ReadSummary& sum = r->summary;
    if (sum.rows > 0 && sum.first_end && sum.last_end) {
      result.new_rows += sum.rows;
      if (!result.first_new_end || *sum.first_end < *result.first_new_end) result.first_new_end = sum.first_end;
      if (!result.last_new_end || *sum.last_end > *result.last_new_end) result.last_new_end = sum.last_end;
    }
    result.files.push_back(std::move(r).value());
  }
  return result;
}

void PrintIngestResults(std::ostream& out, OutputFormat format, const std::vector<IngestResult>& files) {
  switch (format) {
    case OutputFormat::kJson: PrintJson(out, files); break;
    case OutputFormat::kCsv: PrintCsv(out, files); break;
    case OutputFormat::kTable:
      if (!files.empty()) PrintTable(out, files);
      break;
  }
}

}  // namespace vrecon::cli
