# Writes the ctest file of the GoogleTest binary. The binary's start-up (~0.4 s of loading
# deal.II's and Trilinos' libraries) is paid per process, so tests are grouped into processes:
#   - one ctest test per test suite, by default;
#   - one per test for the suites in ISOLATED: those whose tests must not share a process
#     (NewSolver runs `sweep` in-process, which initialises and finalises MPI), and those whose
#     tests are each long (the fuzz corpus, one example a test);
#   - SHARDS=Suite:n splits a long suite into n processes by GoogleTest's own sharding
#     (GTEST_TOTAL_SHARDS, GTEST_SHARD_INDEX), so that both cores stay busy to the end.
# The other suites, each a few seconds or less, are packed into PACKS processes (a suite's
# start-up would otherwise be as long as its tests).
# COST=Suite:seconds gives ctest the long ones' measured cost on a clean clone (which has no
# cost data yet), so that it starts them first.
#
#   cmake -DTEST_EXECUTABLE=... -DCTEST_FILE=... -DWORKING_DIRECTORY=... -DTMPDIR=...
#         -DISOLATED=A,B -DSHARDS=C:3,D:2 -DCOST=C:60,D:30 -DPACKS=4 -P add_suites.cmake
string(REPLACE "," ";" ISOLATED "${ISOLATED}")
string(REPLACE "," ";" SHARDS "${SHARDS}")
string(REPLACE "," ";" COST "${COST}")
execute_process(COMMAND ${TEST_EXECUTABLE} --gtest_list_tests
  OUTPUT_VARIABLE listing RESULT_VARIABLE failed TIMEOUT 60)
if(failed)
  message(FATAL_ERROR "${TEST_EXECUTABLE} --gtest_list_tests failed: ${failed}")
endif()
string(REPLACE ";" "\\;" listing "${listing}")
string(REPLACE "\n" ";" lines "${listing}")

# The value given for `suite` in a list of Suite:value pairs, or empty.
function(value_for suite pairs result)
  set(${result} "" PARENT_SCOPE)
  foreach(pair IN LISTS pairs)
    if(pair MATCHES "^(.+):([0-9.]+)$" AND CMAKE_MATCH_1 STREQUAL suite)
      set(${result} "${CMAKE_MATCH_2}" PARENT_SCOPE)
    endif()
  endforeach()
endfunction()

set(script "")
set(suite "")
set(packed "")
# environment: "|NAME=value|NAME=value" added to TMPDIR.
macro(add_one name filter environment cost)
  # One OpenBLAS thread, as the program has (source/app/main.cc): ctest runs tests side by side.
  string(REPLACE "|" ";" variables "TMPDIR=${TMPDIR}|OPENBLAS_NUM_THREADS=1${environment}")
  string(APPEND script "add_test([=[${name}]=] [==[${TEST_EXECUTABLE}]==] [==[--gtest_filter=${filter}]==])\n"
    "set_tests_properties([=[${name}]=] PROPERTIES WORKING_DIRECTORY [==[${WORKING_DIRECTORY}]==] "
    "ENVIRONMENT [==[${variables}]==]")
  if(NOT "${cost}" STREQUAL "")
    string(APPEND script " COST ${cost}")
  endif()
  string(APPEND script ")\n")
endmacro()
foreach(line IN LISTS lines)
  if(line MATCHES "^([^ #][^ ]*)\\.( |$)")          # "Suite." (a comment may follow)
    set(suite "${CMAKE_MATCH_1}")
    list(FIND ISOLATED "${suite}" isolated)
    value_for("${suite}" "${SHARDS}" n_shards)
    value_for("${suite}" "${COST}" cost)
    if(NOT isolated EQUAL -1)
      # one per test, below
    elseif(n_shards)
      math(EXPR last "${n_shards} - 1")
      foreach(shard RANGE ${last})
        math(EXPR shard_cost "${cost}0 / ${n_shards} / 10") # empty cost: 0
        add_one("${suite}.shard${shard}of${n_shards}" "${suite}.*"
          "|GTEST_TOTAL_SHARDS=${n_shards}|GTEST_SHARD_INDEX=${shard}" "${shard_cost}")
      endforeach()
    elseif(NOT "${cost}" STREQUAL "")
      add_one("${suite}" "${suite}.*" "" "${cost}")
    else()
      list(APPEND packed "${suite}")
    endif()
  elseif(line MATCHES "^  ([^ ]+)" AND NOT suite STREQUAL "")   # "  Test" (a comment may follow)
    set(test "${CMAKE_MATCH_1}")
    list(FIND ISOLATED "${suite}" isolated)
    if(NOT isolated EQUAL -1 AND NOT test MATCHES "^DISABLED_")
      value_for("${suite}.${test}" "${COST}" cost)
      add_one("${suite}.${test}" "${suite}.${test}" "" "${cost}")
    endif()
  endif()
endforeach()
# Round robin: neighbours in the listing (one source file's suites) go to different packs.
list(LENGTH packed n_packed)
if(n_packed GREATER 0)
  math(EXPR last "${PACKS} - 1")
  foreach(pack RANGE ${last})
    set(filter "")
    set(index 0)
    foreach(suite IN LISTS packed)
      math(EXPR owner "${index} % ${PACKS}")
      if(owner EQUAL pack)
        string(APPEND filter ":${suite}.*")
      endif()
      math(EXPR index "${index} + 1")
    endforeach()
    if(NOT filter STREQUAL "")
      string(SUBSTRING "${filter}" 1 -1 filter)
      add_one("ShortSuites.pack${pack}of${PACKS}" "${filter}" "" "")
    endif()
  endforeach()
endif()
file(WRITE "${CTEST_FILE}" "${script}")
