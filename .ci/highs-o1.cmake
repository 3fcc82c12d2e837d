# CMake toolchain file for CI's HiGHS build (highs-sys always builds HiGHS as Release): -O1
# instead of -O3. CI compiles HiGHS once and throws it away, and the tests of puzzlec's
# binding to it solve small models; what -O1 saves is measured in docs/speed.md ("CI").
set(CMAKE_C_FLAGS_RELEASE "-O1 -DNDEBUG" CACHE STRING "" FORCE)
set(CMAKE_CXX_FLAGS_RELEASE "-O1 -DNDEBUG" CACHE STRING "" FORCE)
