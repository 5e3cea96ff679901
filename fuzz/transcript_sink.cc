#include "fuzz/transcript_sink.h"

#include <bit>
#include <cmath>
#include <cstdint>

#include "fuzz/fuzz_check.h"
#include "src/core/text_decode.h"
#include "src/core/text_util.h"

namespace vrecon::fuzz {
namespace {

// splitmix64's finalizer: every input bit moves about half of the output's.
uint64_t Mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

void Field(std::string_view s, std::string* out) {
  out->append(std::to_string(s.size())).push_back(':');
  out->append(s);
}

}  // namespace

void AppendKey(const SeriesKey& k, std::string* out) {
  Field(SourceKindName(k.source), out);
  for (const std::string* s : {&k.machine, &k.object, &k.instance, &k.counter, &k.unit, &k.original, &k.entity})
    Field(*s, out);
}

void AppendStatus(const Status& s, std::string* out) {
  out->append("S").append(std::to_string(static_cast<int>(s.code())));
  Field(s.message(), out);
  out->push_back('\n');
}

void AppendSummary(const ReadSummary& s, std::string* out) {
  out->append("summary ").append(EncodingName(s.encoding)).append(" ").append(s.format).append(" ");
  Field(s.time_zone, out);
  for (int64_t v : {static_cast<int64_t>(s.bias_minutes), s.lines, s.consumed_lines, s.rows, s.rows_already, s.issues,
                    s.first_end.value_or(-1), s.last_end.value_or(-1)})
    out->append(" ").append(std::to_string(v));
  out->append(" ").append(HexU64(s.fingerprint)).append(" ").append(HexU64(s.consumed_line_hash)).push_back('\n');
  for (const SeriesKey& k : s.columns) AppendKey(k, out);
  out->push_back('\n');
}

std::string& TranscriptSink::Text() {
  FlushRows();
  return text_;
}

void TranscriptSink::Hash(uint64_t word) {
  h1_ = Mix(h1_ + word + 0x9e3779b97f4a7c15ULL);
  h2_ = Mix(h2_ ^ (word * 0xff51afd7ed558ccdULL + 0x2545f4914f6cdd1dULL));
}

void TranscriptSink::FlushRows() {
  if (rows_ == 0) return;
  text_.append("R*").append(std::to_string(rows_)).append(" ").append(HexU64(h1_)).append(HexU64(h2_)).push_back('\n');
  rows_ = h1_ = h2_ = 0;
}

Status TranscriptSink::DeclareColumns(const std::vector<SeriesKey>& cols) {
  FlushRows();
  text_.append("D");
  for (const SeriesKey& k : cols) AppendKey(k, &text_);
  text_.push_back('\n');
  declared = cols.size();
  columns = cols;
  return Status::Ok();
}

Status TranscriptSink::AddRow(TimeNs start, TimeNs end, std::span<const double> values) {
  // Contract of SampleSink: one value per declared column, and a row never ends before it starts.
  FUZZ_CHECK(values.size() == declared, "a row has one value per declared column");
  FUZZ_CHECK(start <= end, "a row's interval does not end before it starts");
  for (double v : values) {
    // A value is a finite number or kMissing (a quiet NaN); an infinity is neither.
    FUZZ_CHECK(!std::isinf(v), "a stored value is finite or missing");
  }
  if (verbose_) {
    text_.append("R").append(std::to_string(start)).append(" ").append(std::to_string(end));
    for (double v : values) text_.append(" ").append(HexU64(std::bit_cast<uint64_t>(v)));  // NaN payloads too
    text_.push_back('\n');
    return Status::Ok();
  }
  ++rows_;
  Hash(static_cast<uint64_t>(start));
  Hash(static_cast<uint64_t>(end));
  Hash(values.size());
  for (double v : values) Hash(std::bit_cast<uint64_t>(v));
  return Status::Ok();
}

void TranscriptSink::AddIssue(ImportIssue i) {
  FlushRows();
  text_.append("I").append(std::to_string(i.line)).append(" ").append(SeverityName(i.severity));
  Field(i.file, &text_);
  Field(i.code, &text_);
  Field(i.message, &text_);
  text_.push_back('\n');
}

void TranscriptSink::AddClockEvent(ClockRecord e) {
  FlushRows();
  text_.append("C").append(e.kind).append(" ").append(std::to_string(e.before)).append(" ");
  text_.append(std::to_string(e.after)).append(" ").append(std::to_string(e.line));
  Field(e.file, &text_);
  text_.push_back('\n');
}

std::string ReadThrough(Reader* reader, const std::vector<std::string_view>& chunks, TranscriptSink* sink) {
  Status s;
  for (std::string_view c : chunks) {
    s = reader->Parse(c);
    if (!s.ok()) break;
  }
  if (s.ok()) s = reader->Finish();
  AppendStatus(s, &sink->Text());
  AppendSummary(reader->summary(), &sink->Text());
  return sink->Text();
}

}  // namespace vrecon::fuzz
