// The query of `vrecon serve`'s web pages and API: ?from=&to=&vm= (docs/serve.md).
#ifndef VRECON_SRC_SERVE_WEB_QUERY_H_
#define VRECON_SRC_SERVE_WEB_QUERY_H_

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "src/core/status.h"
#include "src/core/time_util.h"

namespace vrecon::serve {

inline constexpr TimeNs kDefaultWebRange = 24 * 3600 * kNsPerSec;

struct WebQuery {
  TimeNs from = 0, to = 0;
  std::optional<std::string> vm;  // a vm_key, or a VM name or glob
};

// A query parameter's value, if the request has it.
using ParamFn = std::function<std::optional<std::string>(std::string_view name)>;

// from and to are ISO 8601 (UTC unless an offset is given); to defaults to `now`, from to 24 hours
// before `to`. InvalidArgument, naming the parameter, for a time that does not parse or a range
// that is empty; the message is safe to send back.
StatusOr<WebQuery> ParseWebQuery(const ParamFn& param, TimeNs now);

// "?vm=...&from=...&to=..." for a page of one VM over the same range.
std::string VmPageLink(const WebQuery& q, std::string_view vm_key);

// Percent-encodes everything but unreserved characters (RFC 3986).
std::string UrlEncode(std::string_view s);

}  // namespace vrecon::serve

#endif  // VRECON_SRC_SERVE_WEB_QUERY_H_
