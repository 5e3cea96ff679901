#include "agent/agent.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <utility>

#include "agent/sampler.h"

namespace vrecon::agent {
namespace {

std::string FormatNumber(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

StatusOr<double> Number(const std::string& flag, const std::string& text, double min) {
  double v = 0;
  auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (r.ec != std::errc() || r.ptr != text.data() + text.size() || !std::isfinite(v) || v < min)
    return Status::InvalidArgument(flag + ": expected a number >= " + FormatNumber(min) + ", got \"" + text + "\"");
  return v;
}

}  // namespace

std::string UsageText() {
  return "vrecon-agent: samples Windows performance counters through PDH into PDH-CSV 4.0 files\n"
         "\n"
         "usage: vrecon-agent [options]\n"
         "  --out DIR             folder for the files (default: current folder)\n"
         "  --interval SECONDS    sample interval (default 15)\n"
         "  --set NAME            counter set: vrecon (default), hyperv, cycles (each process's\n"
         "                        and processor's cycle counts), none; repeatable\n"
         "  --counter PATH        extra counter, e.g. \"\\Process(*)\\Working Set\"; repeatable\n"
         "  --counter-file FILE   extra counters, one path per line (# comments); repeatable\n"
         "  --computer NAME       sample \\\\NAME instead of this machine; repeatable\n"
         "  --max-size MB         start a new file before this size (default 64, 0 = no limit)\n"
         "  --rotate-minutes N    start a new file every N minutes (default 60, 0 = never)\n"
         "  --refresh SECONDS     look for new instances (processes) this often (default 300)\n"
         "  --prefix NAME         file name prefix (default: the machine name)\n"
         "  --count N             stop after N rows\n"
         "  --duration SECONDS    stop after this long\n"
         "  --list                print the counters that would be sampled and exit\n"
         "  --service             run as a Windows service (installed with sc create)\n"
         "  --version, --help\n"
         "Ctrl+C (or a service stop) ends the current file cleanly.\n";
}

namespace {

// Stores an option's value in the options after checking it; the error names the option.
using ValueSetter = Status (*)(const std::string& flag, const std::string& value, Options* o);

Status SetCount(const std::string& flag, const std::string& v, double min, std::int64_t scale, std::int64_t* out) {
  double n = 0;
  ASSIGN_OR_RETURN(n, Number(flag, v, min));
  *out = static_cast<std::int64_t>(n * static_cast<double>(scale));
  return Status::Ok();
}

// The options that take a value.
const std::map<std::string, ValueSetter>& ValueOptions() {
  static const std::map<std::string, ValueSetter> options = {
      {"--out",
       [](const std::string&, const std::string& v, Options* o) {
         o->out_dir = v;
         return Status::Ok();
       }},
      {"--interval",
       [](const std::string& f, const std::string& v, Options* o) {
         ASSIGN_OR_RETURN(o->interval_seconds, Number(f, v, 0.1));
         return Status::Ok();
       }},
      {"--set",
       [](const std::string&, const std::string& v, Options* o) {
         if (v != "none" && !CounterSet(v, "").ok())
           return Status::InvalidArgument("--set: unknown counter set \"" + v +
                                          "\" (known: vrecon, hyperv, cycles, none)");
         o->sets.push_back(v);
         return Status::Ok();
       }},
      {"--counter",
       [](const std::string&, const std::string& v, Options* o) {
         auto spec = ParseCounterPath(v);
         if (!spec.ok()) return Status::InvalidArgument("--counter: " + spec.status().message());
         o->counters.push_back(v);
         return Status::Ok();
       }},
      {"--counter-file",
       [](const std::string&, const std::string& v, Options* o) {
         o->counter_files.push_back(v);
         return Status::Ok();
       }},
      {"--computer",
       [](const std::string&, const std::string& v, Options* o) {
         std::string name = v.rfind("\\\\", 0) == 0 ? v.substr(2) : v;
         if (name.empty() || name.find('\\') != std::string::npos)
           return Status::InvalidArgument("--computer: expected NAME or \\\\NAME, got \"" + v + "\"");
         o->computers.push_back(name);
         return Status::Ok();
       }},
      {"--max-size",
       [](const std::string& f, const std::string& v, Options* o) {
         double mb = 0;
         ASSIGN_OR_RETURN(mb, Number(f, v, 0));
         o->max_bytes = static_cast<std::uint64_t>(mb * 1024 * 1024);
         return Status::Ok();
       }},
      {"--rotate-minutes", [](const std::string& f, const std::string& v,
                              Options* o) { return SetCount(f, v, 0, 60, &o->rotate_seconds); }},
      {"--refresh", [](const std::string& f, const std::string& v,
                       Options* o) { return SetCount(f, v, 1, 1, &o->refresh_seconds); }},
      {"--prefix",
       [](const std::string&, const std::string& v, Options* o) {
         if (v.empty() || v.find_first_of("\\/:*?\"<>|") != std::string::npos)
           return Status::InvalidArgument("--prefix: not usable in a file name: \"" + v + "\"");
         o->prefix = v;
         return Status::Ok();
       }},
      {"--count",
       [](const std::string& f, const std::string& v, Options* o) { return SetCount(f, v, 1, 1, &o->count); }},
      {"--duration",
       [](const std::string& f, const std::string& v, Options* o) {
         ASSIGN_OR_RETURN(o->duration_seconds, Number(f, v, 0.1));
         return Status::Ok();
       }},
  };
  return options;
}

// The options that take none; false for any other argument.
bool SetFlag(const std::string& a, Options* o) {
  if (a == "--help" || a == "-h" || a == "/?") return o->help = true;
  if (a == "--version") return o->version = true;
  if (a == "--list") return o->list = true;
  if (a == "--service") return o->service = true;
  return false;
}

}  // namespace

StatusOr<Options> ParseOptions(const std::vector<std::string>& args) {
  Options o;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i];
    std::optional<std::string> inline_value;  // --name=value
    if (const size_t eq = a.find('='); a.rfind("--", 0) == 0 && eq != std::string::npos) {
      inline_value = a.substr(eq + 1);
      a.resize(eq);
    }
    if (SetFlag(a, &o)) continue;
    const auto option = ValueOptions().find(a);
    if (option == ValueOptions().end())
      return Status::InvalidArgument("unknown argument \"" + args[i] + "\" (see --help)");
    if (!inline_value && i + 1 >= args.size()) return Status::InvalidArgument(a + ": missing value");
    RETURN_IF_ERROR(option->second(a, inline_value ? *inline_value : args[++i], &o));
  }
  return o;
}

