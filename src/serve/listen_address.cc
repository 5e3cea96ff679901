#include "src/serve/listen_address.h"

#include <arpa/inet.h>

#include <charconv>

namespace vrecon::serve {
namespace {

bool IsLoopback(const std::string& host) {
  if (host == "localhost") return true;
  in_addr v4{};
  if (inet_pton(AF_INET, host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (inet_pton(AF_INET6, host.c_str(), &v6) == 1) return IN6_IS_ADDR_LOOPBACK(&v6);
  return false;
}

}  // namespace

StatusOr<ListenAddress> ParseListenAddress(std::string_view text) {
  const auto bad = [&](const std::string& why) {
    return Status::InvalidArgument("--listen \"" + std::string(text) + "\": " + why);
  };
  const size_t colon = text.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return bad("expected HOST:PORT, e.g. 127.0.0.1:9477");
  std::string_view host = text.substr(0, colon);
  const std::string_view port = text.substr(colon + 1);
  if (host.front() == '[') {
    if (host.size() < 3 || host.back() != ']') return bad("an IPv6 address is written [ADDR]:PORT");
    host = host.substr(1, host.size() - 2);
  } else if (host.find(':') != std::string_view::npos) {
    return bad("an IPv6 address is written [ADDR]:PORT");
  }
  ListenAddress a;
  a.host = std::string(host);
  const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), a.port);
  if (port.empty() || ec != std::errc() || end != port.data() + port.size() || a.port < 0 || a.port > 65535)
    return bad("the port must be a number from 0 to 65535");
  a.loopback = IsLoopback(a.host);
  return a;
}

Status CheckExposure(const ListenAddress& a, bool tls, bool insecure) {
  if (a.loopback || tls || insecure) return Status::Ok();
  return Status::InvalidArgument("--listen " + a.host + ":" + std::to_string(a.port) +
                                 " is not a loopback address: give --tls-cert and --tls-key, or "
                                 "--insecure-listen to serve plain HTTP beyond this machine");
}

}  // namespace vrecon::serve
