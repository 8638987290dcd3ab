# ad_test.cmake - the one way a test is registered with ctest, and the checks that make a
# missing piece of the tree a configure error rather than a test that quietly is not there.
#
#   ad_test(NAME name COMMAND program args...
#           LABELS label...                 one or more of AD_TEST_LABELS (below)
#           [ENV VAR=value...]              the test's environment
#           [SKIP_RETURN_CODE]              exit 77 is a skip (a display, clang, valgrind missing)
#           [TIMEOUT seconds] [WORKING_DIRECTORY dir] [RUN_SERIAL]
#           [PASS_REGULAR_EXPRESSION re] [SKIP_REGULAR_EXPRESSION re])
#
# Labels (CONVENTIONS.md, Tests): a test is `unit` (fast and headless), `window` (needs a
# real X server: Xvfb), `browser` (headless Chromium on the web build) or `slow` (over about
# 15 s here), at least one of them; the family labels `fuzz`, `golden`, `valgrind` and
# `fault` say what else it is. `quick` is given here to every test that is neither `slow`
# nor `browser`: `ctest -L quick` is the loop to run while working (under 2 minutes on 2
# cores).
#
# Every script or source a test names in the source tree must exist when it is registered,
# and ad_require_listed makes a test source that no list names an error too.
set(AD_TEST_KINDS unit window browser slow)
set(AD_TEST_LABELS ${AD_TEST_KINDS} fuzz golden valgrind fault)

function(ad_test)
  cmake_parse_arguments(PARSE_ARGV 0 T "SKIP_RETURN_CODE;RUN_SERIAL"
                        "NAME;TIMEOUT;WORKING_DIRECTORY;PASS_REGULAR_EXPRESSION;SKIP_REGULAR_EXPRESSION"
                        "COMMAND;LABELS;ENV")
  if(NOT T_NAME OR NOT T_COMMAND)
    message(FATAL_ERROR "ad_test: NAME and COMMAND are required")
  endif()
  if(T_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "ad_test(${T_NAME}): unknown arguments: ${T_UNPARSED_ARGUMENTS}")
  endif()
  set(kind "")
  foreach(label ${T_LABELS})
    if(NOT label IN_LIST AD_TEST_LABELS)
      message(FATAL_ERROR "ad_test(${T_NAME}): label '${label}' is not one of: ${AD_TEST_LABELS}")
    endif()
    if(label IN_LIST AD_TEST_KINDS)
      set(kind ${label})
    endif()
  endforeach()
  if(NOT kind)
    message(FATAL_ERROR "ad_test(${T_NAME}): LABELS needs one of ${AD_TEST_KINDS} (given: '${T_LABELS}')")
  endif()
  if("unit" IN_LIST T_LABELS AND "slow" IN_LIST T_LABELS)
    message(FATAL_ERROR "ad_test(${T_NAME}): a unit test is fast by definition; label it slow alone")
  endif()
  set(labels ${T_LABELS})
  if(NOT "slow" IN_LIST labels AND NOT "browser" IN_LIST labels)
    list(APPEND labels quick)
  endif()

  # The scripts and sources the test runs, where they are in the source tree. (Fixtures and
  # expected outputs may be absent on purpose: a new level's golden frame is made later.)
  foreach(arg ${T_COMMAND})
    string(FIND "${arg}" "${PROJECT_SOURCE_DIR}/" in_src)
    string(FIND "${arg}" "${PROJECT_BINARY_DIR}/" in_build)
    if(in_src EQUAL 0 AND NOT in_build EQUAL 0 AND arg MATCHES "[.](sh|cmake|mjs|c|in)$" AND NOT EXISTS "${arg}")
      file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${arg})
      message(FATAL_ERROR "ad_test(${T_NAME}): ${rel} is missing")
    endif()
  endforeach()

  add_test(NAME ${T_NAME} COMMAND ${T_COMMAND})
  # One property at a time: LABELS and ENVIRONMENT are lists themselves.
  set_tests_properties(${T_NAME} PROPERTIES LABELS "${labels}")
  # A cross build's programs run through its emulator (the Windows build's wine64): ctest
  # puts it before a test whose command is a target, and a script that runs a program the
  # build made puts $AD_RUN before it (empty in a native build).
  if(CMAKE_CROSSCOMPILING_EMULATOR)
    list(JOIN CMAKE_CROSSCOMPILING_EMULATOR " " run)
    list(APPEND T_ENV "AD_RUN=${run}")
  endif()
  if(T_ENV)
    set_tests_properties(${T_NAME} PROPERTIES ENVIRONMENT "${T_ENV}")
  endif()
  if(T_SKIP_RETURN_CODE)
    set_tests_properties(${T_NAME} PROPERTIES SKIP_RETURN_CODE 77)
  endif()
  if(T_RUN_SERIAL)
    set_tests_properties(${T_NAME} PROPERTIES RUN_SERIAL ON)
  endif()
  # ctest -j starts the costliest first; with no timings of its own yet (a fresh build
  # folder, as CI's), a slow test started last would run alone while the other core idles.
  if("slow" IN_LIST labels)
    set_tests_properties(${T_NAME} PROPERTIES COST 100)
  endif()
  foreach(p TIMEOUT WORKING_DIRECTORY PASS_REGULAR_EXPRESSION SKIP_REGULAR_EXPRESSION)
    if(DEFINED T_${p})
      set_tests_properties(${T_NAME} PROPERTIES ${p} "${T_${p}}")
    endif()
  endforeach()
