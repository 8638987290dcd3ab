# Runs levelcheck for a ctest test and checks its exit code and output.
#   -DEXE=levelcheck  -DGLOB=<;-list of globs or files>  -DARGS=<extra args, ;-list>
#   -DEXPECT_RC=0|N   -DEXPECT=<;-list of regexes that must all match stdout+stderr>
#   -DEXPECT_OUT=<;-list of regexes that must all match stdout alone>
#   -DREJECT_OUT=<;-list of regexes that must not match stdout (errors belong on stderr)>
#   -DCOPY_TO=<dir>   run on copies of the files in <dir>/csv,"quoted"/ (made afresh), whose
#                     path has a comma and quotes; then stdout must hold each copy's path as
#                     a quoted CSV field, quotes doubled, at the start of a row
# Nothing to check is never a pass:
#   - a GLOB entry whose folder does not exist (a missing fixtures folder) fails;
#   - a GLOB entry that matches no file in an existing folder fails too, printing
#     "no files match": a test whose SKIP_REGULAR_EXPRESSION is that phrase (levelcheck_levels:
#     a tree with no shipped levels yet) is reported as skipped instead, ctest's skip regex
#     winning over the exit status. Only that message carries the phrase.
set(files)
if(NOT GLOB)
  message(FATAL_ERROR "levelcheck_run: FAIL: no GLOB given")
endif()
foreach(g IN LISTS GLOB)
  get_filename_component(dir "${g}" DIRECTORY)
  if(NOT IS_DIRECTORY "${dir}")
    message(FATAL_ERROR "levelcheck_run: FAIL: folder '${dir}' does not exist (from '${g}')")
  endif()
  file(GLOB matched ${g})
  if(NOT matched)
    message(FATAL_ERROR "no files match ${g}")
  endif()
  list(SORT matched)
  list(APPEND files ${matched})
endforeach()
if(COPY_TO)
  set(dest "${COPY_TO}/csv,\"quoted\"")
  file(REMOVE_RECURSE "${COPY_TO}")
  file(MAKE_DIRECTORY "${dest}")
  set(copies)
  foreach(f IN LISTS files)
    file(COPY "${f}" DESTINATION "${dest}")
    get_filename_component(n "${f}" NAME)
    list(APPEND copies "${dest}/${n}")
  endforeach()
  set(files ${copies})
endif()
execute_process(COMMAND $ENV{AD_RUN} ${EXE} ${ARGS} ${files} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
# The exact status: a crash ("Segmentation fault") is not the expected failure status.
if(NOT "${rc}" STREQUAL "${EXPECT_RC}")
  message(FATAL_ERROR "levelcheck exited with '${rc}', expected ${EXPECT_RC}")
endif()
foreach(re IN LISTS EXPECT)
  if(NOT "${out}${err}" MATCHES "${re}")
    message(FATAL_ERROR "levelcheck output does not match '${re}'")
  endif()
endforeach()
foreach(re IN LISTS EXPECT_OUT)
  if(NOT "${out}" MATCHES "${re}")
    message(FATAL_ERROR "levelcheck's stdout does not match '${re}'")
  endif()
endforeach()
foreach(re IN LISTS REJECT_OUT)
  if("${out}" MATCHES "${re}")
    message(FATAL_ERROR "levelcheck's stdout matches '${re}', which belongs elsewhere")
  endif()
endforeach()
if(COPY_TO)
  foreach(c IN LISTS files)
    string(REPLACE "\"" "\"\"" q "${c}")
    string(FIND "\n${out}" "\n\"${q}\"," at)
    if(at EQUAL -1)
      message(FATAL_ERROR "levelcheck's stdout has no row starting with the quoted field \"${q}\"")
    endif()
  endforeach()
endif()
