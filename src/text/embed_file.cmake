# Turns a data file into a C++ source defining `std::string_view NAME()`.
# Usage: cmake -DIN=file -DOUT=file.cc -DNAME=Fn -P embed_file.cmake
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" n)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${hex}")
file(WRITE "${OUT}" "// Generated from ${IN}; do not edit.\n#include <string_view>\nnamespace schedmate {\nnamespace { const char kData[] = {${bytes} 0}; }\nstd::string_view ${NAME}() { return std::string_view(kData, sizeof(kData) - 1); }\n}  // namespace schedmate\n")
