/* cli.c - the command line checked against a table of options (see cli.h). */
#include <strata/core/cli.h>
#include <strata/core/utf8.h>

#include <stdio.h>
#include <string.h>

#include <strata/core/diag.h>
#include <strata/core/str8.h>

static bool cli_number(const CliOption *o, const char *text, uint64_t *out) {
    uint64_t v;
    bool ok = o->arg == CLI_BYTES ? st_str8_parse_size(st_str8_cstr(text), &v)
                                  : st_str8_parse_u64(st_str8_cstr(text), 10, &v);
    if (!ok || v < o->lo || v > o->hi) return false;
    *out = v;
    return true;
}

/* The value of option o into *v; false with the reason in err. */
static bool cli_value(const CliOption *o, const char *text, CliValue *v, Error *err) {
    v->text = text;
    switch (o->arg) {
    case CLI_SWITCH: return true;
    case CLI_PATH:
        if (!text[0])
            return st_error_set(err, ERROR_PARSE, NULL, 0, 0, "%s wants a file name, not an empty one", o->name), false;
        if (text[0] == '-')
            return st_error_set(err, ERROR_PARSE, NULL, 0, 0,
                                "%s wants a file name, not the flag '%.40s' (./%.40s names a file of that name)",
                                o->name, text, text),
                   false;
        return true;
    case CLI_NUMBER:
    case CLI_BYTES:
        if (cli_number(o, text, &v->n)) return true;
        st_error_set(err, ERROR_PARSE, NULL, 0, 0, "%s wants %s from %llu to %llu%s, not '%.40s'", o->name,
                     o->arg == CLI_BYTES ? "a byte count" : "a whole number", (unsigned long long)o->lo,
                     (unsigned long long)o->hi, o->arg == CLI_BYTES ? " (K, M and G allowed)" : "", text);
        return false;
    case CLI_SIZE: {
        const char *x = strchr(text, 'x');
        char w[32];
        size_t wl = x ? (size_t)(x - text) : sizeof w;
        if (wl < sizeof w) {
            memcpy(w, text, wl);
            w[wl] = 0;
            if (cli_number(o, w, &v->n) && cli_number(o, x + 1, &v->m)) return true;
        }
        st_error_set(err, ERROR_PARSE, NULL, 0, 0, "%s wants WxH, each from %llu to %llu, not '%.40s'", o->name,
                     (unsigned long long)o->lo, (unsigned long long)o->hi, text);
        return false;
    }
    case CLI_WORD: {
        int n = 0, len = 0;
        char list[128] = "";
        for (; o->words && o->words[n]; n++) {
            if (!strcmp(text, o->words[n])) return v->n = (uint64_t)n, true;
            len += snprintf(list + len, len < (int)sizeof list ? sizeof list - (size_t)len : 0, "%s%s",
                            n ? (o->words[n + 1] ? ", " : " or ") : "", o->words[n]);
        }
        st_error_set(err, ERROR_PARSE, NULL, 0, 0, "%s wants %s, not '%.40s'", o->name, list, text);
        return false;
    }
    }
    return false;
}

CliParse st_cli_parse(const CliOption *opts, int count, int argc, char **argv, CliValue *values,
                      const char **positional, int max_positional, Error *err) {
    memset(values, 0, sizeof *values * (size_t)count);
    st_error_clear(err);
    int npos = 0;
    bool options_end = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!options_end && !strcmp(a, "--")) {
            options_end = true;
            continue;
        }
        if (options_end || a[0] != '-' || !a[1]) { /* "-" alone is a name too: standard input, say */
            if (npos >= max_positional) {
                if (max_positional == 0)
                    st_error_set(err, ERROR_PARSE, NULL, 0, 0,
                                 "'%.40s' is no option (they start with -), and nothing else is taken", a);
                else
                    st_error_set(err, ERROR_PARSE, NULL, 0, 0,
                                 "too many arguments: '%.40s' is one more than the %d taken", a, max_positional);
                return (CliParse){CLI_BAD, npos};
            }
            positional[npos++] = a;
            continue;
        }
        /* "--name=value" is "--name value". */
        const char *eq = a[1] == '-' ? strchr(a, '=') : NULL;
        size_t name_len = eq ? (size_t)(eq - a) : strlen(a);
        int k = 0;
        while (k < count && (strncmp(a, opts[k].name, name_len) != 0 || opts[k].name[name_len])) k++;
        if (k == count) {
            st_error_set(err, ERROR_PARSE, NULL, 0, 0, "unknown option '%s'", ST_QUOTE(st_str8_make(a, name_len)));
            return (CliParse){CLI_BAD, npos};
        }
        const CliOption *o = &opts[k];
        if (o->alias_of) k = o->alias_of - 1;
        if (values[k].given) {
            st_error_set(err, ERROR_PARSE, NULL, 0, 0, "%s is given twice (once is enough: which one did you mean?)",
                         opts[k].name);
            return (CliParse){CLI_BAD, npos};
        }
        values[k].given = true;
        if (opts[k].arg == CLI_SWITCH) {
            if (!eq) continue;
            st_error_set(err, ERROR_PARSE, NULL, 0, 0, "%s takes no value, not '%.40s'", opts[k].name, eq + 1);
            return (CliParse){CLI_BAD, npos};
        }
        if (!eq && i + 1 >= argc) {
            st_error_set(err, ERROR_PARSE, NULL, 0, 0, "%s wants a value after it, and there is none", a);
            return (CliParse){CLI_BAD, npos};
        }
        if (!cli_value(&opts[k], eq ? eq + 1 : argv[++i], &values[k], err)) return (CliParse){CLI_BAD, npos};
    }
    for (int k = 0; k < count; k++) {
        int need = opts[k].needs - 1;
        if (values[k].given && need >= 0 && need < count && !values[need].given) {
            st_error_set(err, ERROR_PARSE, NULL, 0, 0, "%s goes with %s, which is not given", opts[k].name,
                         opts[need].name);
            return (CliParse){CLI_BAD, npos};
        }
    }
    return (CliParse){CLI_OK, npos};
}

int st_cli_run(const CliProgram *prog, const char *version, int argc, char **argv, CliValue *values,
               const char **positional, int *positional_count) {
    Error why;
    CliParse r = st_cli_parse(prog->opts, prog->count, argc, argv, values, positional, prog->max_positional, &why);
    *positional_count = r.positional;
    if (r.status == CLI_OK && values[CLI_OPT_HELP].given) {
        fputs(prog->help ? prog->help : prog->usage, stdout);
        return 0;
    }
    if (r.status == CLI_OK && values[CLI_OPT_VERSION].given) {
        printf("%s %s\n", prog->name, version);
        return 0;
    }
    if (r.status == CLI_OK && r.positional >= prog->min_positional) return -1;
    if (r.status == CLI_OK)
        st_error_set(&why, ERROR_PARSE, NULL, 0, 0, "%s missing (see the usage below)",
                     prog->min_positional - r.positional > 1 ? "arguments are" : "an argument is");
    st_diag_report(DIAG_ERROR, "%s: %s", prog->name, st_error_message(&why));
    fputs(prog->usage, stderr);
    return 2;
}
