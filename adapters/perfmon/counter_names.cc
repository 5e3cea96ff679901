#include "adapters/perfmon/counter_names.h"

#include <array>
#include <unordered_map>

#include "src/core/text_util.h"

namespace vrecon::perfmon {
namespace {

struct Name {
  const char* english;
  std::array<const char*, 6> localized;  // de, fr, es, ru, older spellings; nullptr pads
};

// Sources and confidence for each name: docs/formats/perfmon-csv.md, "Localized names".
constexpr Name kObjects[] = {
    {"Processor", {"Prozessor", "Processeur", "Procesador", "Процессор"}},
    {"Processor Information",
     {"Prozessorinformationen", "Informations sur le processeur", "Información del procesador",
      "Сведения о процессоре"}},
    {"Process", {"Prozess", "Processus", "Proceso", "Процесс"}},
    {"System", {"System", "Système", "Sistema", "Система"}},
    {"Memory", {"Arbeitsspeicher", "Mémoire", "Memoria", "Память", "Speicher"}},
};

struct CounterName {
  const char* object;  // English object the counter belongs to; nullptr = any
  Name name;
};

constexpr CounterName kCounters[] = {
    {nullptr,
     {"% Processor Time",
      {"Prozessorzeit (%)", "% temps processeur", "% de tiempo de procesador", "% загруженности процессора"}}},
    {nullptr,
     {"% User Time",
      {"Benutzerzeit (%)", "% temps utilisateur", "% de tiempo de usuario", "% работы в пользовательском режиме"}}},
    {nullptr,
     {"% Privileged Time",
      {"Privilegierte Zeit (%)", "% temps privilégié", "% de tiempo privilegiado",
       "% работы в привилегированном режиме"}}},
    {nullptr,
     {"% Idle Time",
      {"Leerlaufzeit (%)", "% d'inactivité", "% de tiempo inactivo", "Процент времени бездействия", "% d’inactivité"}}},
    {"System",
     {"Processor Queue Length",
      {"Prozessor-Warteschlangenlänge", "Longueur de la file du processeur", "Longitud de la cola del procesador",
       "Длина очереди процессора"}}},
    {"Process", {"ID Process", {"Prozesskennung", "ID de processus", "Id. de proceso", "Идентификатор процесса"}}},
};

using Table = std::unordered_map<std::string, std::string>;

const Table& ObjectTable() {
  static const Table* t = [] {
    auto* m = new Table;
    for (const Name& n : kObjects) {
      (*m)[FoldCase(n.english)] = n.english;
      for (const char* l : n.localized)
        if (l) (*m)[FoldCase(l)] = n.english;
    }
    return m;
  }();
  return *t;
}

const Table& CounterTable() {
  static const Table* t = [] {
    auto* m = new Table;
    for (const CounterName& c : kCounters) {
      const std::string prefix = c.object ? FoldCase(c.object) + "\\" : std::string("*\\");
      (*m)[prefix + FoldCase(c.name.english)] = c.name.english;
      for (const char* l : c.name.localized)
        if (l) (*m)[prefix + FoldCase(l)] = c.name.english;
    }
    return m;
  }();
  return *t;
}

}  // namespace

std::string EnglishObject(std::string_view object) {
  auto it = ObjectTable().find(FoldCase(object));
  return it == ObjectTable().end() ? std::string(object) : it->second;
}

bool IsKnownObject(std::string_view object) { return ObjectTable().contains(FoldCase(object)); }

std::string EnglishCounter(std::string_view english_object, std::string_view counter) {
  const std::string folded = FoldCase(counter);
  const Table& t = CounterTable();
  auto it = t.find(FoldCase(english_object) + "\\" + folded);
  if (it != t.end()) return it->second;
  it = t.find("*\\" + folded);
  return it == t.end() ? std::string(counter) : it->second;
}

std::string UnitOf(std::string_view c) {
  auto has = [&](std::string_view s) { return c.find(s) != std::string_view::npos; };
  if (has("Wait Time Per Dispatch")) return "ns";
  if (c.starts_with("%") || c.ends_with("(%)") || has(" % ")) return "percent";
  if (c.ends_with("/sec") || c.ends_with("/s")) return "per_second";
  if (has("MHz")) return "MHz";
  if (has("MBytes") || has("MByte") || c.ends_with(" in MB")) return "MB";  // VMware Tools: "Memory Ballooned in MB"
  if (has("Bytes")) return "bytes";
  if (has("Queue Length") || c == "ID Process" || c == "Threads" || c == "Processes" || c == "Handle Count" ||
      c == "Thread Count")
    return "count";
  return "";
}

}  // namespace vrecon::perfmon
