#include "adapters/powercli/powercli_file.h"

namespace vrecon::powercli {

Status ReadPowerCliFile(const std::string& path, ParserOptions options, SampleSink* sink, ParseSummary* summary,
                        const ProgressFn& progress) {
  if (options.file.empty()) options.file = path;
  PowerCliParser parser(std::move(options), sink);
  RETURN_IF_ERROR(StreamFile(
      path, [&](std::string_view chunk) { return parser.Parse(chunk); }, progress));
  Status s = parser.Finish();
  *summary = parser.summary();
  return s;
}

}  // namespace vrecon::powercli