endfunction()

# ad_test_program(name SOURCES src... [LIBS lib...] [INCLUDES dir...] [ARGS arg...]
#                 [ad_test's options]): builds the program `name` from its sources and
# registers it, run with ARGS; LABELS default to unit. The layers' helpers (core_test,
# engine_test, game_test) are this with their libraries.
function(ad_test_program name)
  cmake_parse_arguments(PARSE_ARGV 1 P "SKIP_RETURN_CODE;RUN_SERIAL"
                        "TIMEOUT;WORKING_DIRECTORY;PASS_REGULAR_EXPRESSION;SKIP_REGULAR_EXPRESSION"
                        "SOURCES;LIBS;INCLUDES;ARGS;LABELS;ENV")
  if(P_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "ad_test_program(${name}): unknown arguments: ${P_UNPARSED_ARGUMENTS}")
  endif()
  foreach(src ${P_SOURCES})
    if(NOT EXISTS ${src})
      file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${src})
      message(FATAL_ERROR "ad_test_program(${name}): ${rel} is missing")
    endif()
  endforeach()
  add_executable(${name} ${P_SOURCES})
  target_include_directories(${name} PRIVATE ${P_INCLUDES})
  target_link_libraries(${name} PRIVATE ${P_LIBS})
  if(NOT P_LABELS)
    set(P_LABELS unit)
  endif()
  set(more "")
  foreach(opt SKIP_RETURN_CODE RUN_SERIAL)
    if(P_${opt})
      list(APPEND more ${opt})
    endif()
  endforeach()
  foreach(key TIMEOUT WORKING_DIRECTORY PASS_REGULAR_EXPRESSION SKIP_REGULAR_EXPRESSION)
    if(DEFINED P_${key})
      list(APPEND more ${key} "${P_${key}}")
    endif()
  endforeach()
  if(P_ENV)
    list(APPEND more ENV ${P_ENV})
  endif()
  ad_test(NAME ${name} COMMAND ${name} ${P_ARGS} LABELS ${P_LABELS} ${more})
endfunction()

# ad_require_listed(PATTERN listed...): every file matching PATTERN (a glob, relative to the
# calling CMakeLists.txt's folder) is one of `listed`, by its name without the extension (a
# folder's CMakeLists.txt by the folder's name), so nothing can be left out of its list.
function(ad_require_listed pattern)
  file(GLOB found CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${pattern})
  foreach(f ${found})
    get_filename_component(name ${f} NAME)
    if(name STREQUAL "CMakeLists.txt")
      get_filename_component(name ${f} DIRECTORY)
      get_filename_component(name ${name} NAME)
    else()
      string(REGEX REPLACE "[.][^.]*$" "" name ${name})
    endif()
    if(NOT name IN_LIST ARGN)
      file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${f})
      file(RELATIVE_PATH lists ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_LIST_FILE})
      message(FATAL_ERROR "${rel} is in no list of ${lists}: add it there")
    endif()
  endforeach()
endfunction()

# ad_subdirectories(dir...): each one must be there; add_subdirectory alone would go on
# after a missing one and fail only at the end, among other errors.
function(ad_subdirectories)
  foreach(dir ${ARGN})
    if(NOT EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${dir}/CMakeLists.txt)
      file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/${dir})
      message(FATAL_ERROR "${rel}/CMakeLists.txt is missing")
    endif()
    add_subdirectory(${dir})
  endforeach()
endfunction()
