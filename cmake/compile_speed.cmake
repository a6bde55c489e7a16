# How the big targets compile quickly: unity groups and a precompiled header.
#
# A translation unit here spends its time in three places (g++ -ftime-report): parsing headers,
# instantiating the templates of Eigen and the standard library again in every file, and
# deal.II's headers, which bring Trilinos' and Boost's along (4–10 s for one deal.II header,
# before any code of ours). Unity groups compile several sources as one, so that each header is
# parsed and each template instantiated once per group; the sources that include deal.II go into
# groups of their own, so that those headers are read once per eight such sources rather than once
# per group; the precompiled header holds what nearly every source includes. doc/performance.md
# ("Build") has the measurements. -DVIBROIMPACT_UNITY_BUILD=OFF compiles file by file (to check
# that each source includes what it uses, or to rebuild one edited file alone).
option(VIBROIMPACT_UNITY_BUILD "Compile the library and the tests in unity groups with a precompiled header" ON)
set(VIBROIMPACT_UNITY_BATCH_SIZE 8 CACHE STRING "Sources a unity group holds (the deal.II groups excepted)")

# The headers nearly every source of the project includes, directly or through its own headers.
set(VIBROIMPACT_PRECOMPILED_HEADERS
  <Eigen/Dense> <Eigen/Sparse> <Eigen/SparseCholesky>
  <algorithm> <array> <cmath> <filesystem> <fstream> <functional> <limits> <map> <memory>
  <optional> <sstream> <stdexcept> <string> <utility> <vector>
  # Last: the factorisations compiled once in the library (after the Eigen headers it declares from).
  <vibroimpact/model/eigen_decompositions.h>)

# target: compiled in unity groups with the project's precompiled header, its own (with the
# EXTRA headers, e.g. <gtest/gtest.h> for the tests) or the one of the target REUSE names (same
# headers and flags: compiled once). Sources with their own compile definitions, options or
# include folders are compiled alone (a group would drop those properties).
function(vibroimpact_compile_quickly target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "REUSE" "EXTRA")
  if(NOT VIBROIMPACT_UNITY_BUILD)
    return()
  endif()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
  if(ARG_REUSE)
    target_precompile_headers(${target} REUSE_FROM ${ARG_REUSE})
  else()
    target_precompile_headers(${target} PRIVATE ${VIBROIMPACT_PRECOMPILED_HEADERS} ${ARG_EXTRA})
  endif()
  # In a group every source is an included file, and g++ would warn of each class of a source
  # that holds a type from that source's anonymous namespace, as it does for a header.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE -Wno-subobject-linkage)
  endif()
  get_target_property(sources ${target} SOURCES)
  set(n_plain 0)
  set(n_dealii 0)
  foreach(source ${sources})
    set(alone OFF)
    foreach(property COMPILE_DEFINITIONS COMPILE_OPTIONS INCLUDE_DIRECTORIES)
      get_source_file_property(value ${source} ${property})
      if(value)
        set(alone ON)
      endif()
    endforeach()
    if(alone OR NOT source MATCHES "\\.cc$")
      set_source_files_properties(${source} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON SKIP_PRECOMPILE_HEADERS ON)
      continue()
    endif()
    file(STRINGS ${source} dealii_includes LIMIT_COUNT 1 REGEX "^#include <deal\\.II/")
    if(dealii_includes)
      math(EXPR group "${n_dealii} / 8")
      set(group "dealii_${group}")
      math(EXPR n_dealii "${n_dealii} + 1")
    else()
      math(EXPR group "${n_plain} / ${VIBROIMPACT_UNITY_BATCH_SIZE}")
      math(EXPR n_plain "${n_plain} + 1")
    endif()
    set_source_files_properties(${source} PROPERTIES UNITY_GROUP "${target}_${group}")
  endforeach()
endfunction()
