#include "src/engine/counter_job.h"

#include <algorithm>
#include <set>

#include "models/counter_types.h"
#include "models/vm_identity.h"
#include "src/core/text_util.h"
#include "src/store/sample_reader.h"

namespace vrecon {
namespace {

using models::CounterType;
using models::NormalizeVmName;

std::string PathOf(const SeriesKey& k) {
  if (!k.original.empty()) return k.original;
  return "\\\\" + k.machine + "\\" + k.object + (k.instance.empty() ? "" : "(" + k.instance + ")") + "\\" + k.counter;
}

// The machines whose Hyper-V virtual processors run the VM: its host, or hosts after a migration.
std::set<std::string> HyperVHostsOf(const std::vector<StoredSeries>& host_side, const std::string& vm) {
  std::set<std::string> hosts;
  for (const StoredSeries& s : host_side) {
    if (s.key.object != "Hyper-V Hypervisor Virtual Processor") continue;
    auto vp = models::ParseHyperVVpInstance(s.key.instance);
    if (vp && NormalizeVmName(vp->vm) == NormalizeVmName(vm)) hosts.insert(NormalizeVmName(s.key.machine));
  }
  return hosts;
}

// The host root's series of the same disk counter, by the matching rule of docs/counter-types.md:
// the --host-disk instance; else the host's only instance other than _Total; else _Total when the
// host logged nothing else. `why` says what was chosen or why nothing was.
std::vector<const StoredSeries*> HostDiskSeries(const std::vector<StoredSeries>& host_side,
                                                const std::set<std::string>& hosts, const SeriesKey& guest,
                                                const std::optional<std::string>& wanted, std::string* label,
                                                std::string* why) {
  std::map<std::string, std::vector<const StoredSeries*>> by_instance;
  for (const StoredSeries& s : host_side) {
    if (hosts.contains(NormalizeVmName(s.key.machine)) && s.key.object == guest.object &&
        s.key.counter == guest.counter)
      by_instance[s.key.instance].push_back(&s);
  }
  auto pick = [&](const std::string& instance) {
    const auto& v = by_instance[instance];
    *label = v.front()->key.machine + " " + guest.object + "(" + instance + ")";
    return v;
  };
  if (hosts.empty()) {
    *why = "no Hyper-V host log runs this VM";
    return {};
  }
  if (by_instance.empty()) {
    *why = "the host log has no " + guest.object + " " + guest.counter;
    return {};
  }
  if (wanted) {
    for (const auto& [instance, v] : by_instance)
      if (EqualsFolded(instance, *wanted)) return pick(instance);
    *why = "the host log has no " + guest.object + "(" + *wanted + ") named by --host-disk";
    return {};
  }
  std::vector<std::string> disks;
  for (const auto& [instance, v] : by_instance)
    if (instance != "_Total") disks.push_back(instance);
  if (disks.size() == 1) return pick(disks.front());
  if (disks.empty()) return pick("_Total");
  *why =
      "the host logs " + std::to_string(disks.size()) + " disks; name the one holding the VM's disk with --host-disk";
  return {};
}

struct TypedSeries {
  const StoredSeries* guest = nullptr;
  models::CounterClass cls;
  std::optional<models::WindowSeries> values;  // every type but rate
  std::optional<models::RateWindows> rates;
  std::optional<models::WindowSeries> host;  // qpc-latency: the host root's latency
  std::string host_label, no_host_reason;
};

// The guest and host sides' series that counters are read from.
struct CounterSides {
  std::vector<StoredSeries> guest, host;
};

// The last of the windows that share `first`'s grid: windows come VM by VM, and each run of one
// VM's adjacent windows shares one grid (a data gap the correction left out starts a new run, so
// the grid never spans it).
size_t LastOfRun(const std::vector<models::WindowResult>& windows, size_t first) {
  size_t last = first;
  while (last + 1 < windows.size() && windows[last + 1].vm_key == windows[first].vm_key &&
         windows[last + 1].guest_machine == windows[first].guest_machine &&
         windows[last + 1].start <= windows[last].end)
    ++last;
  return last;
}

// One guest series on the grid, by its type, with the host root's latency for a QPC-timed one.
StatusOr<TypedSeries> ReadTyped(Store* store, const StoredSeries& s, const std::vector<StoredSeries>& host_side,
                                const std::set<std::string>& hosts, const models::WindowGrid& grid,
                                const TimeRange& range, const models::ToTrueTime& to_true, const CounterRequest& req) {
  const SeriesKey& k = s.key;
  TypedSeries t;
  t.guest = &s;
  t.cls = models::ClassifyCounter(k.object, k.instance, k.counter, k.unit);
  if (t.cls.type == CounterType::kRate) {
    t.rates.emplace(grid);
    RETURN_IF_ERROR(ForEachSample(store, s.id, range, [&](TimeNs a, TimeNs b, double v) {
      if (!IsMissing(v)) t.rates->Add(a, b, v, to_true);
    }));
  } else {
    t.values.emplace(grid);
    RETURN_IF_ERROR(ForEachSample(store, s.id, range, [&](TimeNs a, TimeNs b, double v) {
      if (!IsMissing(v)) t.values->Add(to_true ? to_true(a) : a, to_true ? to_true(b) : b, v);
    }));
  }
  if (t.cls.type != CounterType::kQpcLatency) return t;
  const std::vector<const StoredSeries*> host =
      HostDiskSeries(host_side, hosts, k, req.host_disk, &t.host_label, &t.no_host_reason);
  if (host.empty()) return t;
  t.host.emplace(grid);
  for (const StoredSeries* h : host)
    RETURN_IF_ERROR(ForEachSample(store, h->id, range, [&](TimeNs a, TimeNs b, double v) {
      if (!IsMissing(v)) t.host->Add(a, b, v);
    }));
  return t;
}

// The guest machine's counters that the correction does not answer itself, on the grid.
StatusOr<std::vector<TypedSeries>> ReadGuestCounters(Store* store, const CounterSides& sides,
                                                     const models::WindowResult& head, const models::WindowGrid& grid,
                                                     const models::ToTrueTime& to_true, const CounterRequest& req) {
  // Guest times may sit a clock offset away from the windows (the alignment searches up to a
  // few minutes): read a margin on each side.
  const TimeNs margin = std::max<TimeNs>(req.window, 600 * kNsPerSec);
  const TimeRange range{grid.origin - margin, grid.End(grid.count - 1) + margin};
  const std::set<std::string> hosts = HyperVHostsOf(sides.host, head.vm);
  std::vector<TypedSeries> typed;
  const std::string ng = NormalizeVmName(head.guest_machine);
  for (const StoredSeries& s : sides.guest) {
    const SeriesKey& k = s.key;
    if (NormalizeVmName(k.machine) != ng) continue;
    if ((k.object == "Process" || k.object == "Process V2") && k.counter == "% Processor Time") continue;
    // An ETW trace's or profile's figures are the correction's own where they cover a window
    // (events and profile bases).
    if (k.object.starts_with("ETW ")) continue;
    ASSIGN_OR_RETURN(TypedSeries t, ReadTyped(store, s, sides.host, hosts, grid, range, to_true, req));
    typed.push_back(std::move(t));
  }
  return typed;
}

// Each counter's value in window r (cell i of the grid).
std::vector<models::CounterValue> EvaluateWindow(const models::WindowResult& r, int i,
                                                 const std::vector<TypedSeries>& typed, bool aligned) {
  std::vector<models::CounterValue> out;
  for (const TypedSeries& t : typed) {
    models::CounterWindowInput in;
    in.cls = t.cls;
    if (t.values) in.guest_mean = t.values->Mean(i);
    if (t.rates) in.rate = t.rates->at(i);
    in.aligned = aligned;
    in.w = r.w;
    in.linux_steal = r.steal_pct.has_value();
    if (t.host) {
      in.host_latency_s = t.host->Mean(i);
      in.host_disk = t.host_label;
      if (!in.host_latency_s) in.no_host_reason = t.host_label + " has no value in this window";
    } else {
      in.no_host_reason = t.no_host_reason;
    }
    if (auto v = models::EvaluateCounter(PathOf(t.guest->key), t.guest->key.unit, in)) out.push_back(std::move(*v));
  }
  return out;
}

}  // namespace

void UseClocks(const std::map<std::string, models::ClockModel>& clocks, CounterRequest* request) {
  for (const auto& [vm, clock] : clocks) {
    if (std::none_of(clock.segments.begin(), clock.segments.end(), [](const auto& s) { return s.estimated; })) continue;
    // An init-capture: clang before 16 cannot capture a structured binding.
    request->clocks[vm] = [clock = clock](TimeNs t) { return clock.ToHost(t); };
  }
}

StatusOr<std::vector<std::vector<models::CounterValue>>> RunCounters(Store* store,
                                                                     const std::vector<models::WindowResult>& windows,
                                                                     const CounterRequest& req) {
  std::vector<std::vector<models::CounterValue>> out(windows.size());
  SeriesFilter guest_filter, host_filter;
  guest_filter.source = "guest";
  host_filter.source = "hyperv";
  CounterSides sides;
  ASSIGN_OR_RETURN(sides.guest, FindSeries(store, guest_filter));
  ASSIGN_OR_RETURN(sides.host, FindSeries(store, host_filter));
  for (size_t first = 0; first < windows.size();) {
    const size_t last = LastOfRun(windows, first), next = last + 1;
    const models::WindowResult& head = windows[first];
    if (head.guest_machine.empty()) {
      first = next;
      continue;
    }
    models::WindowGrid grid;
    grid.width = req.window;
    grid.origin = head.start;
    grid.count = static_cast<int>((windows[last].end - grid.origin + req.window - 1) / req.window);
    auto clock_it = req.clocks.find(head.vm_key);
    const models::ToTrueTime to_true = clock_it == req.clocks.end() ? models::ToTrueTime{} : clock_it->second;
    ASSIGN_OR_RETURN(const std::vector<TypedSeries> typed, ReadGuestCounters(store, sides, head, grid, to_true, req));
    for (size_t wi = first; wi < next; ++wi) {
      const int i = static_cast<int>((windows[wi].start - grid.origin) / grid.width);
      if (i >= 0 && i < grid.count) out[wi] = EvaluateWindow(windows[wi], i, typed, static_cast<bool>(to_true));
    }
    first = next;
  }
  return out;
}

StatusOr<CorrectedCounters> RunCorrectionWithCounters(Store* store, const CorrectionRequest& request,
                                                      std::optional<std::string> host_disk) {
  std::map<std::string, models::ClockModel> clocks;
  auto windows = RunCorrection(store, request, &clocks);
  if (!windows.ok()) return windows.status();
  CounterRequest creq;
  creq.window = request.window;
  creq.host_disk = std::move(host_disk);
  UseClocks(clocks, &creq);
  auto counters = RunCounters(store, *windows, creq);
  if (!counters.ok()) return counters.status();
  return CorrectedCounters{std::move(windows).value(), std::move(counters).value()};
}

}  // namespace vrecon
