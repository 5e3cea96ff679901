// `--listen HOST:PORT` for `vrecon serve`, and the rule for leaving loopback: a non-loopback
// address needs TLS or an explicit --insecure-listen (the endpoint shows the estate's VMs).
#ifndef VRECON_SRC_SERVE_LISTEN_ADDRESS_H_
#define VRECON_SRC_SERVE_LISTEN_ADDRESS_H_

#include <string>
#include <string_view>

#include "src/core/status.h"

namespace vrecon::serve {

struct ListenAddress {
  std::string host;  // as given, without IPv6 brackets
  int port = 0;      // 0: any free port (the server says which)
  bool loopback = false;
};

// "127.0.0.1:9477", "localhost:9477", "[::1]:9477", "0.0.0.0:9477". InvalidArgument naming the
// text when it is not HOST:PORT with a port in 0-65535.
StatusOr<ListenAddress> ParseListenAddress(std::string_view text);

// Ok on loopback, or with TLS, or when the user accepted plain HTTP (`insecure`).
Status CheckExposure(const ListenAddress& a, bool tls, bool insecure);

}  // namespace vrecon::serve

#endif  // VRECON_SRC_SERVE_LISTEN_ADDRESS_H_
