#include "adapters/vsphere/http_transport.h"

#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <mutex>

#include "src/core/text_util.h"

namespace vrecon::vsphere {
namespace {

// Where one answer goes, and why it was cut short, if it was.
struct Reading {
  std::string* body = nullptr;
  int64_t max_bytes = 0;
  bool too_big = false;
  // The pace check: a window starts at the first byte of the answer.
  int64_t min_bytes_per_s = 0;
  long window_s = 30;
  std::chrono::steady_clock::time_point window_start{};
  int64_t window_bytes = -1;  // bytes received when the window began; -1 before the first byte
  bool too_slow = false;
};

size_t Append(char* data, size_t size, size_t n, void* user) {
  auto* r = static_cast<Reading*>(user);
  // Stop before the string grows past the cap: libcurl ends the transfer on a short count.
  if (static_cast<int64_t>(r->body->size() + size * n) > r->max_bytes) {
    r->too_big = true;
    return 0;
  }
  r->body->append(data, size * n);
  return size * n;
}

int CheckPace(void* user, curl_off_t, curl_off_t down, curl_off_t, curl_off_t) {
  auto* r = static_cast<Reading*>(user);
  if (down <= 0) return 0;  // still waiting for the answer: only the whole-request timeout applies
  const auto now = std::chrono::steady_clock::now();
  if (r->window_bytes < 0) {
    r->window_start = now;
    r->window_bytes = down;
    return 0;
  }
  if (now - r->window_start < std::chrono::seconds(r->window_s)) return 0;
  if (down - r->window_bytes < r->min_bytes_per_s * r->window_s) {
    r->too_slow = true;
    return 1;
  }
  r->window_start = now;
  r->window_bytes = down;
  return 0;
}

std::string Mib(int64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

std::string Describe(CURLcode code, const char* detail, const std::string& url, const TransportOptions& o,
                     const Reading& r, int64_t received) {
  const std::string why = detail[0] ? detail : curl_easy_strerror(code);
  const std::string so_far = " (" + std::to_string(received) + " bytes received)";
  if (code == CURLE_FILESIZE_EXCEEDED)
    return url + " announced an answer larger than " + Mib(o.max_answer_bytes) +
           ", far beyond any vSphere answer; refused";
  if (r.too_big)
    return url + " sent an answer larger than " + Mib(o.max_answer_bytes) +
           ", far beyond any vSphere answer; abandoned" + so_far;
  if (r.too_slow)
    return url + " sent its answer slower than " + std::to_string(o.min_bytes_per_s) + " bytes/s for " +
           std::to_string(r.window_s) + " s; abandoned" + so_far;
  switch (code) {
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
      return "the TLS certificate of " + url + " is not trusted (" + why +
             "); pass --ca FILE with the CA that signed it, or --insecure to skip verification";
    case CURLE_SSL_CONNECT_ERROR: return "TLS handshake with " + url + " failed: " + why;
    case CURLE_OPERATION_TIMEDOUT:
      if (received > 0)
        return url + " did not finish its answer within the " + std::to_string(o.timeout_s) +
               " s request timeout; abandoned" + so_far;
      return url + " did not answer within the " + std::to_string(o.timeout_s) + " s request timeout";
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_CONNECT: return "cannot reach " + url + ": " + why;
    default: return "request to " + url + " failed: " + why;
  }
}

}  // namespace

StatusOr<std::unique_ptr<HttpTransport>> HttpTransport::Create(const TransportOptions& options) {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  if (options.url.find('@') != std::string::npos)
    return Status::InvalidArgument("the URL must not carry credentials; give --user and the password separately");
  // The commands check this first with their own wording; here it guards every other caller.
  if (!IsHttpsUrl(options.url) && !(options.allow_http && IsPlainHttpUrl(options.url)))
    return Status::InvalidArgument(options.url +
                                   " is not an https:// URL; plain http:// would send the password "
                                   "unencrypted and needs --allow-insecure-http");
  std::unique_ptr<HttpTransport> t(new HttpTransport(options));
  CURL* c = curl_easy_init();
  if (!c) return Status::Unavailable("cannot initialise libcurl");
  t->curl_ = c;
  curl_easy_setopt(c, CURLOPT_URL, options.url.c_str());
  // libcurl speaks many protocols; only the one the user chose may be used.
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, options.allow_http ? "http,https" : "https");
  curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "https");
  curl_easy_setopt(c, CURLOPT_POST, 1L);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");  // gzip/deflate, whatever libcurl supports
  curl_easy_setopt(c, CURLOPT_COOKIEFILE, "");       // in-memory cookie engine
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, options.connect_timeout_s);
  curl_easy_setopt(c, CURLOPT_TIMEOUT, options.timeout_s);
  curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, options.insecure ? 0L : 1L);
  curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, options.insecure ? 0L : 2L);
  if (!options.ca_file.empty()) curl_easy_setopt(c, CURLOPT_CAINFO, options.ca_file.c_str());
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, &Append);
  curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(options.max_answer_bytes));
  curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, &CheckPace);
  curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
  curl_slist* h = nullptr;
  h = curl_slist_append(h, "Content-Type: text/xml; charset=utf-8");
  h = curl_slist_append(h, "SOAPAction: \"urn:vim25/6.5\"");
  h = curl_slist_append(h, "Expect:");
  t->headers_ = h;
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
  return t;
}

