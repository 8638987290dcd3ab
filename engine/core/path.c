/* path.c - base name and folder of a path, as slices (see path.h). */
#include <strata/core/path.h>

/* Index of the last '/' (or, on Windows, '\\', its own separator), or -1. */
static int64_t path_last_slash(Str8 path) {
    for (uint64_t i = path.len; i > 0; i--) {
        char c = path.data[i - 1];
#if defined(_WIN32)
        if (c == '\\') return (int64_t)(i - 1);
#endif
        if (c == '/') return (int64_t)(i - 1);
    }
    return -1;
}

Str8 st_path_base_name(Str8 path) {
    int64_t at = path_last_slash(path);
    return at < 0 ? path : st_str8_skip(path, (uint64_t)at + 1);
}

Str8 st_path_dir(Str8 path) {
    int64_t at = path_last_slash(path);
    if (at < 0) return st_str8_prefix(path, 0);
    return st_str8_prefix(path, at == 0 ? 1 : (uint64_t)at); /* "/progress": the root */
}

Str8 st_path_dir_prefix(Str8 path) {
    int64_t at = path_last_slash(path);
    return st_str8_prefix(path, at < 0 ? 0 : (uint64_t)at + 1);
}
