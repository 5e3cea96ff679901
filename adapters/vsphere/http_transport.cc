#include "adapters/vsphere/http_transport.h"

#include <curl/curl.h>

#include <mutex>

#include "src/core/text_util.h"

namespace vrecon::vsphere {
namespace {

size_t Append(char* data, size_t size, size_t n, void* user) {
  static_cast<std::string*>(user)->append(data, size * n);
  return size * n;
}

std::string Describe(CURLcode code, const char* detail, const std::string& url) {
  const std::string why = detail[0] ? detail : curl_easy_strerror(code);
  switch (code) {
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
      return "the TLS certificate of " + url + " is not trusted (" + why +
             "); pass --ca FILE with the CA that signed it, or --insecure to skip verification";
    case CURLE_SSL_CONNECT_ERROR:
      return "TLS handshake with " + url + " failed: " + why;
    case CURLE_OPERATION_TIMEDOUT:
      return url + " did not answer in time: " + why;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_CONNECT:
      return "cannot reach " + url + ": " + why;
    default:
      return "request to " + url + " failed: " + why;
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
    return Status::InvalidArgument(options.url + " is not an https:// URL; plain http:// would send the password "
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
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &r.body);
  const CURLcode code = curl_easy_perform(c);
  ++stats_.requests;
  stats_.bytes_sent += body.size();
  curl_off_t down = 0;
  if (curl_easy_getinfo(c, CURLINFO_SIZE_DOWNLOAD_T, &down) == CURLE_OK) stats_.bytes_received += down;
  if (code != CURLE_OK) return Status::Unavailable(Describe(code, err, options_.url));
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