HttpTransport::~HttpTransport() {
  curl_slist_free_all(static_cast<curl_slist*>(headers_));
  curl_easy_cleanup(static_cast<CURL*>(curl_));
}

StatusOr<HttpResponse> HttpTransport::Post(std::string_view body) {
  CURL* c = static_cast<CURL*>(curl_);
  HttpResponse r;
  char err[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, err);
  curl_easy_setopt(c, CURLOPT_POSTFIELDS, body.data());
  curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, static_cast<long>(body.size()));
  Reading reading;
  reading.body = &r.body;
  reading.max_bytes = options_.max_answer_bytes;
  reading.min_bytes_per_s = options_.min_bytes_per_s;
  reading.window_s = std::max(1L, std::min(30L, options_.timeout_s / 2));
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &reading);
  curl_easy_setopt(c, CURLOPT_XFERINFODATA, &reading);
  const CURLcode code = curl_easy_perform(c);
  ++stats_.requests;
  stats_.bytes_sent += body.size();
  curl_off_t down = 0;
  if (curl_easy_getinfo(c, CURLINFO_SIZE_DOWNLOAD_T, &down) == CURLE_OK) stats_.bytes_received += down;
  if (code != CURLE_OK) return Status::Unavailable(Describe(code, err, options_.url, options_, reading, down));
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r.status);
  return r;
}

std::string HttpTransport::SessionCookie() const {
  curl_slist* cookies = nullptr;
  std::string out;
  if (curl_easy_getinfo(static_cast<CURL*>(curl_), CURLINFO_COOKIELIST, &cookies) != CURLE_OK) return out;
  // Netscape format: domain, tailmatch, path, secure, expires, name, value (tab-separated).
  for (curl_slist* c = cookies; c; c = c->next) {
    std::string line = c->data;
    size_t pos = 0;
    for (int field = 0; field < 5 && pos != std::string::npos; ++field) pos = line.find('\t', pos + 1);
    if (pos == std::string::npos) continue;
    const size_t name_end = line.find('\t', pos + 1);
    if (name_end == std::string::npos) continue;
    const std::string name = line.substr(pos + 1, name_end - pos - 1);
    if (name == "vmware_soap_session") out = line;
  }
  curl_slist_free_all(cookies);
  return out;
}

void HttpTransport::SetSessionCookie(const std::string& cookie) {
  curl_easy_setopt(static_cast<CURL*>(curl_), CURLOPT_COOKIELIST, "ALL");
  if (!cookie.empty()) curl_easy_setopt(static_cast<CURL*>(curl_), CURLOPT_COOKIELIST, cookie.c_str());
}

}  // namespace vrecon::vsphere
