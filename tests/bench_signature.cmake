# bench_signature.cmake - ctest step: `renju bench` must print the signature recorded in the tree.
#   cmake -DRENJU=path/to/renju -DSIGNATURE_FILE=tests/data/bench-signature.txt -P bench_signature.cmake
# The signature hashes the bench's node counts and results (solver/cli/bench.h), not its timings:
# a refactor keeps it; a change to the search changes it, and must update the file on purpose.
file(STRINGS "${SIGNATURE_FILE}" lines REGEX "^[0-9a-f]+$")
list(LENGTH lines n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "${SIGNATURE_FILE}: expected exactly one line holding the signature in hex")
endif()
list(GET lines 0 want)
execute_process(COMMAND "${RENJU}" bench OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "renju bench exited with ${rc}")
endif()
if(NOT out MATCHES "Bench: ([0-9a-f]+)")
  message(FATAL_ERROR "renju bench printed no 'Bench: <signature>' line:\n${out}")
endif()
set(got "${CMAKE_MATCH_1}")
if(NOT got STREQUAL want)
  message(FATAL_ERROR "renju bench signature ${got}, recorded ${want} (${SIGNATURE_FILE}). "
                      "A change to the search changes it: if that is intended, record the new one there "
                      "and quote it in the commit message.")
endif()
message(STATUS "Bench: ${got} (as recorded)")
