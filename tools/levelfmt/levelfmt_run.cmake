# Runs levelfmt for the ctest tests (tests/game/CMakeLists.txt), one scenario per MODE:
#   -DEXE=levelfmt -DSRC=<project source dir> -DWORK=<a scratch folder in the build tree>
#   MODE=print   levelfmt on every shipped level: exit 0, a header per file, the comments
#                kept with their lines; --check on them lists none (they are canonical)
#   MODE=write   copies of the shipped levels and fixtures: --check lists the ones not in
#                the form (exit 1), -w rewrites them (exit 0) keeping their comments, then
#                --check passes, a second
#                -w changes nothing, and printing a canonical file gives its bytes
#   MODE=broken  -w on a broken level and a good one: exit 1, the loader's error, the
#                broken file byte for byte as it was, no temporary left beside it
#   MODE=usage   no file: exit 2 and the usage; --help: exit 0
# A copied folder is made afresh each run, so a failed run leaves nothing that makes the
# next one pass.
cmake_minimum_required(VERSION 3.16)

function(run expect_rc)
  execute_process(COMMAND $ENV{AD_RUN} ${EXE} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("$ levelfmt ${ARGN}\n${out}${err}")
  # The exact status: a crash is not the expected failure.
  if(NOT "${rc}" STREQUAL "${expect_rc}")
    message(FATAL_ERROR "levelfmt exited with '${rc}', expected ${expect_rc}")
  endif()
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()

function(expect_match text re)
  if(NOT "${text}" MATCHES "${re}")
    message(FATAL_ERROR "levelfmt output does not match '${re}'")
  endif()
endfunction()

# Every file of `pattern`, sorted; none is a failure (nothing checked is not a pass).
function(glob_levels var pattern)
  file(GLOB files ${pattern})
  if(NOT files)
    message(FATAL_ERROR "no files match ${pattern}")
  endif()
  list(SORT files)
  set(${var} ${files} PARENT_SCOPE)
endfunction()

if(MODE STREQUAL "print")
  glob_levels(levels "${SRC}/levels/*.lvl")
  run(0 ${levels})
  list(LENGTH levels n)
  string(REGEX MATCHALL "==> [^\n]*\\.lvl <==\n" headers "${out}")
  list(LENGTH headers nh)
  if(NOT nh EQUAL n)
    message(FATAL_ERROR "${nh} headers for ${n} files")
  endif()
  # The comments are kept, each with its line: the first file's opening one before its name.
  expect_match("${out}" "==> [^\n]*/01-first-steps\\.lvl <==\n# Level 1 teaches walking[^\n]*\nname: ")
  expect_match("${out}" "\n# Signs: [^\n]*\nsign ")
  # The shipped levels are canonical (comments and all): --check lists none.
  run(0 --check ${levels})
  if(NOT out STREQUAL "")
    message(FATAL_ERROR "shipped levels not in the canonical form: ${out}")
  endif()

elseif(MODE STREQUAL "write")
  file(REMOVE_RECURSE "${WORK}")
  file(MAKE_DIRECTORY "${WORK}/levels" "${WORK}/good")
  glob_levels(levels "${SRC}/levels/*.lvl")
  file(COPY ${levels} DESTINATION "${WORK}/levels")
  file(COPY "${SRC}/tests/game/levels/good/a.lvl" "${SRC}/tests/game/levels/good/b.lvl" DESTINATION "${WORK}/good")
  glob_levels(copies "${WORK}/levels/*.lvl")
  # Comments on lines the form drops (a default pool size, an enemy without hp=) are kept.
  file(WRITE "${WORK}/good/dropped.lvl" "name: T\nbullets: 256   # the default, dropped\nmap:\n####\n#@p#\n#X.#\n####\nend\n# about the enemy\nenemy 2 1   # no hp: dropped\nsign 2 2 hi # trailing\n# the end\n")
  set(copies ${copies} "${WORK}/good/a.lvl" "${WORK}/good/b.lvl" "${WORK}/good/dropped.lvl")
  # a.lvl is not canonical: it is listed, and nothing is written.
  file(SHA256 "${WORK}/good/a.lvl" a_before)
  run(1 --check ${copies})
  expect_match("${out}" "good/a\\.lvl\n")
  file(SHA256 "${WORK}/good/a.lvl" a_after)
  if(NOT a_before STREQUAL a_after)
    message(FATAL_ERROR "--check changed a file")
  endif()
  run(0 -w ${copies})
  run(0 --check ${copies})
  if(NOT out STREQUAL "")
    message(FATAL_ERROR "--check after -w lists files: ${out}")
  endif()
  foreach(f IN LISTS copies)
    file(SHA256 "${f}" h)
    list(APPEND hashes "${h}")
  endforeach()
  run(0 -w ${copies})
  foreach(f IN LISTS copies)
    file(SHA256 "${f}" h)
    list(APPEND hashes_again "${h}")
  endforeach()
  if(NOT hashes STREQUAL hashes_again)
    message(FATAL_ERROR "a second -w changed a canonical file")
  endif()
  # a.lvl's comments survive -w, each with its line: the trailing ones on their lines, a
  # block before the line it explains.
  file(READ "${WORK}/good/dropped.lvl" d_text)
  expect_match("${d_text}" "\n# the default, dropped\nmap:\n")
  expect_match("${d_text}" "\n# about the enemy\n# no hp: dropped\nsign 2 2 hi # trailing\n\n# the end\n$")
  file(READ "${WORK}/good/a.lvl" a_text)
  expect_match("${a_text}" "\nname: Fixture [^\n]* # the name is UTF-8; this comment is not part of it\n")
  expect_match("${a_text}" "\nenemy 7 1 hp=5 # the patroller\n")
  expect_match("${a_text}" "\nsign 2 1 Keys open doors: 100% sure, \\(once\\) — go! # the text ends before the comment\n")
  run(0 "${WORK}/good/a.lvl")
  if(NOT out STREQUAL a_text)
    message(FATAL_ERROR "printing a canonical file does not give its bytes")
  endif()
  file(GLOB left "${WORK}/*/*.tmp")
  if(left)
    message(FATAL_ERROR "temporary files left: ${left}")
  endif()

elseif(MODE STREQUAL "broken")
  file(REMOVE_RECURSE "${WORK}")
  file(MAKE_DIRECTORY "${WORK}")
  file(COPY "${SRC}/tests/game/levels/bad/ragged.lvl" "${SRC}/tests/game/levels/good/b.lvl"
       "${SRC}/tests/game/levels/good/a.lvl" DESTINATION "${WORK}")
  file(SHA256 "${WORK}/ragged.lvl" before)
  # The broken file first, so a crash on it would show; the good one after it is still done.
  run(1 -w "${WORK}/ragged.lvl" "${WORK}/a.lvl")
  expect_match("${err}" "ragged\\.lvl:5:5: error: expected a row of 5 tiles like the first, found 4")
  file(SHA256 "${WORK}/ragged.lvl" after)
  if(NOT before STREQUAL after)
    message(FATAL_ERROR "-w changed a file that does not load")
  endif()
  run(0 --check "${WORK}/a.lvl")
  file(GLOB left "${WORK}/*.tmp")
  if(left)
    message(FATAL_ERROR "temporary files left: ${left}")
  endif()
  # A file that is not there, and a folder: errors, never a crash.
  run(1 "${WORK}/missing.lvl")
  expect_match("${err}" "missing\\.lvl: error: ")
  run(1 -w "${WORK}")
  expect_match("${err}" "error: expected a level file, found a directory")

elseif(MODE STREQUAL "usage")
  run(2)
  expect_match("${err}" "^levelfmt: an argument is missing.*usage: levelfmt")
  run(2 -w --check "${SRC}/levels/01-first-steps.lvl")
  expect_match("${err}" "^levelfmt: -w and --check exclude each other")
  run(2 --frobnicate)
  expect_match("${err}" "^levelfmt: unknown option '--frobnicate'")
  run(0 --version)
  expect_match("${out}" "^levelfmt [0-9]")
  run(0 --help)
  expect_match("${out}" "^usage: levelfmt.*--check")

else()
  message(FATAL_ERROR "levelfmt_run: unknown MODE '${MODE}'")
endif()
