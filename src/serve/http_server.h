// `vrecon serve`'s HTTP server (cpp-httplib, docs/serve.md says why): GET /metrics renders the
// store's latest complete windows in Prometheus' format; the web view (web_routes.h) adds `/` and
// the JSON under `/api/vms`; any other path is a 404. Each request opens the store for reading on
// its own, so a collector writing the store meanwhile is never held up for longer than one
// snapshot read. `vrecon collect --listen` runs the same server beside its rounds.
#ifndef VRECON_SRC_SERVE_HTTP_SERVER_H_
#define VRECON_SRC_SERVE_HTTP_SERVER_H_

#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "src/core/status.h"
#include "src/serve/basic_auth.h"
#include "src/serve/listen_address.h"

namespace httplib {
class Server;
}

namespace vrecon::serve {

struct ServerOptions {
  std::string db;  // a SQLite path or a postgresql:// URI
  ListenAddress listen;
  int top = 10;                          // processes exported per VM
  std::string tls_cert, tls_key;         // PEM files; both or neither
  std::string version, commit;           // vrecon_build_info's labels
  std::shared_ptr<const AuthFile> auth;  // set: every request needs basic auth of one of its users
  int capacity_max_age_s = 900;          // /metrics' capacity answers are recomputed at most this often
};

// The server on a thread of its own (and cpp-httplib's workers) from Start until Stop or
// destruction.
class HttpServer {
 public:
  // Binds and starts serving. An address that cannot be bound, or TLS files that cannot be
  // loaded, is an error naming them.
  static StatusOr<std::unique_ptr<HttpServer>> Start(const ServerOptions& o);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  int port() const { return port_; }
  // "http://127.0.0.1:9477/metrics" (the port actually bound).
  std::string url() const;
  // Stops accepting, lets the requests in flight finish, joins the thread.
  void Stop();

 private:
  explicit HttpServer(ServerOptions o);
  ServerOptions options_;
  std::unique_ptr<httplib::Server> svr_;
  std::thread thread_;
  int port_ = 0;
};

// `vrecon serve`: starts the server, calls `on_listening` with its URL, serves until SIGINT or
// SIGTERM.
Status RunServer(const ServerOptions& o, const std::function<void(const std::string& url)>& on_listening);

}  // namespace vrecon::serve

#endif  // VRECON_SRC_SERVE_HTTP_SERVER_H_