StatusOr<std::vector<CounterSpec>> BuildSelection(const Options& o, const std::vector<std::string>& file_texts) {
  std::vector<std::string> machines = o.computers;
  if (machines.empty()) machines.push_back("");
  std::vector<std::string> sets = o.sets;
  if (sets.empty()) sets.push_back("vrecon");
  std::vector<CounterSpec> out;
  for (const std::string& set : sets) {
    if (set == "none") continue;
    for (const std::string& m : machines) {
      ASSIGN_OR_RETURN(std::vector<CounterSpec> s, CounterSet(set, m));
      out.insert(out.end(), s.begin(), s.end());
    }
  }
  // Extra counters without "\\MACHINE" go to every selected machine.
  auto add_extra = [&](CounterSpec spec) {
    if (!spec.machine.empty()) {
      out.push_back(spec);
      return;
    }
    for (const std::string& m : machines) {
      spec.machine = m;
      out.push_back(spec);
    }
  };
  for (const std::string& c : o.counters) {
    ASSIGN_OR_RETURN(CounterSpec spec, ParseCounterPath(c));
    add_extra(spec);
  }
  for (size_t i = 0; i < file_texts.size(); ++i) {
    ASSIGN_OR_RETURN(std::vector<CounterSpec> specs,
                     ParseCounterFile(file_texts[i], i < o.counter_files.size() ? o.counter_files[i] : "counter file"));
    for (const CounterSpec& s : specs) add_extra(s);
  }
  if (out.empty()) return Status::InvalidArgument("no counters selected (--set none without --counter)");
  return out;
}

Status RunAgent(const Options& o, const std::vector<CounterSpec>& selection, PdhApi& pdh, Clock& clock,
                OutputFiles& files, const std::string& local_machine, std::ostream& log, RunStats* stats) {
  RunStats local_stats;
  RunStats& st = stats ? *stats : local_stats;
  std::vector<std::string> notes;
  Sampler sampler(pdh, ResolveSelection(pdh, selection, &notes), local_machine);
  Status started = sampler.Start(&notes);
  for (const std::string& n : notes) log << "vrecon-agent: " << n << "\n";
  RETURN_IF_ERROR(started);

  std::string prefix = o.prefix;
  if (prefix.empty()) prefix = o.computers.empty() ? local_machine : o.computers.front();
  if (prefix.empty()) prefix = "vrecon-agent";
  RotatingWriter writer(files, prefix, RotationPolicy{o.max_bytes, o.rotate_seconds});

  const std::int64_t interval_ms = std::max<std::int64_t>(1, std::llround(o.interval_seconds * 1000));
  const std::int64_t start_ms = clock.Now().utc_ms;
  const std::int64_t end_ms = o.duration_seconds > 0 ? start_ms + std::llround(o.duration_seconds * 1000) : 0;
  std::int64_t last_refresh_ms = start_ms;
  log << "vrecon-agent: sampling " << sampler.counters().size() << " counters every "
      << FormatNumber(o.interval_seconds) << " s into " << o.out_dir << "\n";
  Status result = Status::Ok();
  for (std::int64_t k = 1;; ++k) {
    const std::int64_t due = start_ms + k * interval_ms;
    if (end_ms && due > end_ms) break;
    if (!clock.SleepUntil(due)) break;  // stop requested
    const Stamp at = clock.Now();
    const bool refresh = at.utc_ms - last_refresh_ms >= o.refresh_seconds * 1000;
    if (refresh) last_refresh_ms = at.utc_ms;
    SampleResult r = sampler.Sample(refresh);
    if (!PdhItemOk(r.collect_status)) ++st.collect_errors;
    if (sampler.columns().empty()) continue;  // nothing readable yet: no file without columns
    result = writer.Write(at, sampler.HeaderPaths(), r.columns_changed, r.values);
    if (!result.ok()) break;
    ++st.rows;
    st.missing_cells += r.missing_cells;
    if (o.count && st.rows >= o.count) break;
    if (clock.StopRequested()) break;
  }
  writer.Close();
  sampler.Stop();
  st.files = writer.files();
  log << "vrecon-agent: stopped after " << st.rows << " rows in " << st.files.size() << " files\n";
  return result;
}

}  // namespace vrecon::agent
