#include "src/core/host_counters.h"

#include <array>
#include <utility>

namespace vrecon {
namespace {

template <typename E>
struct Entry {
  E choice;
  std::string_view word;
  std::string_view counter;
};

constexpr std::array<Entry<HyperVCounter>, 2> kHyperV = {{
    {HyperVCounter::kTotalRunTime, "total", kHyperVTotalRunCounter},
    {HyperVCounter::kGuestRunTime, "guest", kHyperVGuestRunCounter},
}};
constexpr std::array<Entry<VsphereCounter>, 2> kVsphere = {{
    {VsphereCounter::kUsage, "usage", kVsphereUsageCounter},
    {VsphereCounter::kRun, "run", kVsphereRunCounter},
}};
constexpr std::array<Entry<EsxtopCounter>, 2> kEsxtop = {{
    {EsxtopCounter::kUsed, "used", kEsxtopUsedCounter},
    {EsxtopCounter::kRun, "run", kEsxtopRunCounter},
}};

// Every enumerator is in its table, so the first entry is only reached for a value cast from
// outside the enum.
template <typename E, size_t N>
const Entry<E>& Find(const std::array<Entry<E>, N>& table, E choice) {
  for (const Entry<E>& e : table)
    if (e.choice == choice) return e;
  return table.front();
}

template <typename E, size_t N>
std::optional<E> Parse(const std::array<Entry<E>, N>& table, std::string_view word) {
  for (const Entry<E>& e : table)
    if (e.word == word) return e.choice;
  return std::nullopt;
}

template <typename E, size_t N>
std::vector<std::string> Words(const std::array<Entry<E>, N>& table) {
  std::vector<std::string> out;
  out.reserve(N);
  for (const Entry<E>& e : table) out.emplace_back(e.word);
  return out;
}

}  // namespace

std::string_view CounterName(HyperVCounter c) { return Find(kHyperV, c).counter; }
std::string_view CounterName(VsphereCounter c) { return Find(kVsphere, c).counter; }
std::string_view CounterName(EsxtopCounter c) { return Find(kEsxtop, c).counter; }

std::string_view OptionWord(HyperVCounter c) { return Find(kHyperV, c).word; }
std::string_view OptionWord(VsphereCounter c) { return Find(kVsphere, c).word; }
std::string_view OptionWord(EsxtopCounter c) { return Find(kEsxtop, c).word; }

std::vector<std::string> HyperVCounterWords() { return Words(kHyperV); }
std::vector<std::string> VsphereCounterWords() { return Words(kVsphere); }
std::vector<std::string> EsxtopCounterWords() { return Words(kEsxtop); }

std::optional<HyperVCounter> ParseHyperVCounter(std::string_view word) { return Parse(kHyperV, word); }
std::optional<VsphereCounter> ParseVsphereCounter(std::string_view word) { return Parse(kVsphere, word); }
std::optional<EsxtopCounter> ParseEsxtopCounter(std::string_view word) { return Parse(kEsxtop, word); }

std::string MustBeOneOf(const std::vector<std::string>& words) {
  std::string out = "must be";
  for (size_t i = 0; i < words.size(); ++i) {
    out += i == 0 ? " " : i + 1 == words.size() ? " or " : ", ";
    out += "\"" + words[i] + "\"";
  }
  return out;
}

}  // namespace vrecon
