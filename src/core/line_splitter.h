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
        carry_.append(text.substr(pos));
        break;
      }
      std::string_view line(text.data() + pos, nl - (text.data() + pos));
      pos = nl - text.data() + 1;
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
  std::string carry_;
};

}  // namespace vrecon

#endif  // VRECON_SRC_CORE_LINE_SPLITTER_H_
