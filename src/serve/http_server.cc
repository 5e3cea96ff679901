#include "src/serve/http_server.h"

#include <httplib.h>
#include <pthread.h>
#include <signal.h>

#include <chrono>
#include <iostream>
#include <memory>
#include <thread>

#include "src/serve/capacity_cache.h"
#include "src/serve/exposition.h"
#include "src/serve/metrics_snapshot.h"
#include "src/serve/metrics_text.h"
#include "src/serve/web_routes.h"
#include "src/store/store.h"

namespace vrecon::serve {
namespace {

StatusOr<std::string> Metrics(const ServerOptions& o, CapacityCache* capacity) {
  const auto t0 = std::chrono::steady_clock::now();
  ASSIGN_OR_RETURN(std::unique_ptr<Store> store, Store::OpenForReading(o.db));
  ASSIGN_OR_RETURN(MetricsSnapshot snapshot, ReadMetricsSnapshot(store.get(), o.top));
  // The capacity answers are an extra: when they cannot be computed the scrape goes on without
  // them (their families left out) and the log says why.
  if (StatusOr<std::shared_ptr<const std::vector<CapacityMetric>>> c = capacity->Get(store.get()); c.ok()) {
    snapshot.capacity = *std::move(c);
  } else {
    std::cerr << "vrecon serve: /metrics: the capacity answers: " << c.status().message() << std::endl;
  }
  snapshot.version = o.version;
  snapshot.commit = o.commit;
  const double read_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::string body;
  RenderMetrics(snapshot, read_s, &body);
  return body;
}

void Route(httplib::Server* svr, const ServerOptions& o) {
  auto capacity = std::make_shared<CapacityCache>(std::chrono::seconds(o.capacity_max_age_s));
  svr->Get("/metrics", [&o, capacity](const httplib::Request&, httplib::Response& res) {
    StatusOr<std::string> body = Metrics(o, capacity.get());
    if (!body.ok()) {
      std::cerr << "vrecon serve: /metrics: " << body.status().message() << std::endl;
      res.status = 503;
      res.set_content("the store cannot be read now; vrecon serve's log says why\n", "text/plain");
      return;
    }
    res.set_content(*std::move(body), std::string(kExpositionContentType));
  });
  if (o.auth) {
    svr->set_pre_routing_handler([&o](const httplib::Request& req, httplib::Response& res) {
      if (o.auth->Check(req.get_header_value("Authorization"))) return httplib::Server::HandlerResponse::Unhandled;
      res.status = 401;
      res.set_header("WWW-Authenticate", "Basic realm=\"vrecon\", charset=\"UTF-8\"");
      res.set_content("authentication required\n", "text/plain");
      return httplib::Server::HandlerResponse::Handled;
    });
  }
  AddWebRoutes(svr, o);
  // One line, no path or stack: the error handler runs for every 4xx/5xx without a body.
  svr->set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return;
    res.set_content(
        res.status == 404
            ? "not found: vrecon serve answers /, /capacity, /api/vms, /api/vms/{vm_key}/windows and /metrics\n"
            : "request refused\n",
        "text/plain");
  });
  svr->set_exception_handler([](const httplib::Request&, httplib::Response& res, const std::exception_ptr&) {
    res.status = 500;
    res.set_content("internal error\n", "text/plain");
  });
}

// Blocks SIGINT and SIGTERM in this thread and every thread it starts from now on, so that
// Wait() takes them rather than a handler inside a request.
class BlockStopSignals {
 public:
  BlockStopSignals() {
    sigemptyset(&set_);
    sigaddset(&set_, SIGINT);
    sigaddset(&set_, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set_, &old_);
  }
  ~BlockStopSignals() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  BlockStopSignals(const BlockStopSignals&) = delete;
  BlockStopSignals& operator=(const BlockStopSignals&) = delete;
  void Wait() const {
    int sig = 0;
    sigwait(&set_, &sig);
  }

 private:
  sigset_t set_{}, old_{};
};

StatusOr<std::unique_ptr<httplib::Server>> MakeServer(const ServerOptions& o) {
  std::unique_ptr<httplib::Server> svr;
  if (!o.tls_cert.empty()) {
    svr = std::make_unique<httplib::SSLServer>(o.tls_cert.c_str(), o.tls_key.c_str());
    if (!svr->is_valid())
      return Status::InvalidArgument("cannot load the TLS certificate " + o.tls_cert + " with the key " + o.tls_key +
                                     " (PEM files the user vrecon runs as can read)");
  } else {
    svr = std::make_unique<httplib::Server>();
  }
  // cpp-httplib's default also sets SO_REUSEPORT, which lets a second server bind the same port
  // and take half the scrapes: a port in use must be an error.
  svr->set_socket_options([](socket_t sock) {
    const int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  svr->set_read_timeout(10);
  svr->set_write_timeout(30);
  return svr;
}

}  // namespace

StatusOr<std::unique_ptr<HttpServer>> HttpServer::Start(const ServerOptions& o) {
  std::unique_ptr<HttpServer> m(new HttpServer(o));
  ASSIGN_OR_RETURN(m->svr_, MakeServer(o));
  Route(m->svr_.get(), m->options_);
  m->port_ = o.listen.port == 0 ? m->svr_->bind_to_any_port(o.listen.host)
                                : (m->svr_->bind_to_port(o.listen.host, o.listen.port) ? o.listen.port : -1);
  if (m->port_ <= 0) {
    return Status::IOError("cannot listen on " + o.listen.host + ":" + std::to_string(o.listen.port) +
                           " (in use, or not an address of this machine)");
  }
  m->thread_ = std::thread([svr = m->svr_.get()] { svr->listen_after_bind(); });
  return m;
}

HttpServer::HttpServer(ServerOptions o) : options_(std::move(o)) {}

HttpServer::~HttpServer() { Stop(); }

void HttpServer::Stop() {
  if (!thread_.joinable()) return;
  svr_->stop();
  thread_.join();
}

std::string HttpServer::url() const {
  const std::string& h = options_.listen.host;
  return std::string(options_.tls_cert.empty() ? "http" : "https") + "://" +
         (h.find(':') == std::string::npos ? h : "[" + h + "]") + ":" + std::to_string(port_) + "/metrics";
}

Status RunServer(const ServerOptions& o, const std::function<void(const std::string& url)>& on_listening) {
  const BlockStopSignals signals;
  ASSIGN_OR_RETURN(std::unique_ptr<HttpServer> server, HttpServer::Start(o));
  on_listening(server->url());
  signals.Wait();
  server->Stop();
  return Status::Ok();
}

}  // namespace vrecon::serve
