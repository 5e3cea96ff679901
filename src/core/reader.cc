#include "src/core/reader.h"

#include <algorithm>
#include <cstring>

namespace vrecon {

bool IssueCounter::Count(std::string_view code) {
  ++total_;
  auto it = per_code_.find(code);
  if (it == per_code_.end()) it = per_code_.emplace(std::string(code), 0).first;
  return ++it->second <= kDetailCap;
}

void IssueCounter::Clear() {
  per_code_.clear();
  total_ = 0;
}

void IssueCounter::ReportCapped(const std::string& file, SampleSink* sink) const {
  for (const auto& [code, n] : per_code_) {
    if (n <= kDetailCap) continue;
    sink->AddIssue(ImportIssue{
        file, 0, Severity::kInfo, code,
        std::to_string(n - kDetailCap) + " more '" + code + "' issues in this file are counted but not listed"});
  }
}

Status Reader::Parse(std::string_view chunk) {
  if (started_) return Feed(chunk);
  if (head_.empty() && chunk.size() >= kSniffBytes) {
    started_ = true;
    return Start(chunk);
  }
  head_.append(chunk);
  if (head_.size() < kSniffBytes) return Status::Ok();
  started_ = true;
  const std::string head = std::move(head_);
  head_.clear();
  return Start(head);
}

Status Reader::Finish() {
  if (!started_) {
    started_ = true;
    const std::string head = std::move(head_);
    head_.clear();
    RETURN_IF_ERROR(Start(head));
  }
  return End();
}

void Reader::RaiseIssue(int64_t line, Severity severity, const char* code, std::string message) {
  if (resume_.after_line > 0 && line <= resume_.after_line) return;
  if (!CountIssue(code)) return;
  sink_->AddIssue(ImportIssue{options_.file, line, severity, code, std::move(message)});
}

Status Reader::CheckTableShape(bool header_done, bool data_begun) const {
  if (summary_.lines == 0) return Status::ParseError(options_.file + " is empty");
  if (!header_done) return Status::ParseError(options_.file + " holds no header line");
  if (!data_begun)
    return Status::ParseError(options_.file + " has a header but no data rows (line " + std::to_string(summary_.lines) +
                              " is the last)");
  return Status::Ok();
}

Status Reader::CheckRowsRead(const std::string& first_problem) const {
  if (summary_.rows > 0 || summary_.rows_already > 0) return Status::Ok();
  const std::string why = first_problem.empty() ? "" : "; the first problem, " + first_problem;
  return Status::ParseError("none of the data rows of " + options_.file + " could be read" + why);
}

StatusOr<std::string_view> Reader::StartText(std::string_view head, std::string_view what) {
  Sniffed s = SniffEncoding(head);
  if (options_.encoding) s.encoding = *options_.encoding;
  summary_.encoding = s.encoding;
  utf16_ = Utf16Decoder(s.encoding == Encoding::kUtf16Be);
  if (IsBinaryHead(head, options_.encoding))
    return Status::NotSupported(options_.file + " is a binary file, not " + std::string(what));
  head.remove_prefix(std::min(head.size(), s.bom_length));
  return head;
}

std::string_view Reader::Decode(std::string_view chunk) {
  if (!IsUtf16(summary_.encoding)) return chunk;
  decoded_.clear();
  utf16_.Feed(chunk, &decoded_);
  return decoded_;
}

Status LineReader::Start(std::string_view head) {
  ASSIGN_OR_RETURN(std::string_view text, StartText(head, what_));
  return Feed(text);
}

Status LineReader::Feed(std::string_view chunk) {
  Status s = lines_.Feed(Decode(chunk), [this](std::string_view line, bool) { return OnLine(line); });
  return NameLongLine(std::move(s), lines_.too_long(), options_.file, summary_.lines + 1);
}

Status LineReader::End() {
  Status last = lines_.Finish([this](std::string_view line, bool) { return OnLine(line); });
  RETURN_IF_ERROR(NameLongLine(std::move(last), lines_.too_long(), options_.file, summary_.lines + 1));
  return EndLines();
}

}  // namespace vrecon
