// `vrecon capacity`: headroom, time remaining and right sizes from demand (docs/capacity.md).
#include <algorithm>
#include <fstream>
#include <iostream>

#include "src/cli/command_options.h"
#include "src/cli/commands.h"
#include "src/core/file_replace.h"
#include "src/engine/capacity_job.h"
#include "src/report/capacity_output.h"

namespace vrecon::cli {

using report::CapacityHeader;
using report::WriteCapacityCsv;
using report::WriteCapacityForecastCsv;
using report::WriteCapacityJson;
using report::WriteCapacityTable;

namespace {

StatusOr<CapacityRequest> RequestOf(const CapacityArgs& o) {
  CapacityRequest req;
  req.scope = o.scope;
  req.names = o.names;
  req.risk = models::ParseRisk(o.risk).value_or(models::Risk::kConservative);
  req.buffer_pct = o.buffer_pct;
  req.target_util_pct = o.target_util_pct;
  req.ha_hosts = o.ha_hosts;
  req.forecast.horizon_days = o.horizon_days;
  if (!o.as_of.empty()) RETURN_IF_ERROR(ParseTimeOption("--as-of", o.as_of, &req.as_of));
  return req;
}

Status WriteForecast(const std::string& path, const std::vector<CapacityEntity>& entities) {
  return ReplaceFile(path, [&entities](std::ostream& os) {
    WriteCapacityForecastCsv(os, entities);
    return Status::Ok();
  });
}

}  // namespace

int RunCapacityCommand(const CapacityArgs& o) {
  StatusOr<CapacityRequest> req = RequestOf(o);
  if (!req.ok()) return FailUsage(req.status());
  auto store = OpenExistingStore(o.db);
  if (!store.ok()) return Fail(store.status());
  StatusOr<std::vector<CapacityEntity>> entities = RunCapacity(store->get(), *req);
  if (!entities.ok()) return Fail(entities.status());
  if ((o.scope == "cluster" || o.scope == "all") &&
      std::none_of(entities->begin(), entities->end(), [](const CapacityEntity& e) { return e.scope == "cluster"; }))
    std::cerr << "vrecon: note: no cluster: clusters come from a vCenter's inventory (vrecon collect vsphere)\n";
  if (entities->empty() && o.scope != "cluster")
    std::cerr << "vrecon: nothing with host-side CPU data (vSphere, esxtop or Hyper-V) in the store\n";
  if (!o.forecast_out.empty()) {
    if (Status s = WriteForecast(o.forecast_out, *entities); !s.ok()) return Fail(s);
  }
  CapacityHeader h{req->as_of, req->risk, req->buffer_pct};
  if (!h.as_of)
    for (const CapacityEntity& e : *entities)
      if (e.as_of && (!h.as_of || *e.as_of > *h.as_of)) h.as_of = e.as_of;
  switch (ToFormat(o.format)) {
    case OutputFormat::kJson: WriteCapacityJson(std::cout, h, *entities); break;
    case OutputFormat::kCsv: WriteCapacityCsv(std::cout, *entities); break;
    case OutputFormat::kTable: WriteCapacityTable(std::cout, *entities); break;
  }
  return kExitOk;
}

}  // namespace vrecon::cli
