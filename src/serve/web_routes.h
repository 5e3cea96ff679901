// `vrecon serve`'s web view (docs/serve.md): GET / is the HTML report of the range asked
// (?from=&to=&vm=; by default the last 24 hours), rendered from the store on request; GET /api/vms
// is `vrecon ready --format json` over the range; GET /api/vms/{vm_key}/windows is
// `vrecon correct --format json` for that VM. Errors are one line: 400 for a bad query, 404 for a
// VM that is not there, 503 when the store cannot be read (the reason goes to stderr only).
#ifndef VRECON_SRC_SERVE_WEB_ROUTES_H_
#define VRECON_SRC_SERVE_WEB_ROUTES_H_

#include <string>

#include "src/core/status.h"
#include "src/serve/http_server.h"
#include "src/serve/web_query.h"

namespace vrecon::serve {

struct WebReply {
  int status = 200;
  std::string body;
  std::string type = "text/plain; charset=utf-8";
};

WebReply ReportPage(const ServerOptions& o, const WebQuery& q);
WebReply VmsJson(const ServerOptions& o, const WebQuery& q);
WebReply WindowsJson(const ServerOptions& o, const WebQuery& q, const std::string& vm_key);

// The reply for an error: its status and one line that names no file, URI or stack.
WebReply ErrorReply(const Status& s, const std::string& what);

// Registers the three routes on `svr` (http_server.cc); `o` must outlive it.
void AddWebRoutes(httplib::Server* svr, const ServerOptions& o);

}  // namespace vrecon::serve

#endif  // VRECON_SRC_SERVE_WEB_ROUTES_H_
