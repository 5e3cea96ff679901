// `vrecon serve`'s HTTP side (cpp-httplib, docs/serve.md says why): GET /metrics renders the
// store's latest complete windows in Prometheus' format; anything else is 404. Each scrape opens
// the store for reading on its own, so a collector writing the store meanwhile is never held up
// for longer than one snapshot read.
#ifndef VRECON_SRC_SERVE_METRICS_SERVER_H_
#define VRECON_SRC_SERVE_METRICS_SERVER_H_

#include <functional>
#include <string>

#include "src/core/status.h"
#include "src/serve/listen_address.h"

namespace vrecon::serve {

struct ServerOptions {
  std::string db;  // a SQLite path or a postgresql:// URI
  ListenAddress listen;
  int top = 10;                   // processes exported per VM
  std::string tls_cert, tls_key;  // PEM files; both or neither
};

// Serves until SIGINT or SIGTERM. `on_listening` gets the port once it is bound (useful when
// the port asked for was 0). An address that cannot be bound, or TLS files that cannot be loaded,
// is an error naming them.
Status RunServer(const ServerOptions& o, const std::function<void(int port)>& on_listening);

}  // namespace vrecon::serve

#endif  // VRECON_SRC_SERVE_METRICS_SERVER_H_
