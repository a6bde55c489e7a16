# `mpirun -np 2 vibroimpact sweep` writes the same tables as the serial run, byte for byte (the
# Poincaré and impact tables of a parameter sweep, or the statistics of a seed ensemble); the
# values really were shared by both ranks; bad input under mpirun is reported once. Run by ctest:
#   cmake -DCLI=<vibroimpact> -DMPIRUN=<mpirun> -DCASE=<case.prm> -DWORK_DIR=<dir>
#         -DARGS=<overrides> -DTABLES=<files> -DBAD=<override> -DBAD_PARAMETER=<its name> -P sweep_mpi.cmake
# ARGS and TABLES separate their items with '|' (a ';' would not survive add_test).
foreach(var CLI MPIRUN CASE WORK_DIR ARGS TABLES BAD BAD_PARAMETER)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "sweep_mpi.cmake: -D${var}=... is required")
  endif()
endforeach()
string(REPLACE "|" ";" ARGS "${ARGS}")
string(REPLACE "|" ";" TABLES "${TABLES}")

# Open MPI refuses to run as root (CI) without these.
set(ENV{OMPI_ALLOW_RUN_AS_ROOT} 1)
set(ENV{OMPI_ALLOW_RUN_AS_ROOT_CONFIRM} 1)

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(args sweep ${CASE} -q)
foreach(override ${ARGS})
  list(APPEND args -s ${override})
endforeach()

execute_process(COMMAND ${CLI} ${args} -o ${WORK_DIR}/serial
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "serial sweep failed (${rc}): ${out}${err}")
endif()

execute_process(COMMAND ${MPIRUN} --oversubscribe -np 2 ${CLI} ${args} -o ${WORK_DIR}/mpi
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "mpirun -np 2 sweep failed (${rc}): ${out}${err}")
endif()

foreach(table ${TABLES})
  file(READ ${WORK_DIR}/serial/${table} serial)
  file(READ ${WORK_DIR}/mpi/${table} parallel)
  if(NOT serial STREQUAL parallel)
    message(FATAL_ERROR "${table} of mpirun -np 2 differs from the serial run")
  endif()
  string(LENGTH "${serial}" size)
  message(STATUS "${table}: identical (${size} bytes)")
endforeach()

# Both ranks computed: sweep.txt says so, and for a parameter sweep rank 1 computed values 1, 3,
# 5 (the last column of sweep_summary.csv is the rank).
file(READ ${WORK_DIR}/mpi/sweep.txt summary)
if(NOT summary MATCHES "ranks 2:")
  message(FATAL_ERROR "sweep.txt of mpirun -np 2 does not report two ranks: ${summary}")
endif()
if(EXISTS ${WORK_DIR}/mpi/sweep_summary.csv)
  file(STRINGS ${WORK_DIR}/mpi/sweep_summary.csv rows)
  list(GET rows 2 second)
  if(NOT second MATCHES ",1$")
    message(FATAL_ERROR "value 1 was not computed by rank 1: '${second}'")
  endif()
endif()

# Bad input: exit code 2 from the program, one line from rank 0 only.
execute_process(COMMAND ${MPIRUN} --oversubscribe -np 2 ${CLI} ${args} -s ${BAD}
  -o ${WORK_DIR}/bad RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "a bad ${BAD} did not fail under mpirun")
endif()
string(REGEX MATCHALL "vibroimpact: error:[^\n]*" lines "${err}")
list(LENGTH lines n_lines)
if(NOT n_lines EQUAL 1 OR NOT err MATCHES "${BAD_PARAMETER}")
  message(FATAL_ERROR "expected one error line naming ${BAD_PARAMETER}, got ${n_lines}: ${err}")
endif()
if(EXISTS ${WORK_DIR}/bad)
  message(FATAL_ERROR "a failed sweep wrote output")
endif()
message(STATUS "bad input under mpirun: one line, exit code ${rc}")
