# Platform variables, set once. The Linux build never compiles Windows-only folders.
if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
  set(VRECON_PLATFORM_LINUX ON)
elseif(CMAKE_SYSTEM_NAME STREQUAL "Windows")
  set(VRECON_PLATFORM_WINDOWS ON)
else()
  message(FATAL_ERROR "vrecon builds on Linux (and, for the guest agent, Windows); not on ${CMAKE_SYSTEM_NAME}")
endif()
