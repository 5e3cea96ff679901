// The English meaning of localized Perfmon object and counter names, and the unit a counter's
// values carry. Windows writes counter paths in the language of the OS that logged them.
#ifndef VRECON_ADAPTERS_PERFMON_COUNTER_NAMES_H_
#define VRECON_ADAPTERS_PERFMON_COUNTER_NAMES_H_

#include <string>
#include <string_view>

namespace vrecon::perfmon {

// English name of a localized object ("Процесс" -> "Process"); the input itself when it is not
// a name vrecon knows (English names map to themselves).
std::string EnglishObject(std::string_view object);
// English name of a localized counter of an English object.
std::string EnglishCounter(std::string_view english_object, std::string_view counter);
// True when the name was found in the table (English or localized).
bool IsKnownObject(std::string_view object);

// percent, per_second, bytes, MB, MHz, ns, count or "" (unknown).
std::string UnitOf(std::string_view english_counter);

}  // namespace vrecon::perfmon

#endif  // VRECON_ADAPTERS_PERFMON_COUNTER_NAMES_H_
