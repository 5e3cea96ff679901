// HTTPS POST over one reused libcurl connection: certificate verification on unless the user
// opted out, connect and total timeouts, gzip accepted, cookies kept for the SOAP session.
// Plain http:// only when the caller says the user allowed it (the password would travel in clear).
// A hostile or broken server gets bounded time and memory: the whole request must end within
// timeout_s, an answer that has begun must keep a minimum pace, and its decoded size is capped.
#ifndef VRECON_ADAPTERS_VSPHERE_HTTP_TRANSPORT_H_
#define VRECON_ADAPTERS_VSPHERE_HTTP_TRANSPORT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "src/core/status.h"

namespace vrecon::vsphere {

struct TransportOptions {
  std::string url;      // https://host/sdk
  std::string ca_file;  // extra trust anchor (a private CA); "" = system store
  bool insecure = false;
  bool allow_http = false;  // --allow-insecure-http / allow_insecure_http = true
  long connect_timeout_s = 10;
  long timeout_s = 120;  // the whole request, answer included (--timeout, the fleet's timeout)
  // The largest answer read, after gzip: real ones are tens of KB to a few MB (a QueryPerf batch
  // of 64 metrics x 16 samples is about 55 KB).
  int64_t max_answer_bytes = int64_t{64} << 20;
  // Once the answer's first byte came, fewer than this many bytes per second over a window of
  // min(30 s, timeout_s / 2) abandon it: a trickle meant to hold the connection open.
  int64_t min_bytes_per_s = 1024;
};

struct HttpResponse {
  long status = 0;
  std::string body;
};

struct TransportStats {
  uint64_t requests = 0, bytes_sent = 0, bytes_received = 0;
};

class HttpTransport {
 public:
  static StatusOr<std::unique_ptr<HttpTransport>> Create(const TransportOptions& options);
  ~HttpTransport();
  HttpTransport(const HttpTransport&) = delete;
  HttpTransport& operator=(const HttpTransport&) = delete;

  // POSTs a SOAP envelope. Transport failures (DNS, connect, TLS, timeout, a cut response) are
  // errors naming the URL; any HTTP status comes back as a response (a SOAP fault is a 500).
  StatusOr<HttpResponse> Post(std::string_view body);

  // The vmware_soap_session cookie as an opaque line (libcurl's Netscape format), to share a
  // session with other connections; never logged.
  std::string SessionCookie() const;
  void SetSessionCookie(const std::string& cookie);
  const TransportStats& stats() const { return stats_; }
  const std::string& url() const { return options_.url; }

 private:
  explicit HttpTransport(TransportOptions o) : options_(std::move(o)) {}
  TransportOptions options_;
  void* curl_ = nullptr;
  void* headers_ = nullptr;
  TransportStats stats_;
};

}  // namespace vrecon::vsphere

#endif  // VRECON_ADAPTERS_VSPHERE_HTTP_TRANSPORT_H_
