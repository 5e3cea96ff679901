#include "agent/windows/win_pdh.h"

#include <pdhmsg.h>

#include "agent/counter_selection.h"
#include "agent/windows/win_text.h"

namespace vrecon::agent::win {

Status WinPdh::OpenQuery() {
  CloseQuery();
  const PDH_STATUS s = PdhOpenQueryW(nullptr, 0, &query_);
  if (s != ERROR_SUCCESS) {
    query_ = nullptr;
    return Status::Unavailable("PdhOpenQuery: " + PdhErrorText(s));
  }
  return Status::Ok();
}

StatusOr<CounterHandle> WinPdh::AddEnglishCounter(const std::string& english_path) {
  if (!query_) return Status::Unavailable("no PDH query open");
  PDH_HCOUNTER h = nullptr;
  const PDH_STATUS s = PdhAddEnglishCounterW(query_, Widen(english_path).c_str(), 0, &h);
  if (s != ERROR_SUCCESS) return Status::NotFound(english_path + ": " + PdhErrorText(s));
  counters_.push_back(h);
  wildcard_.push_back(english_path.find_first_of("*?") != std::string::npos);
  return static_cast<CounterHandle>(counters_.size() - 1);
}

StatusOr<std::vector<std::string>> WinPdh::ExpandWildcard(const std::string& english_path) {
  // PdhExpandWildCardPath takes localized names only: add the English path to a scratch query,
  // ask PDH for its localized full path, and expand that.
  PDH_HQUERY q = nullptr;
  if (PdhOpenQueryW(nullptr, 0, &q) != ERROR_SUCCESS) return Status::Unavailable("PdhOpenQuery failed");
  PDH_HCOUNTER h = nullptr;
  PDH_STATUS s = PdhAddEnglishCounterW(q, Widen(english_path).c_str(), 0, &h);
  if (s != ERROR_SUCCESS) {
    PdhCloseQuery(q);
    return Status::NotFound(english_path + ": " + PdhErrorText(s));
  }
  std::vector<std::string> instances;
  DWORD size = 0;
  s = PdhGetCounterInfoW(h, FALSE, &size, nullptr);
  if (s == static_cast<PDH_STATUS>(PDH_MORE_DATA) && size > 0) {
    std::vector<unsigned char> buf(size);
    auto* info = reinterpret_cast<PDH_COUNTER_INFO_W*>(buf.data());
    if (PdhGetCounterInfoW(h, FALSE, &size, info) == ERROR_SUCCESS && info->szFullPath) {
      DWORD chars = 0;
      s = PdhExpandWildCardPathW(nullptr, info->szFullPath, nullptr, &chars, 0);
      if ((s == static_cast<PDH_STATUS>(PDH_MORE_DATA) || s == ERROR_SUCCESS) && chars > 0) {
        std::wstring list(chars + 2, L'\0');
        if (PdhExpandWildCardPathW(nullptr, info->szFullPath, list.data(), &chars, 0) == ERROR_SUCCESS) {
          for (const wchar_t* p = list.c_str(); *p; p += wcslen(p) + 1) {
            auto spec = ParseCounterPath(Narrow(p));
            if (spec.ok()) instances.push_back(spec->instance);
          }
        }
      }
    }
  }
  PdhCloseQuery(q);
  return instances;
}

PdhStatus WinPdh::Collect() {
  if (!query_) return PDH_INVALID_HANDLE;
  return static_cast<PdhStatus>(PdhCollectQueryData(query_));
}

PdhArray WinPdh::GetFormattedArray(CounterHandle counter) {
  PdhArray out;
  if (counter >= counters_.size()) {
    out.status = PDH_INVALID_HANDLE;
    return out;
  }
  const DWORD fmt = PDH_FMT_DOUBLE | PDH_FMT_NOCAP100;
  if (!wildcard_[counter]) {
    // One value: PdhGetFormattedCounterValue gives the same as a one-item array (and is the
    // call wine implements, which lets the wine smoke test read \System\System Up Time).
    PDH_FMT_COUNTERVALUE v{};
    DWORD type = 0;
    const PDH_STATUS s1 = PdhGetFormattedCounterValue(counters_[counter], fmt, &type, &v);
    out.status = static_cast<PdhStatus>(s1);
    if (s1 == ERROR_SUCCESS || s1 == static_cast<PDH_STATUS>(PDH_CSTATUS_INVALID_DATA) ||
        s1 == static_cast<PDH_STATUS>(PDH_INVALID_DATA)) {
      out.status = kPdhValidData;
      out.items.push_back(PdhItem{"", static_cast<PdhStatus>(v.CStatus), v.doubleValue});
      if (s1 != ERROR_SUCCESS && PdhItemOk(out.items.back().status))
        out.items.back().status = static_cast<PdhStatus>(s1);
    }
    return out;
  }
  DWORD size = 0, count = 0;
  PDH_STATUS s = PdhGetFormattedCounterArrayW(counters_[counter], fmt, &size, &count, nullptr);
  if (s == static_cast<PDH_STATUS>(PDH_MORE_DATA)) {
    buffer_.assign(size, 0);
    s = PdhGetFormattedCounterArrayW(counters_[counter], fmt, &size, &count,
                                     reinterpret_cast<PDH_FMT_COUNTERVALUE_ITEM_W*>(buffer_.data()));
  }
  out.status = static_cast<PdhStatus>(s);
  if (s != ERROR_SUCCESS) return out;
  const auto* items = reinterpret_cast<const PDH_FMT_COUNTERVALUE_ITEM_W*>(buffer_.data());
  out.items.reserve(count);
  for (DWORD i = 0; i < count; ++i) {
    PdhItem it;
    it.name = items[i].szName ? Narrow(items[i].szName) : std::string();
    it.status = static_cast<PdhStatus>(items[i].FmtValue.CStatus);
    it.value = items[i].FmtValue.doubleValue;
    out.items.push_back(std::move(it));
  }
  return out;
}

void WinPdh::CloseQuery() {
  if (query_) PdhCloseQuery(query_);  // also frees its counters
  query_ = nullptr;
  counters_.clear();
  wildcard_.clear();
}

WinClock::WinClock() : stop_event_(CreateEventW(nullptr, TRUE, FALSE, nullptr)) {}
WinClock::~WinClock() { CloseHandle(stop_event_); }

namespace {
std::int64_t UtcMs(const FILETIME& ft) {
  ULARGE_INTEGER u;
  u.LowPart = ft.dwLowDateTime;
  u.HighPart = ft.dwHighDateTime;
  return static_cast<std::int64_t>(u.QuadPart / 10000) - 11644473600000LL;  // 1601 -> 1970
}
}  // namespace

Stamp WinClock::Now() {
  Stamp st;
  SYSTEMTIME utc, local;
  GetSystemTime(&utc);
  FILETIME ft;
  SystemTimeToFileTime(&utc, &ft);
  st.utc_ms = UtcMs(ft);
  if (!SystemTimeToTzSpecificLocalTime(nullptr, &utc, &local)) GetLocalTime(&local);
  st.local = perfmon::LocalTime{local.wYear,   local.wMonth,  local.wDay,         local.wHour,
                                local.wMinute, local.wSecond, local.wMilliseconds};
  TIME_ZONE_INFORMATION tz{};
  const DWORD which = GetTimeZoneInformation(&tz);
  const bool daylight = which == TIME_ZONE_ID_DAYLIGHT;
  st.zone.name = Narrow(daylight ? tz.DaylightName : tz.StandardName);
  st.zone.bias_minutes = static_cast<int>(tz.Bias + (daylight ? tz.DaylightBias : tz.StandardBias));
  return st;
}

bool WinClock::SleepUntil(std::int64_t utc_ms) {
  for (;;) {
    const std::int64_t left = utc_ms - Now().utc_ms;
    if (left <= 0) return !StopRequested();
    if (WaitForSingleObject(stop_event_, static_cast<DWORD>(left)) == WAIT_OBJECT_0) return false;
  }
}

bool WinClock::StopRequested() { return WaitForSingleObject(stop_event_, 0) == WAIT_OBJECT_0; }
void WinClock::RequestStop() { SetEvent(stop_event_); }

std::string LocalComputerName() {
  wchar_t name[MAX_COMPUTERNAME_LENGTH + 1];
  DWORD n = MAX_COMPUTERNAME_LENGTH + 1;
  if (!GetComputerNameW(name, &n)) return "localhost";
  return Narrow(std::wstring(name, n));
}

}  // namespace vrecon::agent::win
