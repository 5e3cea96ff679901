// The host-side CPU counters a VM's correction can divide by, under the names the store keeps
// them, and which one stands for the VM where a source stores two. One type for the choice the
// user makes (--hyperv-counter, --vsphere-counter, --esxtop-counter; a fleet file's
// vsphere_counter and esxtop_counter): the words of the options, the counters they name and the
// checks are all read from the tables in host_counters.cc.
#ifndef VRECON_SRC_CORE_HOST_COUNTERS_H_
#define VRECON_SRC_CORE_HOST_COUNTERS_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vrecon {

// The counters' names as the store keeps them (SeriesKey::counter).
inline constexpr std::string_view kVsphereUsageCounter = "cpu.usage.average";  // % of capacity, frequency-scaled
inline constexpr std::string_view kVsphereRunCounter = "cpu.run.summation";    // ms of the interval, summed over vCPUs
inline constexpr std::string_view kEsxtopUsedCounter = "% Used";               // group, frequency-scaled, with % System
inline constexpr std::string_view kEsxtopRunCounter = "% Run";                 // group, time
inline constexpr std::string_view kHyperVTotalRunCounter = "% Total Run Time";  // VP: guest + hypervisor
inline constexpr std::string_view kHyperVGuestRunCounter = "% Guest Run Time";  // VP: guest code only

// Each source's default counter first; the other counts time as the guest's ticks do.
enum class HyperVCounter { kTotalRunTime, kGuestRunTime };  // "total", "guest"
enum class VsphereCounter { kUsage, kRun };                 // "usage", "run"
enum class EsxtopCounter { kUsed, kRun };                   // "used", "run"

struct HostCounterChoice {
  HyperVCounter hyperv = HyperVCounter::kTotalRunTime;
  VsphereCounter vsphere = VsphereCounter::kUsage;
  EsxtopCounter esxtop = EsxtopCounter::kUsed;
};

// The stored counter a choice names.
std::string_view CounterName(HyperVCounter c);
std::string_view CounterName(VsphereCounter c);
std::string_view CounterName(EsxtopCounter c);

// The option's word for a choice ("usage", "run", ...), and every word in the options' order.
std::string_view OptionWord(HyperVCounter c);
std::string_view OptionWord(VsphereCounter c);
std::string_view OptionWord(EsxtopCounter c);
std::vector<std::string> HyperVCounterWords();
std::vector<std::string> VsphereCounterWords();
std::vector<std::string> EsxtopCounterWords();

// The choice an option's word names; nullopt for any other word.
std::optional<HyperVCounter> ParseHyperVCounter(std::string_view word);
std::optional<VsphereCounter> ParseVsphereCounter(std::string_view word);
std::optional<EsxtopCounter> ParseEsxtopCounter(std::string_view word);

// "must be \"usage\" or \"run\"": what a message about a bad word says the word must be.
std::string MustBeOneOf(const std::vector<std::string>& words);

}  // namespace vrecon

#endif  // VRECON_SRC_CORE_HOST_COUNTERS_H_
