#include <filesystem>
#include <iostream>

#include "src/cli/command_options.h"
#include "src/cli/commands.h"
#include "src/core/text_util.h"
#include "src/engine/vm_directory.h"
#include "src/store/sample_reader.h"
#include "src/store/store.h"

namespace vrecon::cli {
namespace {

// vm_key of each host-side series (src/engine/vm_directory.h), by series id.
StatusOr<std::map<int64_t, std::string>> HostVmKeys(Store* store) {
  ASSIGN_OR_RETURN(std::vector<StoredSeries> all, FindSeries(store, SeriesFilter{}));
  ASSIGN_OR_RETURN(auto mappings, store->Mappings());
  ASSIGN_OR_RETURN(VmDirectory dir, VmDirectory::Build(store, all, mappings));
  std::map<int64_t, std::string> keys;
  for (const StoredSeries& s : all)
    if (const int e = dir.HostEntryOf(s.key); e >= 0) keys[s.id] = dir.entry(e).key;
  return keys;
}

}  // namespace

int RunSamplesCommand(const SamplesArgs& o) {
  TimeRange range;
  std::optional<TimeNs> from, to;
  if (Status s = ParseTimeRange(o.from, o.to, &from, &to); !s.ok()) return FailUsage(s);
  if (from) range.from = *from;
  if (to) range.to = *to;
  auto store = OpenExistingStore(o.db);
  if (!store.ok()) return Fail(store.status());
  SeriesFilter f;
  auto set = [](std::optional<std::string>* dst, const std::string& v) {
    if (!v.empty()) *dst = v;
  };
  set(&f.machine, o.machine);
  set(&f.object, o.object);
  set(&f.counter, o.counter);
  set(&f.instance, o.instance);
  set(&f.source, o.source);
  auto series = FindSeries(store->get(), f);
  if (!series.ok()) return Fail(series.status());
  auto vm_keys = HostVmKeys(store->get());
  if (!vm_keys.ok()) return Fail(vm_keys.status());
  const OutputFormat fmt = ToFormat(o.format);
  std::ostream& out = std::cout;
  std::optional<StreamingTable> table;
  if (fmt == OutputFormat::kTable) {
    std::vector<size_t> w(9, 0);
    for (const StoredSeries& s : *series) {
      const SeriesKey& k = s.key;
      size_t i = 0;
      for (const std::string& v : {std::string(SourceKindName(k.source)), k.machine, k.object, k.instance, k.counter})
        w[i] = std::max(w[i], DisplayWidth(v)), ++i;
    }
    w[5] = w[6] = 24;
    w[7] = 12;
    table.emplace(
        out,
        std::vector<std::string>{"source", "machine", "object", "instance", "counter", "start", "end", "value", "unit"},
        w);
  }
  if (fmt == OutputFormat::kJson) out << "{\"samples\": [";
  if (fmt == OutputFormat::kCsv) out << "source,machine,object,instance,counter,start,end,value,unit,original,vm_key\n";
  bool first = true;
  for (const StoredSeries& s : *series) {
    const SeriesKey& k = s.key;
    const std::string src(SourceKindName(k.source));
    const auto key_it = vm_keys->find(s.id);
    const std::string vm_key = key_it == vm_keys->end() ? "" : key_it->second;
    Status st = ForEachSample(store->get(), s.id, range, [&](TimeNs a, TimeNs b, double v) {
      const std::optional<double> value = IsMissing(v) ? std::nullopt : std::optional<double>(v);
      switch (fmt) {
        case OutputFormat::kJson:
          out << (first ? "\n  " : ",\n  ") << "{\"source\": " << JsonString(src)
              << ", \"machine\": " << JsonString(k.machine) << ", \"object\": " << JsonString(k.object)
              << ", \"instance\": " << JsonString(k.instance) << ", \"counter\": " << JsonString(k.counter)
              << ", \"start\": " << JsonString(FormatIso(a, true)) << ", \"end\": " << JsonString(FormatIso(b, true))
              << ", \"value\": " << JsonNumber(value) << ", \"unit\": " << JsonString(k.unit)
              << ", \"original\": " << JsonString(k.original)
              << (vm_key.empty() ? "" : ", \"vm_key\": " + JsonString(vm_key)) << "}";
          break;
        case OutputFormat::kCsv:
          out << src << "," << CsvCell(k.machine) << "," << CsvCell(k.object) << "," << CsvCell(k.instance) << ","
              << CsvCell(k.counter) << "," << FormatIso(a, true) << "," << FormatIso(b, true) << "," << CsvNumber(value)
              << "," << CsvCell(k.unit) << "," << CsvCell(k.original) << "," << CsvCell(vm_key) << "\n";
          break;
        case OutputFormat::kTable:
          table->Row({src, k.machine, k.object, k.instance, k.counter, FormatIso(a, true), FormatIso(b, true),
                      value ? FormatDouble(*value) : "(missing)", k.unit});
          break;
      }
      first = false;
    });
    if (!st.ok()) return Fail(st);
  }
  if (fmt == OutputFormat::kJson) out << (first ? "]}\n" : "\n]}\n");
  return kExitOk;
}

}  // namespace vrecon::cli
