# Cross-compiling vrecon-agent.exe on Linux with Debian's mingw-w64 (g++-mingw-w64-x86-64):
#   cmake -S . -B build-win -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64.cmake && cmake --build build-win
# Only the agent is built for Windows (see the top-level CMakeLists.txt). The -posix flavour of the
# compiler is preferred (std::thread and friends work); the -win32 one is used when it is the only one.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(VRECON_MINGW_TRIPLE x86_64-w64-mingw32)

find_program(VRECON_MINGW_CXX NAMES ${VRECON_MINGW_TRIPLE}-g++-posix ${VRECON_MINGW_TRIPLE}-g++ REQUIRED)
find_program(VRECON_MINGW_RC NAMES ${VRECON_MINGW_TRIPLE}-windres)
set(CMAKE_CXX_COMPILER ${VRECON_MINGW_CXX})
if(VRECON_MINGW_RC)
  set(CMAKE_RC_COMPILER ${VRECON_MINGW_RC})
endif()

set(CMAKE_FIND_ROOT_PATH /usr/${VRECON_MINGW_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# A self-contained .exe: libstdc++, libgcc and winpthread linked in, nothing to install.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static -static-libgcc -static-libstdc++")
