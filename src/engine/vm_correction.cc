#include "src/engine/vm_correction.h"

#include <algorithm>
#include <unordered_map>

#include "models/guest_timeline.h"
#include "models/same_seconds.h"
#include "models/sampling_bias.h"
#include "models/vm_identity.h"
#include "models/window_flags.h"
#include "src/core/text_util.h"
#include "src/engine/clock_events.h"

namespace vrecon {
namespace {

// The clock as a constant guest -> host shift (ns) when it is one: no clock is no shift, and one
// segment without drift (the usual model) shifts every time alike.
std::optional<TimeNs> ConstantShift(const models::ClockModel* clock) {
  if (!clock) return 0;
  if (clock->segments.size() == 1 && (!clock->segments[0].estimated || clock->segments[0].drift_ppm == 0))
    return clock->ToHost(0);
  return std::nullopt;
}

// One VM's guest time blocks as its series share them, by time block id: the block's times on
// the host clock when the clock drifts (else the stored ones plus a constant shift), and where
// they fall on the VM's grid.
struct SharedBlock {
  std::vector<TimeNs> starts, ends;  // empty: the stored times, shifted
  models::BlockPlan plan;
};
using BlockPlans = std::unordered_map<int64_t, SharedBlock>;

// Streams one series into `w`; guest series go through `clock` (guest -> host time) when set.
// With `plans`, whole time blocks are mapped and planned once and shared by the series that
// read them (a guest log's 53 series); parts of blocks cut to the range are added directly.
Status Fill(BlockReader* reader, const StoredSeries* s, const TimeRange& range, models::WindowSeries* w,
            const models::ClockModel* clock = nullptr, BlockPlans* plans = nullptr) {
  const std::optional<TimeNs> shift = ConstantShift(clock);
  std::vector<TimeNs> starts, ends;  // a drifting clock's mapped times for a part of a block
  auto map = [&](const SampleBlock& b, std::vector<TimeNs>* ms, std::vector<TimeNs>* me) {
    ms->resize(b.starts.size());
    me->resize(b.ends.size());
    for (size_t i = 0; i < b.starts.size(); ++i) {
      (*ms)[i] = clock->ToHost(b.starts[i]);
      (*me)[i] = clock->ToHost(b.ends[i]);
    }
  };
  return reader->ForEach(s->id, range, [&](const SampleBlock& b) {
    if (plans && b.time_block >= 0) {
      auto it = plans->find(b.time_block);
      if (it == plans->end()) {
        SharedBlock sb;
        if (shift) {
          sb.plan = w->Plan(b.starts, b.ends, *shift);
        } else {
          map(b, &sb.starts, &sb.ends);
          sb.plan = w->Plan(sb.starts, sb.ends, 0);
        }
        it = plans->emplace(b.time_block, std::move(sb)).first;
      }
      const SharedBlock& sb = it->second;
      if (shift) {
        w->AddPlanned(sb.plan, b.starts, b.ends, b.values, *shift, b.complete);
      } else {
        w->AddPlanned(sb.plan, sb.starts, sb.ends, b.values, 0, b.complete);
      }
      return;
    }
    if (shift) {
      w->AddAll(b.starts, b.ends, b.values, *shift);
      return;
    }
    // A drifting clock: the times mapped one by one, then added as one block (AddAll skips
    // missing values and keeps its one-window fast path).
    map(b, &starts, &ends);
    w->AddAll(starts, ends, b.values);
  });
}

// Reads one series into `out` (missing values left out), for the alignment and the window.
Status ReadInto(BlockReader* reader, const StoredSeries* s, const TimeRange& range,
                std::vector<models::TimedValue>* out) {
  return reader->ForEach(s->id, range, [out](const SampleBlock& b) {
    for (size_t i = 0; i < b.values.size(); ++i)
      if (!IsMissing(b.values[i])) out->push_back(models::TimedValue{b.starts[i], b.ends[i], b.values[i]});
  });
}

bool ByStart(const models::TimedValue& a, const models::TimedValue& b) { return a.start < b.start; }

// Guest samples onto the host's time axis through the clock estimate (none: unchanged).
void ToHostAxis(const models::ClockModel* clock, std::vector<models::TimedValue>* values) {
  if (const std::optional<TimeNs> shift = ConstantShift(clock)) {
    for (models::TimedValue& x : *values) x.start += *shift, x.end += *shift;
  } else {
    for (models::TimedValue& x : *values) x.start = clock->ToHost(x.start), x.end = clock->ToHost(x.end);
  }
}

models::WindowSeries WindowsOf(const models::WindowGrid& grid, const std::vector<models::TimedValue>& values) {
  models::WindowSeries w(grid);
  for (const models::TimedValue& x : values) w.Add(x.start, x.end, x.value);
  return w;
}

// An ETW trace's series (models/correction.h, EventSeries) on the grid, through the guest's clock
// like Perfmon's; its total also on the host's axis for the host's mean over the trace's seconds.
Status ReadTraceTotal(RunContext* ctx, const StoredSeries* series, const models::WindowGrid& grid,
                      const TimeRange& range, const models::ClockModel* clock, models::EventSeries* out) {
  std::vector<models::TimedValue>& total = ctx->buffer;
  total.clear();
  RETURN_IF_ERROR(ReadInto(&ctx->reader, series, range, &total));
  if (!std::is_sorted(total.begin(), total.end(), ByStart)) std::stable_sort(total.begin(), total.end(), ByStart);
  ToHostAxis(clock, &total);
  out->total = WindowsOf(grid, total);
  out->host_on_seconds = models::HostOverGuestSeconds(grid, total, ctx->host_ref);
  return Status::Ok();
}

Status ReadEvents(RunContext* ctx, const VmPlan& plan, const models::WindowGrid& grid, const TimeRange& range,
                  const models::ClockModel* clock, BlockPlans* plans, models::EventSeries* out) {
  if (!plan.event_total) return Status::Ok();
  RETURN_IF_ERROR(ReadTraceTotal(ctx, plan.event_total, grid, range, clock, out));
  auto fill = [&](const StoredSeries* s, std::optional<models::WindowSeries>* dst) -> Status {
    if (!s) return Status::Ok();
    dst->emplace(grid);
    return Fill(&ctx->reader, s, range, &**dst, clock, plans);
  };
  RETURN_IF_ERROR(fill(plan.event_unknown, &out->unknown));
  RETURN_IF_ERROR(fill(plan.event_dpc, &out->dpc));
  RETURN_IF_ERROR(fill(plan.event_isr, &out->isr));
  for (const StoredSeries* s : plan.event_cpus) {
    std::optional<models::WindowSeries> w;
    RETURN_IF_ERROR(fill(s, &w));
    out->cpus.push_back(std::move(*w));
  }
  for (const auto& [name, e] : plan.event_processes) {
    models::EventProcessSeries& p = out->processes[name];
    RETURN_IF_ERROR(fill(e.cpu, &p.cpu));
    RETURN_IF_ERROR(fill(e.bottleneck, &p.bottleneck));
    RETURN_IF_ERROR(fill(e.queue, &p.queue));
    RETURN_IF_ERROR(fill(e.switch_ins, &p.switch_ins));
    RETURN_IF_ERROR(fill(e.queue_p95, &p.queue_p95));
  }
  return Status::Ok();
}

// A sampled profile's series (models/correction.h, VmSeries::profile), as a trace's.
Status ReadProfile(RunContext* ctx, const VmPlan& plan, const models::WindowGrid& grid, const TimeRange& range,
                   const models::ClockModel* clock, BlockPlans* plans, models::EventSeries* out) {
  if (!plan.profile_total) return Status::Ok();
  RETURN_IF_ERROR(ReadTraceTotal(ctx, plan.profile_total, grid, range, clock, out));
  for (const StoredSeries* s : plan.profile_cpus) {
    RETURN_IF_ERROR(Fill(&ctx->reader, s, range, &out->cpus.emplace_back(grid), clock, plans));
  }
  for (const auto& [name, s] : plan.profile_processes) {
    std::optional<models::WindowSeries>& cpu = out->processes[name].cpu;
    RETURN_IF_ERROR(Fill(&ctx->reader, s, range, &cpu.emplace(grid), clock, plans));
  }
  return Status::Ok();
}

// The agent's cycle shares (models/correction.h, VmSeries::cycles), as a trace's.
Status ReadCycles(RunContext* ctx, const VmPlan& plan, const models::WindowGrid& grid, const TimeRange& range,
                  const models::ClockModel* clock, BlockPlans* plans, models::EventSeries* out) {
  if (!plan.cycles_total) return Status::Ok();
  RETURN_IF_ERROR(ReadTraceTotal(ctx, plan.cycles_total, grid, range, clock, out));
  for (const auto& [name, s] : plan.cycles_processes) {
    std::optional<models::WindowSeries>& cpu = out->processes[name].cpu;
    RETURN_IF_ERROR(Fill(&ctx->reader, s, range, &cpu.emplace(grid), clock, plans));
  }
  return Status::Ok();
}

// A restart wherever the guest's System Up Time went back: the boot is the sample's time less the
// uptime it reads (guest clock).
Status AddBoots(BlockReader* reader, const StoredSeries* uptime, const TimeRange& range,
                std::vector<models::ClockEvent>* events) {
  std::optional<double> last;
  const size_t before = events->size();
  RETURN_IF_ERROR(reader->ForEach(uptime->id, range, [&](const SampleBlock& b) {
    for (size_t i = 0; i < b.values.size(); ++i) {
      if (IsMissing(b.values[i])) continue;
      if (last && b.values[i] + 1 < *last)
        events->push_back(
            {models::ClockEventKind::kRestart, b.ends[i] - static_cast<TimeNs>(b.values[i] * kNsPerSec), 0});
      last = b.values[i];
    }
  }));
  if (events->size() > before) std::sort(events->begin(), events->end(), models::EarlierEvent);
  return Status::Ok();
}

// The host side, each series read once, also into ctx->host_ref: the windows take it and the
// clock estimate matches the guest's total against it.
Status ReadHostSide(RunContext* ctx, const VmPlan& plan, const models::WindowGrid& grid, const TimeRange& range,
                    models::VmSeries* vm) {
  std::vector<models::TimedValue>& host_ref = ctx->host_ref;
  host_ref.clear();
  auto host_series = [&](const std::vector<const StoredSeries*>& series) -> StatusOr<models::WindowSeries> {
    models::WindowSeries w(grid);  // one VP seen by several host logs (migration) is one series
    for (const StoredSeries* s : series) {
      ctx->buffer.clear();
      RETURN_IF_ERROR(ReadInto(&ctx->reader, s, range, &ctx->buffer));
      for (const models::TimedValue& x : ctx->buffer) w.Add(x.start, x.end, x.value);
      host_ref.insert(host_ref.end(), ctx->buffer.begin(), ctx->buffer.end());
    }
    return w;
  };
  for (const auto& [vp, series] : plan.host_vps) {
    ASSIGN_OR_RETURN(models::WindowSeries w, host_series(series));
    vm->host_vps.push_back(std::move(w));
  }
  if (!plan.host_group.empty()) {
    ASSIGN_OR_RETURN(vm->host_group, host_series(plan.host_group));
  }
  if (const std::optional<TimeNs> median = models::MedianSampleLength(host_ref))
    vm->host_interval_s = static_cast<double>(*median) / kNsPerSec;
  return Status::Ok();
}

// The guest's clock: its total's timestamps, what ingest recorded, and (aligned) the offset
// against the host, into vm->clock (and *clocks) and vm->interval_flags. Reads the guest's total
// into ctx->guest_ref over `guest_range`.
Status EstimateGuestClock(RunContext* ctx, const VmPlan& plan, const VmEntry& entry, const std::string& guest,
                          const models::WindowGrid& grid, const TimeRange& guest_range,
                          std::map<std::string, models::ClockModel>* clocks, models::VmSeries* vm) {
  const CorrectionRequest& req = ctx->req;
  std::vector<models::TimedValue>& guest_ref = ctx->guest_ref;
  std::vector<models::TimedValue>& host_ref = ctx->host_ref;
  guest_ref.clear();
  // The guest's clock is estimated from Perfmon's total, or the trace's or profile's where there is no log.
  const StoredSeries* ref = plan.guest_total ? plan.guest_total : plan.event_total;
  if (!ref) ref = plan.profile_total;
  if (ref) RETURN_IF_ERROR(ReadInto(&ctx->reader, ref, guest_range, &guest_ref));
  for (auto* v : {&guest_ref, &host_ref})  // usually sorted already
    if (!std::is_sorted(v->begin(), v->end(), ByStart)) std::stable_sort(v->begin(), v->end(), ByStart);
  std::vector<TimeNs> ends;
  ends.reserve(guest_ref.size());
  for (const models::TimedValue& x : guest_ref) ends.push_back(x.end);
  if (!std::is_sorted(ends.begin(), ends.end())) std::sort(ends.begin(), ends.end());  // usually sorted
  std::vector<models::ClockEvent> events;
  if (auto it = ctx->recorded.find(models::NormalizeVmName(guest)); !guest.empty() && it != ctx->recorded.end()) {
    events = it->second;
  }
  if (plan.guest_uptime) RETURN_IF_ERROR(AddBoots(&ctx->reader, plan.guest_uptime, guest_range, &events));
  models::GuestTimeline timeline = models::AnalyzeGuestTimes(ends, events, req.timeline);
  const bool aligned = req.align && !guest_ref.empty() && !host_ref.empty();
  std::vector<models::RangeEstimate> ranges;
  if (aligned) {
    vm->clock = models::AlignGuestClock(&timeline, guest_ref, host_ref, req.alignment, req.timeline, &ranges);
    if (clocks) (*clocks)[entry.key] = *vm->clock;
  }
  vm->interval_flags = models::IntervalFlags(timeline, vm->clock ? *vm->clock : models::ClockModel{}, ranges, grid,
                                             aligned, req.timeline);
  return Status::Ok();
}

// The guest's series on the host's axis, onto the grid: its total, the trace's and the profile's
// processes, steal, utility, queue, CPUs and processes.
Status ReadGuestSide(RunContext* ctx, const VmPlan& plan, const models::WindowGrid& grid, const TimeRange& guest_range,
                     models::VmSeries* vm) {
  const models::ClockModel* clock = vm->clock ? &*vm->clock : nullptr;
  BlockPlans plans;  // this VM's grid and clock, its reader's time blocks
  auto make = [&](const StoredSeries* s) -> StatusOr<models::WindowSeries> {
    models::WindowSeries w(grid);
    RETURN_IF_ERROR(Fill(&ctx->reader, s, guest_range, &w, clock, &plans));
    return w;
  };
  if (plan.guest_total) {
    // The guest's total on the host's axis: its windows, and the seconds over which w compares.
    ToHostAxis(clock, &ctx->guest_ref);
    vm->guest_total = WindowsOf(grid, ctx->guest_ref);
    vm->host_on_guest_seconds = models::HostOverGuestSeconds(grid, ctx->guest_ref, ctx->host_ref);
  }
  RETURN_IF_ERROR(ReadEvents(ctx, plan, grid, guest_range, clock, &plans, &vm->events));
  RETURN_IF_ERROR(ReadProfile(ctx, plan, grid, guest_range, clock, &plans, &vm->profile));
  RETURN_IF_ERROR(ReadCycles(ctx, plan, grid, guest_range, clock, &plans, &vm->cycles));
  for (auto [series, dst] :
       {std::pair{plan.guest_steal, &vm->guest_steal}, std::pair{plan.guest_utility, &vm->guest_utility},
        std::pair{plan.guest_queue, &vm->guest_queue}}) {
    if (!series) continue;
    ASSIGN_OR_RETURN(*dst, make(series));
  }
  for (const StoredSeries* s : plan.guest_cpus) {
    ASSIGN_OR_RETURN(models::WindowSeries w, make(s));
    vm->guest_cpus.push_back(std::move(w));
  }
  for (const auto& [name, s] : plan.processes) {
    ASSIGN_OR_RETURN(models::WindowSeries w, make(s));
    vm->processes.emplace(name, std::move(w));
  }
  for (const auto& [name, s] : plan.process_ids) {
    ASSIGN_OR_RETURN(models::WindowSeries w, make(s));
    vm->process_ids.emplace(name, std::move(w));
  }
  return Status::Ok();
}

// What the host side says beside its run time: vCPUs, the counter, ready, co-stop, the vSphere and
// esxtop counters the like-for-like checks compare, dispatch wait, VMware Tools' CPUs.
Status ReadHostCounters(RunContext* ctx, const VmPlan& plan, const VmEntry& entry, const models::WindowGrid& grid,
                        const TimeRange& range, models::VmSeries* vm) {
  if (!plan.host_vps.empty()) vm->host_vcpus = static_cast<int>(plan.host_vps.size());
  if (entry.num_cpu > 0) vm->host_vcpus = entry.num_cpu;
  vm->host_counter = plan.host_counter;
  // Host-side series the model takes as one series each (several VPs or host logs together).
  for (auto [series, dst] :
       {std::pair{&plan.host_ready, &vm->host_ready}, std::pair{&plan.host_costop, &vm->host_costop},
        std::pair{&plan.vsphere_usage, &vm->vsphere_usage}, std::pair{&plan.vsphere_run, &vm->vsphere_run},
        std::pair{&plan.esxtop_used, &vm->esxtop_used}, std::pair{&plan.esxtop_run, &vm->esxtop_run},
        std::pair{&plan.esxtop_system, &vm->esxtop_system},
        std::pair{&plan.host_dispatch_wait, &vm->host_dispatch_wait}}) {
    if (series->empty()) continue;
    models::WindowSeries w(grid);
    for (const StoredSeries* s : *series) RETURN_IF_ERROR(Fill(&ctx->reader, s, range, &w));
    *dst = std::move(w);
  }
  for (const StoredSeries* s : plan.vmtools_cpus) {
    models::WindowSeries w(grid);
    RETURN_IF_ERROR(Fill(&ctx->reader, s, range, &w));
    vm->vmtools_cpus.push_back(std::move(w));
  }
  return Status::Ok();
}

}  // namespace

// One VM's windows over `range` from the series `plan` names (one guest's logs and the VM's host
// side): reads them, estimates the guest clock, aggregates onto the grid and corrects.
StatusOr<std::vector<models::WindowResult>> CorrectPlanned(RunContext* ctx, const VmPlan& plan, const VmEntry& entry,
                                                           const std::string& guest, const TimeRange& range,
                                                           std::map<std::string, models::ClockModel>* clocks,
                                                           std::optional<double>* host_interval_s) {
  const CorrectionRequest& req = ctx->req;
  const models::WindowGrid grid = models::WindowGrid::Covering(range.from, range.to, req.window);
  models::VmSeries vm;
  vm.vm = entry.name;
  vm.guest_machine = guest;
  vm.host = plan.host;
  RETURN_IF_ERROR(ReadHostSide(ctx, plan, grid, range, &vm));
  if (host_interval_s) *host_interval_s = vm.host_interval_s;
  // Guest series are read over a range widened by the largest offset searched, so that samples
  // shifted into the range are not lost.
  const TimeNs lag = req.align ? static_cast<TimeNs>(req.alignment.max_lag_s * kNsPerSec) : 0;
  const TimeRange guest_range{range.from - lag, range.to + lag};
  RETURN_IF_ERROR(EstimateGuestClock(ctx, plan, entry, guest, grid, guest_range, clocks, &vm));
  RETURN_IF_ERROR(ReadGuestSide(ctx, plan, grid, guest_range, &vm));
  RETURN_IF_ERROR(ReadHostCounters(ctx, plan, entry, grid, range, &vm));
  std::vector<models::WindowResult> r = models::CorrectVm(vm, grid, req.config);
  models::AddWindowFlags(vm, grid, models::WindowFlagConfig{}, &r);
  models::ApplySamplingBias(req.bias, &r);
  return r;
}

}  // namespace vrecon
