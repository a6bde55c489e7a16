# Writes the ctest file of the GoogleTest binary: one ctest test per test suite (one process, so
# that the binary's start-up, ~0.5 s of loading deal.II's and Trilinos' libraries, is paid per
# suite rather than per test: ~230 start-ups fewer, a minute of the suite's wall time on two
# cores), and one per test for the suites in ISOLATED: those whose tests must not share a
# process (NewSolver runs `sweep` in-process, which initialises and finalises MPI), and the long
# ones (Fuzz), which then spread over the cores.
#
#   cmake -DTEST_EXECUTABLE=... -DCTEST_FILE=... -DWORKING_DIRECTORY=... -DTMPDIR=...
#         -DISOLATED=A,B -P add_suites.cmake
string(REPLACE "," ";" ISOLATED "${ISOLATED}")
execute_process(COMMAND ${TEST_EXECUTABLE} --gtest_list_tests
  OUTPUT_VARIABLE listing RESULT_VARIABLE failed TIMEOUT 60)
if(failed)
  message(FATAL_ERROR "${TEST_EXECUTABLE} --gtest_list_tests failed: ${failed}")
endif()
string(REPLACE ";" "\\;" listing "${listing}")
string(REPLACE "\n" ";" lines "${listing}")
set(script "")
set(suite "")
macro(add_one name filter)
  string(APPEND script "add_test([=[${name}]=] [==[${TEST_EXECUTABLE}]==] [==[--gtest_filter=${filter}]==])\n"
    "set_tests_properties([=[${name}]=] PROPERTIES WORKING_DIRECTORY [==[${WORKING_DIRECTORY}]==] "
    "ENVIRONMENT [==[TMPDIR=${TMPDIR}]==])\n")
endmacro()
foreach(line IN LISTS lines)
  if(line MATCHES "^([^ #][^ ]*)\\.( |$)")          # "Suite." (a comment may follow)
    set(suite "${CMAKE_MATCH_1}")
    list(FIND ISOLATED "${suite}" isolated)
    if(isolated EQUAL -1)
      add_one("${suite}" "${suite}.*")
    endif()
  elseif(line MATCHES "^  ([^ ]+)" AND NOT suite STREQUAL "")   # "  Test" (a comment may follow)
    set(test "${CMAKE_MATCH_1}")
    list(FIND ISOLATED "${suite}" isolated)
    if(NOT isolated EQUAL -1 AND NOT test MATCHES "^DISABLED_")
      add_one("${suite}.${test}" "${suite}.${test}")
    endif()
  endif()
endforeach()
file(WRITE "${CTEST_FILE}" "${script}")
