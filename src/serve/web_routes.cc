#include "src/serve/web_routes.h"

#include <httplib.h>

#include <iostream>
#include <sstream>

#include "src/engine/correction_job.h"
#include "src/engine/ready_job.h"
#include "src/report/capacity_report.h"
#include "src/report/correction_report.h"
#include "src/report/html_report.h"
#include "src/report/ready_json.h"
#include "src/store/correction_tables.h"
#include "src/store/store.h"

namespace vrecon::serve {
namespace {

constexpr const char* kJson = "application/json";

WebReply Ok(std::string body, const char* type) { return {200, std::move(body), type}; }

}  // namespace

WebReply ErrorReply(const Status& s, const std::string& what) {
  if (s.IsNotFound()) return {404, "not found: " + what + "\n"};
  if (s.IsInvalidArgument()) return {400, "bad request: " + s.message() + "\n"};
  std::cerr << "vrecon serve: " << what << ": " << s.message() << std::endl;
  return {503, "the store cannot be read now; vrecon serve's log says why\n"};
}

WebReply ReportPage(const ServerOptions& o, const WebQuery& q) {
  StatusOr<std::unique_ptr<Store>> store = Store::OpenForReading(o.db);
  if (!store.ok()) return ErrorReply(store.status(), "the report");
  report::ReportRequest req;
  req.vm = q.vm;
  req.from = q.from;
  req.to = q.to;
  report::HtmlOptions opt;
  opt.vm_href = [&q](const report::VmReport& v) { return VmPageLink(q, v.vm.vm_key); };
  if (q.vm) opt.open_sections = SIZE_MAX;  // the VM's own page: its sections open
  opt.keep_capacity_digests = false;       // a page view reads; collectors and `vrecon report` keep the digests
  std::ostringstream html;
  StatusOr<report::FleetReport> r = report::WriteHtmlReport(html, store->get(), req, opt);
  if (!r.ok()) return ErrorReply(r.status(), "no stored VM matches vm=" + UrlEncode(q.vm.value_or("")));
  return Ok(std::move(html).str(), "text/html; charset=utf-8");
}

WebReply CapacityPage(const ServerOptions& o, const WebQuery& q) {
  StatusOr<std::unique_ptr<Store>> store = Store::OpenForReading(o.db);
  if (!store.ok()) return ErrorReply(store.status(), "the capacity page");
  report::ReportRequest req;
  req.vm = q.vm;
  req.to = q.to;
  report::HtmlOptions opt;
  opt.keep_capacity_digests = false;
  // A VM links to its page when the store has its corrections (the pages are of those).
  std::map<std::string, std::string> links;
  if (StatusOr<std::vector<CorrVm>> vms = ListCorrVms(store->get()); vms.ok())
    for (const CorrVm& v : *vms) links[v.vm_key] = VmPageLink(q, v.vm_key);
  std::ostringstream html;
  StatusOr<report::CapacityReport> r = report::WriteCapacityPage(html, store->get(), req, opt, links);
  if (!r.ok()) return ErrorReply(r.status(), "the capacity page");
  return Ok(std::move(html).str(), "text/html; charset=utf-8");
}

WebReply VmsJson(const ServerOptions& o, const WebQuery& q) {
  StatusOr<std::unique_ptr<Store>> store = Store::OpenForReading(o.db);
  if (!store.ok()) return ErrorReply(store.status(), "/api/vms");
  ReadyRequest req;
  req.vm = q.vm;
  req.from = q.from;
  req.to = q.to;
  StatusOr<std::vector<models::VmReadySummary>> vms = RunReadyAnalysis(store->get(), req);
  if (!vms.ok()) return ErrorReply(vms.status(), "no VM matches vm=" + UrlEncode(q.vm.value_or("")));
  std::ostringstream json;
  report::WriteReadyJson(json, *vms);
  return Ok(std::move(json).str(), kJson);
}

WebReply WindowsJson(const ServerOptions& o, const WebQuery& q, const std::string& vm_key) {
  StatusOr<std::unique_ptr<Store>> store = Store::OpenForReading(o.db);
  if (!store.ok()) return ErrorReply(store.status(), "/api/vms/{vm_key}/windows");
  CorrectionRequest req;
  req.vm = vm_key;
  req.from = q.from;
  req.to = q.to;
  std::ostringstream json;
  CorrectionWriter out(json, OutputFormat::kJson, o.top);
  const Status s = ForEachVmCorrection(store->get(), req, [&out](std::vector<models::WindowResult>&& vm) {
    out.Add(vm);
    return Status::Ok();
  });
  if (!s.ok()) return ErrorReply(s, "no VM has the vm_key " + UrlEncode(vm_key));
  out.Finish();
  return Ok(std::move(json).str(), kJson);
}

void AddWebRoutes(httplib::Server* svr, const ServerOptions& o) {
  // Each route parses the query, then answers; a bad query is 400 before the store is opened.
  const auto route = [](const std::function<WebReply(const WebQuery&, const httplib::Request&)>& answer) {
    return [answer](const httplib::Request& req, httplib::Response& res) {
      const ParamFn param = [&req](std::string_view name) -> std::optional<std::string> {
        const std::string key(name);
        if (!req.has_param(key)) return std::nullopt;
        return req.get_param_value(key);
      };
      StatusOr<WebQuery> q = ParseWebQuery(param, NowNs());
      const WebReply reply = q.ok() ? answer(*q, req) : ErrorReply(q.status(), "");
      res.status = reply.status;
      res.set_content(reply.body, reply.type);
    };
  };
  svr->Get("/", route([&o](const WebQuery& q, const httplib::Request&) { return ReportPage(o, q); }));
  svr->Get("/capacity", route([&o](const WebQuery& q, const httplib::Request&) { return CapacityPage(o, q); }));
  svr->Get("/api/vms", route([&o](const WebQuery& q, const httplib::Request&) { return VmsJson(o, q); }));
  // A vm_key holds '/' ("vsphere:<vCenter id>/vm-42"): the pattern takes everything between.
  svr->Get(R"(/api/vms/(.+)/windows)",
           route([&o](const WebQuery& q, const httplib::Request& req) { return WindowsJson(o, q, req.matches[1]); }));
}

}  // namespace vrecon::serve
