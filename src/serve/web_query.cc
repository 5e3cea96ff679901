#include "src/serve/web_query.h"

namespace vrecon::serve {
namespace {

Status ParseTime(std::string_view name, const std::optional<std::string>& text, std::optional<TimeNs>* out) {
  if (!text || text->empty()) return Status::Ok();
  *out = ParseIso(*text);
  if (!*out) {
    return Status::InvalidArgument(std::string(name) + "=" + UrlEncode(*text) +
                                   " is not an ISO 8601 time (e.g. 2026-11-02T10:00:00Z)");
  }
  return Status::Ok();
}

}  // namespace

StatusOr<WebQuery> ParseWebQuery(const ParamFn& param, TimeNs now) {
  std::optional<TimeNs> from, to;
  RETURN_IF_ERROR(ParseTime("from", param("from"), &from));
  RETURN_IF_ERROR(ParseTime("to", param("to"), &to));
  WebQuery q;
  q.to = to.value_or(now);
  q.from = from.value_or(q.to - kDefaultWebRange);
  if (q.to <= q.from) return Status::InvalidArgument("to is not after from: the range is empty");
  if (std::optional<std::string> vm = param("vm"); vm && !vm->empty()) q.vm = *vm;
  return q;
}

std::string VmPageLink(const WebQuery& q, std::string_view vm_key) {
  return "?vm=" + UrlEncode(vm_key) + "&from=" + UrlEncode(FormatIso(q.from, false)) +
         "&to=" + UrlEncode(FormatIso(q.to, false));
}

std::string UrlEncode(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if ((u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') || (u >= '0' && u <= '9') || c == '-' || c == '_' ||
        c == '.' || c == '~') {
      out.push_back(c);
    } else {
      out.push_back('%');
      out.push_back(kHex[u >> 4]);
      out.push_back(kHex[u & 15]);
    }
  }
  return out;
}

}  // namespace vrecon::serve
