// For reader tests: ReaderOptions in one expression (designated initializers that leave fields
// out trip GCC's -Wmissing-field-initializers), and a text fed to a reader as a file reaches it.
#ifndef VRECON_TESTS_SUPPORT_READER_OPTIONS_H_
#define VRECON_TESTS_SUPPORT_READER_OPTIONS_H_

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "src/core/reader.h"

namespace vrecon::testing {

inline ReaderOptions Options(std::string file, std::optional<int> tz_bias_minutes = std::nullopt,
                             ResumeLookup resume_lookup = nullptr, std::string default_machine = "") {
  ReaderOptions o;
  o.file = std::move(file);
  o.tz_bias_minutes = tz_bias_minutes;
  o.resume_lookup = std::move(resume_lookup);
  o.default_machine = std::move(default_machine);
  return o;
}

// Feeds `text` to a streaming reader `chunk` bytes at a time, then finishes it: a file's bytes
// arrive in pieces of any size, and a reader must give the same answer for each.
template <typename R>
Status ReadInChunks(R& reader, std::string_view text, size_t chunk = 1 << 20) {
  for (size_t i = 0; i < text.size(); i += chunk) RETURN_IF_ERROR(reader.Parse(text.substr(i, chunk)));
  return reader.Finish();
}

}  // namespace vrecon::testing

#endif  // VRECON_TESTS_SUPPORT_READER_OPTIONS_H_
