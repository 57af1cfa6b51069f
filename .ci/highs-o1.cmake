# CMake toolchain file that .ci/run hands to the HiGHS build of highs-sys (through the
# CMAKE_TOOLCHAIN_FILE variable the cmake crate reads): HiGHS's C and C++ compiled at -O1
# instead of CMake's Release default of -O3. CI compiles HiGHS from source on every clean
# clone and only solves the tests' small ILPs with it; -O1 builds it in less time with the
# same arithmetic (no fast-math either way). A user's build with `--features highs` is not
# affected.
set(CMAKE_C_FLAGS_RELEASE "-O1 -DNDEBUG" CACHE STRING "")
set(CMAKE_CXX_FLAGS_RELEASE "-O1 -DNDEBUG" CACHE STRING "")
