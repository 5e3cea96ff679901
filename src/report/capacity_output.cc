#include "src/report/capacity_output.h"

#include <map>
#include <string>

#include "src/core/severity.h"
#include "src/core/text_util.h"
#include "src/report/output.h"

namespace vrecon::report {
namespace {

// The forecast's days as text, by day: every entity's forecast covers about the same days.
using DayNames = std::map<int64_t, std::string>;

// A forecast day's object, appended: 10,000 entities' forecasts are millions of them.
void AppendForecastDay(std::string* out, const models::ForecastDay& d, DayNames* names) {
  auto [name, added] = names->try_emplace(d.day);
  if (added) name->second = FormatDay(d.day);
  out->append("{\"date\": \"").append(name->second).append("\", \"lower\": ");
  AppendJsonNumber(out, d.lower);
  out->append(", \"mid\": ");
  AppendJsonNumber(out, d.mid);
  out->append(", \"upper\": ");
  AppendJsonNumber(out, d.upper);
  out->push_back('}');
}

void WriteEntityJson(std::ostream& os, const CapacityEntity& e, DayNames* names) {
  os << "{\"scope\": " << JsonString(e.scope) << ", \"name\": " << JsonString(e.name)
     << ", \"key\": " << JsonString(e.key) << ", \"capacity_cores\": " << JsonNumber(e.capacity_cores)
     << ", \"usable_cores\": " << JsonNumber(e.usable_cores)
     << ", \"demand_p95_cores\": " << JsonNumber(e.demand_p95_cores)
     << ", \"time_remaining_days\": " << JsonNumber(AsNumber(e.time_remaining_days))
     << ", \"peak_time_remaining_days\": " << JsonNumber(AsNumber(e.peak_time_remaining_days))
     << ", \"capacity_remaining_pct\": " << JsonNumber(e.capacity_remaining_pct)
     << ", \"model\": " << JsonString(e.model) << ", \"history_days\": " << e.history_days
     << ", \"as_of\": " << (e.as_of ? JsonString(FormatIso(*e.as_of, false)) : "null")
     << ", \"source\": " << JsonString(e.source) << ", \"demand_counter\": " << JsonString(e.demand_counter);
  if (e.scope == "vm") {
    os << ", \"host\": " << JsonString(e.host) << ", \"vcpus\": " << JsonNumber(AsNumber(e.vcpus))
       << ", \"recommended_vcpus\": " << JsonNumber(AsNumber(e.recommended_vcpus)) << ", \"growth_drivers\": [";
    for (size_t i = 0; i < e.growth_drivers.size(); ++i) {
      const GrowthDriver& g = e.growth_drivers[i];
      os << (i ? ", " : "") << "{\"process\": " << JsonString(g.process)
         << ", \"cores_now\": " << JsonNumber(g.cores_now) << ", \"cores_per_30d\": " << JsonNumber(g.cores_per_30d)
         << "}";
    }
    os << "]";
  }
  std::string forecast = ", \"forecast\": [";
  forecast.reserve(e.forecast.size() * 96 + 16);
  for (size_t i = 0; i < e.forecast.size(); ++i) {
    if (i) forecast.append(", ");
    AppendForecastDay(&forecast, e.forecast[i], names);
  }
  os << forecast << "], \"flags\": [";
  for (size_t i = 0; i < e.flags.size(); ++i) {
    const models::Flag& f = e.flags[i];
    os << (i ? ", " : "") << "{\"code\": " << JsonString(f.code)
       << ", \"severity\": " << JsonString(SeverityName(f.severity)) << ", \"message\": " << JsonString(f.message)
       << "}";
  }
  os << "]}";
}

std::string Fixed(const std::optional<double>& v, int decimals) { return v ? FormatFixed(*v, decimals) : "-"; }

}  // namespace

std::string CountText(const std::optional<int>& v) { return v ? std::to_string(*v) : "-"; }

std::string FlagCodes(const std::vector<models::Flag>& flags, std::string_view sep) {
  std::string out;
  for (const models::Flag& f : flags) {
    if (!out.empty()) out += sep;
    out += f.code;
  }
  return out;
}

std::optional<double> AsNumber(const std::optional<int>& v) { return v ? std::optional<double>(*v) : std::nullopt; }

void WriteCapacityJson(std::ostream& os, const CapacityHeader& h, const std::vector<CapacityEntity>& entities) {
  os << "{\"as_of\": " << (h.as_of ? JsonString(FormatIso(*h.as_of, false)) : "null")
     << ", \"risk\": " << JsonString(models::RiskName(h.risk)) << ", \"buffer_pct\": " << JsonNumber(h.buffer_pct)
     << ", \"entities\": [";
  DayNames names;
  for (size_t i = 0; i < entities.size(); ++i) {
    os << (i ? ",\n  " : "\n  ");
    WriteEntityJson(os, entities[i], &names);
  }
  os << (entities.empty() ? "]}\n" : "\n]}\n");
}

void WriteCapacityCsv(std::ostream& os, const std::vector<CapacityEntity>& entities) {
  os << "scope,name,key,host,vcpus,recommended_vcpus,capacity_cores,usable_cores,demand_p95_cores,"
        "time_remaining_days,peak_time_remaining_days,capacity_remaining_pct,history_days,as_of,source,"
        "demand_counter,model,flags\n";
  for (const CapacityEntity& e : entities) {
    os << e.scope << "," << CsvCell(e.name) << "," << CsvCell(e.key) << "," << CsvCell(e.host) << ","
       << CsvNumber(AsNumber(e.vcpus)) << "," << CsvNumber(AsNumber(e.recommended_vcpus)) << ","
       << CsvNumber(e.capacity_cores) << "," << CsvNumber(e.usable_cores) << "," << CsvNumber(e.demand_p95_cores) << ","
       << CsvNumber(AsNumber(e.time_remaining_days)) << "," << CsvNumber(AsNumber(e.peak_time_remaining_days)) << ","
       << CsvNumber(e.capacity_remaining_pct) << "," << e.history_days << ","
       << (e.as_of ? FormatIso(*e.as_of, false) : "") << "," << e.source << "," << CsvCell(e.demand_counter) << ","
       << CsvCell(e.model) << "," << CsvCell(FlagCodes(e.flags)) << "\n";
  }
}

void WriteCapacityForecastCsv(std::ostream& os, const std::vector<CapacityEntity>& entities) {
  os << "scope,key,name,date,lower,mid,upper\n";
  for (const CapacityEntity& e : entities)
    for (const models::ForecastDay& d : e.forecast)
      os << e.scope << "," << CsvCell(e.key) << "," << CsvCell(e.name) << "," << FormatDay(d.day) << ","
         << CsvNumber(d.lower) << "," << CsvNumber(d.mid) << "," << CsvNumber(d.upper) << "\n";
}

void WriteCapacityTable(std::ostream& os, const std::vector<CapacityEntity>& entities) {
  TextTable t({"scope", "name", "vCPUs", "recommended", "demand p95", "usable", "days left", "peak days left",
               "room 3 d", "history", "flags"});
  for (const CapacityEntity& e : entities)
    t.AddRow({e.scope, e.label.empty() ? e.name : e.label, CountText(e.vcpus), CountText(e.recommended_vcpus),
              Fixed(e.demand_p95_cores, 2), Fixed(e.usable_cores, 2), CountText(e.time_remaining_days),
              CountText(e.peak_time_remaining_days),
              e.capacity_remaining_pct ? FormatFixed(*e.capacity_remaining_pct, 0) + "%" : "-",
              std::to_string(e.history_days) + " d", FlagCodes(e.flags)});
  t.Print(os);
  for (const CapacityEntity& e : entities)
    for (const models::Flag& f : e.flags)
      os << "flag " << (e.label.empty() ? e.name : e.label) << " " << f.code << " (" << SeverityName(f.severity)
         << "): " << f.message << "\n";
}

}  // namespace vrecon::report
