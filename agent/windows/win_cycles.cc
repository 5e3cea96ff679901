#include "agent/windows/win_cycles.h"

#include <winternl.h>

#include <cstddef>
#include <string>

#include "agent/windows/win_text.h"

extern "C" NTSTATUS NTAPI RtlGetVersion(PRTL_OSVERSIONINFOW info);  // ntdll; declared only in the DDK

namespace vrecon::agent::win {
namespace {

// SYSTEM_PROCESS_INFORMATION as the kernel fills it. winternl.h hides the fields before
// CreateTime in Reserved[3]; their layout is System Informer's (phnt ntexapi.h), the one seed 004
// quotes.
struct ProcessEntry {
  ULONG NextEntryOffset;
  ULONG NumberOfThreads;
  LARGE_INTEGER WorkingSetPrivateSize;
  ULONG HardFaultCount;
  ULONG NumberOfThreadsHighWatermark;
  ULONGLONG CycleTime;
  LARGE_INTEGER CreateTime;
  LARGE_INTEGER UserTime;
  LARGE_INTEGER KernelTime;
  UNICODE_STRING ImageName;
  LONG BasePriority;
  HANDLE UniqueProcessId;
};
static_assert(offsetof(ProcessEntry, ImageName) == offsetof(SYSTEM_PROCESS_INFORMATION, ImageName));
static_assert(offsetof(ProcessEntry, UniqueProcessId) == offsetof(SYSTEM_PROCESS_INFORMATION, UniqueProcessId));

constexpr NTSTATUS kInfoLengthMismatch = static_cast<NTSTATUS>(0xC0000004L);  // STATUS_INFO_LENGTH_MISMATCH

// Perfmon's instance name: the image name without ".exe"; the System process has none.
std::string InstanceName(const ProcessEntry& e, std::uint32_t pid) {
  if (e.ImageName.Buffer == nullptr || e.ImageName.Length == 0) return pid == 4 ? "System" : "Unknown";
  std::wstring name(e.ImageName.Buffer, e.ImageName.Length / sizeof(wchar_t));
  if (name.size() > 4 && _wcsicmp(name.c_str() + name.size() - 4, L".exe") == 0) name.resize(name.size() - 4);
  return Narrow(name);
}

}  // namespace

StatusOr<CycleSnapshot> WinCycles::Read() {
  if (buffer_.empty()) buffer_.resize(256 * 1024);
  NTSTATUS status = 0;
  for (int tries = 0; tries < 8; ++tries) {
    ULONG needed = 0;
    status =
        NtQuerySystemInformation(SystemProcessInformation, buffer_.data(), static_cast<ULONG>(buffer_.size()), &needed);
    if (status != kInfoLengthMismatch) break;
    buffer_.resize(std::max<size_t>(needed, buffer_.size()) + 64 * 1024);  // processes start meanwhile
  }
  if (status < 0)
    return Status::Unavailable("NtQuerySystemInformation(SystemProcessInformation) failed with NTSTATUS 0x" +
                               std::to_string(static_cast<unsigned long>(status)));
  CycleSnapshot snap;
  for (size_t at = 0;;) {
    const auto* e = reinterpret_cast<const ProcessEntry*>(buffer_.data() + at);
    const auto pid = static_cast<std::uint32_t>(reinterpret_cast<ULONG_PTR>(e->UniqueProcessId));
    if (pid != 0) snap.processes.push_back({pid, InstanceName(*e, pid), e->CycleTime, e->CreateTime.QuadPart});
    if (e->NextEntryOffset == 0) break;
    at += e->NextEntryOffset;
  }
  // Looked up rather than imported: a system without it (wine) then gets blank cycle cells
  // instead of an agent that cannot start.
  using QueryIdleFn = BOOL(WINAPI*)(USHORT, PULONG, PULONG64);
  static const auto query_idle = reinterpret_cast<QueryIdleFn>(
      reinterpret_cast<void*>(GetProcAddress(GetModuleHandleW(L"kernel32.dll"), "QueryIdleProcessorCycleTimeEx")));
  if (!query_idle) return Status::NotSupported("QueryIdleProcessorCycleTimeEx is not available on this system");
  const WORD groups = GetActiveProcessorGroupCount();
  for (WORD g = 0; g < groups; ++g) {
    std::vector<std::uint64_t> idle(GetActiveProcessorCount(g));
    ULONG bytes = static_cast<ULONG>(idle.size() * sizeof(ULONG64));
    if (!query_idle(g, &bytes, reinterpret_cast<PULONG64>(idle.data())))
      return Status::Unavailable("QueryIdleProcessorCycleTimeEx for processor group " + std::to_string(g) +
                                 " failed with error " + std::to_string(GetLastError()));
    idle.resize(bytes / sizeof(ULONG64));
    snap.idle_cycles.push_back(std::move(idle));
  }
  return snap;
}

SystemIdentity WinCycles::Identity() {
  SystemIdentity id;
  RTL_OSVERSIONINFOW v{};
  v.dwOSVersionInfoSize = sizeof v;
  if (RtlGetVersion(&v) == 0) id.os_build = v.dwBuildNumber;
  // An x64 agent emulated on ARM64 sees x64 from GetNativeSystemInfo; IsWow64Process2 (Windows 10
  // 1709 and later, looked up so that older systems still start) names the machine itself.
  using IsWow64Process2Fn = BOOL(WINAPI*)(HANDLE, USHORT*, USHORT*);
  const auto is_wow64_process2 = reinterpret_cast<IsWow64Process2Fn>(
      reinterpret_cast<void*>(GetProcAddress(GetModuleHandleW(L"kernel32.dll"), "IsWow64Process2")));
  USHORT process_machine = 0, native_machine = 0;
  if (is_wow64_process2 && is_wow64_process2(GetCurrentProcess(), &process_machine, &native_machine) &&
      native_machine == 0xAA64) {  // IMAGE_FILE_MACHINE_ARM64
    id.architecture = kArchArm64;
    return id;
  }
  SYSTEM_INFO si;
  GetNativeSystemInfo(&si);
  id.architecture = si.wProcessorArchitecture;
  return id;
}

}  // namespace vrecon::agent::win
