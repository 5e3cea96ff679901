// HTTPS POST over one reused libcurl connection: certificate verification on unless the user
// opted out, connect and total timeouts, gzip accepted, cookies kept for the SOAP session.
// Plain http:// only when the caller says the user allowed it (the password would travel in clear).
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
  long timeout_s = 120;
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
