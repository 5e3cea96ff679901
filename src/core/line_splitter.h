// Splits text pushed in chunks of any size into lines. A line that spans chunks is kept until
// its end arrives; memory holds at most one line.
#ifndef VRECON_SRC_CORE_LINE_SPLITTER_H_
#define VRECON_SRC_CORE_LINE_SPLITTER_H_

#include <cstring>
#include <string>
#include <string_view>

#include "src/core/status.h"

namespace vrecon {

class LineSplitter {
 public:
  // A longer line ends the input with LineTooLong(): no log has one, and a line is held whole.
  static constexpr size_t kMaxLine = size_t{64} << 20;
  static Status LineTooLong() { return Status::ParseError("the line is longer than 64 MiB, which no log has"); }
  bool too_long() const { return too_long_; }

  // Calls on_line(line, transient) for every line completed by `text`, without its `sep`; with
  // sep '\n' a trailing '\r' (CRLF) is removed too. `transient` is true when the line's text
  // lives only during the call (it was assembled across chunks); otherwise it points into
  // `text`. Stops at the first non-OK status.
  template <typename OnLine>
  Status Feed(std::string_view text, char sep, OnLine&& on_line) {
    size_t pos = 0;
    while (pos < text.size()) {
      const char* nl = static_cast<const char*>(std::memchr(text.data() + pos, sep, text.size() - pos));
      if (nl == nullptr) {
        if (carry_.size() + (text.size() - pos) > kMaxLine) return TooLong();
        carry_.append(text.substr(pos));
        break;
      }
      std::string_view line(text.data() + pos, nl - (text.data() + pos));
      pos = nl - text.data() + 1;
      // Checked on whole lines too, so that the outcome does not depend on the chunking.
      if (carry_.size() + line.size() > kMaxLine) return TooLong();
      if (carry_.empty()) {
        RETURN_IF_ERROR(on_line(Chomp(line), false));
        continue;
      }
      carry_.append(line);
      std::string whole;
      whole.swap(carry_);
      RETURN_IF_ERROR(on_line(Chomp(whole), true));
    }
    return Status::Ok();
  }

  // The last line when the text did not end with a separator: passed to on_line, if any.
  template <typename OnLine>
  Status Finish(OnLine&& on_line) {
    if (carry_.empty()) return Status::Ok();
    std::string last;
    last.swap(carry_);
    return on_line(Chomp(last), true);
  }

 private:
  static std::string_view Chomp(std::string_view s) {
    if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
    return s;
  }
  Status TooLong() {
    too_long_ = true;
    return LineTooLong();
  }
  std::string carry_;
  bool too_long_ = false;
};

// A LineSplitter that first finds out whether lines end in LF (or CRLF) or in CR alone (files
// re-saved by old spreadsheet software, old Mac tools). Until a line end shows which, the text is
// held: split at the wrong separator, the first line would run into the next ones. It holds at
// most the first line; its lines reach on_line as transient (the held text goes away).
class AutoLineSplitter {
 public:
  template <typename OnLine>
  Status Feed(std::string_view text, OnLine&& on_line) {
    if (known_) return lines_.Feed(text, sep_, on_line);
    undecided_.append(text);
    const size_t cr = undecided_.find('\r');
    if (cr != std::string::npos && cr + 1 < undecided_.size()) {
      if (undecided_[cr + 1] != '\n' && undecided_.find('\n') > cr) sep_ = '\r';
    } else if (undecided_.find('\n') == std::string::npos) {
      // One more byte than a line may have, and a CR at its end that says nothing yet.
      if (undecided_.size() > LineSplitter::kMaxLine + 1) {
        too_long_ = true;
        return LineSplitter::LineTooLong();
      }
      return Status::Ok();
    }
    known_ = true;
    return FlushHeld(on_line);
  }

  // No line end at all, or a CR only at the very end: the held text is one line.
  template <typename OnLine>
  Status Finish(OnLine&& on_line) {
    if (!undecided_.empty()) RETURN_IF_ERROR(FlushHeld(on_line));
    return lines_.Finish(on_line);
  }

  bool cr_only() const { return sep_ == '\r'; }
  bool too_long() const { return too_long_ || lines_.too_long(); }

 private:
  template <typename OnLine>
  Status FlushHeld(OnLine& on_line) {
    std::string held;
    held.swap(undecided_);
    return lines_.Feed(held, sep_, [&](std::string_view line, bool) { return on_line(line, true); });
  }
  LineSplitter lines_;
  std::string undecided_;
  bool known_ = false;
  bool too_long_ = false;
  char sep_ = '\n';
};

// A reader's status with the file and line named when the splitter stopped at a line too long.
inline Status NameLongLine(Status s, bool too_long, const std::string& file, int64_t line) {
  if (s.ok() || !too_long) return s;
  return Status::ParseError(file + ":" + std::to_string(line) + ": " + s.message() + "; reading stopped");
}

}  // namespace vrecon

#endif  // VRECON_SRC_CORE_LINE_SPLITTER_H_
