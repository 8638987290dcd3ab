/* cli.h - a program's command line as data: each option is a name, the kind of value it
   takes and, for numbers, their range; st_cli_parse checks every value against it, so that no
   program of the project takes a flag for a file name, wraps a number, or lets a second
   copy of an option or one that means nothing alone go by without a word.

       enum { OPT_HELP, OPT_OUT, OPT_COUNT_, OPT_N };
       static const CliOption opts[OPT_N] = {
           [OPT_HELP] = {.name = "--help", .arg = CLI_SWITCH},
           [OPT_OUT] = {.name = "-o", .arg = CLI_PATH},
           [OPT_COUNT_] = {.name = "--count", .arg = CLI_NUMBER, .lo = 1, .hi = 100, .needs = OPT_OUT + 1},
       };
       CliValue v[OPT_N];
       const char *files[64];
       Error why;
       CliParse r = st_cli_parse(opts, OPT_N, argc, argv, v, files, 64, &why);
       if (r.status == CLI_BAD) { st_diag_report(DIAG_ERROR, "tool: %s", why.message); usage(stderr); return 2; }
       if (v[OPT_HELP].given) ...               // v[OPT_OUT].text, v[OPT_COUNT_].n
       for (int i = 0; i < r.positional; i++) ... files[i] ...

   Values: a switch takes none; a path must not be empty and must not start with '-' (a flag
   given where a value goes: "./-x" names a file called -x); a number is decimal digits in
   lo..hi; a byte count may end in K, M or G; a size is WxH, each in lo..hi; a word is one of
   a NULL-ended list; "--name=value" is "--name value". Arguments that are not options (and everything after "--") are the
   positional ones, in order; one that starts with '-' is an unknown option. An option given
   twice is refused (which of the two was meant?), and so is one whose `needs` (an index + 1:
   0 means none) is not given. Nothing here allocates; the values point into argv. */
#ifndef CLI_H
#define CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <strata/core/error.h>

typedef enum CliArg {
    CLI_SWITCH,
    CLI_PATH,
    CLI_NUMBER,
    CLI_BYTES,
    CLI_SIZE,
    CLI_WORD,
} CliArg;

typedef struct CliOption {
    const char *name; /* "--level"; an alias is another entry with the same `alias_of` */
    CliArg arg;
    uint64_t lo, hi;          /* CLI_NUMBER, CLI_BYTES, CLI_SIZE (each side) */
    int needs;                /* index + 1 of an option this one only makes sense with; 0: none */
    const char *const *words; /* CLI_WORD: the values allowed, NULL-ended */
    int alias_of;             /* index + 1 of the option this name also means ("-h" for "--help") */
} CliOption;

typedef struct CliValue {
    bool given;
    const char *text; /* the value as written (NULL for a switch or when not given) */
    uint64_t n, m;    /* a number or byte count; WxH: n x m; a word: its index */
} CliValue;

typedef enum CliStatus { CLI_OK, CLI_BAD } CliStatus;

typedef struct CliParse {
    CliStatus status;
    int positional; /* how many went to the positional array */
} CliParse;

/* Parses argv[1..argc) against opts[0..count). values[count] is filled (an alias's value
   lands on the option it names); positional arguments go to positional[0..max). CLI_BAD
   with the reason in err, ERROR_PARSE ("--frames wants a whole number from 1 to 100, not 'abc'"). */
CliParse st_cli_parse(const CliOption *opts, int count, int argc, char **argv, CliValue *values,
                      const char **positional, int max_positional, Error *err);

/* ---- The common start of a program: --help, -h and --version first in its table. */

#define CLI_OPT_HELP 0
#define CLI_OPT_VERSION 2
#define CLI_STANDARD_OPTIONS                                               \
    [CLI_OPT_HELP] = {.name = "--help", .arg = CLI_SWITCH},                \
    [1] = {.name = "-h", .arg = CLI_SWITCH, .alias_of = CLI_OPT_HELP + 1}, \
    [CLI_OPT_VERSION] = {.name = "--version", .arg = CLI_SWITCH}

typedef struct CliProgram {
    const char *name;      /* "levelcheck": the messages' prefix, and what --version prints */
    const char *usage;     /* the short form, on stderr after a bad command line */
    const char *help;      /* --help's text on stdout (NULL: the usage) */
    const CliOption *opts; /* starting with CLI_STANDARD_OPTIONS */
    int count;
    int min_positional, max_positional;
} CliProgram;

/* st_cli_parse for a program: -1 to go on with the values; else the exit status, with its
   output written: 0 after --help (the help) or --version ("name VERSION"), 2 after a bad
   command line ("name: why" through diag, then the usage) or a count of positional
   arguments outside min..max. */
int st_cli_run(const CliProgram *prog, const char *version, int argc, char **argv, CliValue *values,
               const char **positional, int *positional_count);

#endif
