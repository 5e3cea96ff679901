#include "src/serve/metrics_server.h"

#include <httplib.h>
#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <iostream>
#include <memory>
#include <thread>

#include "src/serve/exposition.h"
#include "src/serve/metrics_snapshot.h"
#include "src/serve/metrics_text.h"
#include "src/store/store.h"

namespace vrecon::serve {
namespace {

StatusOr<std::string> Metrics(const ServerOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  ASSIGN_OR_RETURN(std::unique_ptr<Store> store, Store::OpenForReading(o.db));
  ASSIGN_OR_RETURN(const MetricsSnapshot snapshot, ReadMetricsSnapshot(store.get(), o.top));
  const double read_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::string body;
  RenderMetrics(snapshot, read_s, &body);
  return body;
}

void Route(httplib::Server* svr, const ServerOptions& o) {
  svr->Get("/metrics", [&o](const httplib::Request&, httplib::Response& res) {
    StatusOr<std::string> body = Metrics(o);
    if (!body.ok()) {
      std::cerr << "vrecon serve: /metrics: " << body.status().message() << std::endl;
      res.status = 503;
      res.set_content("the store cannot be read now; vrecon serve's log says why\n", "text/plain");
      return;
    }
    res.set_content(*std::move(body), std::string(kExpositionContentType));
  });
  // One line, no path or stack: the error handler runs for every 4xx/5xx without a body.
  svr->set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return;
    res.set_content(res.status == 404 ? "not found: vrecon serve answers /metrics\n" : "request refused\n",
                    "text/plain");
  });
  svr->set_exception_handler([](const httplib::Request&, httplib::Response& res, const std::exception_ptr&) {
    res.status = 500;
    res.set_content("internal error\n", "text/plain");
  });
}

// SIGINT and SIGTERM are blocked in every thread and taken here, so the server stops between
// requests rather than inside a handler.
class StopOnSignal {
 public:
  explicit StopOnSignal(httplib::Server* svr) {
    sigemptyset(&set_);
    sigaddset(&set_, SIGINT);
    sigaddset(&set_, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set_, &old_);
    waiter_ = std::thread([this, svr] {
      const timespec tick{0, 200'000'000};
      while (!done_.load()) {
        if (sigtimedwait(&set_, nullptr, &tick) > 0) {
          svr->stop();
          return;
        }
      }
    });
  }
  ~StopOnSignal() {
    done_.store(true);
    waiter_.join();
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  StopOnSignal(const StopOnSignal&) = delete;
  StopOnSignal& operator=(const StopOnSignal&) = delete;

 private:
  sigset_t set_{}, old_{};
  std::atomic<bool> done_{false};
  std::thread waiter_;
};

}  // namespace

Status RunServer(const ServerOptions& o, const std::function<void(int port)>& on_listening) {
  const bool tls = !o.tls_cert.empty();
  std::unique_ptr<httplib::Server> svr;
  if (tls) {
    svr = std::make_unique<httplib::SSLServer>(o.tls_cert.c_str(), o.tls_key.c_str());
    if (!svr->is_valid())
      return Status::InvalidArgument("cannot load the TLS certificate " + o.tls_cert + " with the key " + o.tls_key +
                                     " (PEM files the user vrecon runs as can read)");
  } else {
    svr = std::make_unique<httplib::Server>();
  }
  Route(svr.get(), o);
  // cpp-httplib's default also sets SO_REUSEPORT, which lets a second server bind the same port
  // and take half the scrapes: a port in use must be an error.
  svr->set_socket_options([](socket_t sock) {
    const int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  svr->set_read_timeout(10);
  svr->set_write_timeout(30);
  const int port = o.listen.port == 0 ? svr->bind_to_any_port(o.listen.host)
                                      : (svr->bind_to_port(o.listen.host, o.listen.port) ? o.listen.port : -1);
  if (port <= 0) {
    return Status::IOError("cannot listen on " + o.listen.host + ":" + std::to_string(o.listen.port) +
                           " (in use, or not an address of this machine)");
  }
  StopOnSignal stop(svr.get());
  on_listening(port);
  if (!svr->listen_after_bind()) return Status::IOError("the server on " + o.listen.host + " stopped unexpectedly");
  return Status::Ok();
}

}  // namespace vrecon::serve
