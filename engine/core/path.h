/* path.h - the parts of a '/'-separated path, as views into it: no copy, no heap.

       Str8 p = st_str8_cstr("levels/03-spikes.lvl");
       st_path_base_name(p);    // "03-spikes.lvl"   (a suffix: NUL-terminated when p is)
       st_path_dir(p);          // "levels"          ("" for "a.lvl", "/" for "/a.lvl")
       st_path_dir_prefix(p);   // "levels/"         (what the base name follows; "" for "a.lvl")

   Only the text is looked at: nothing is resolved, "." and ".." are names like any other,
   and a path ending in '/' has an empty base name. */
#ifndef PATH_H
#define PATH_H

#include <strata/core/str8.h>

/* After the last '/'; all of `path` when it has none. */
Str8 st_path_base_name(Str8 path);
/* Before the last '/': the folder the path names its last part in. "/" when that is the
   root, "" when the path has no '/' (the caller decides whether that means "."). */
Str8 st_path_dir(Str8 path);
/* Up to and including the last '/'; "" when there is none. */
Str8 st_path_dir_prefix(Str8 path);

#endif
