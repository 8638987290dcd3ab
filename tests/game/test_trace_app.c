/* test_trace_app.c - the arenas' timeline of a whole run through the real front end:
   `--arena-trace` writes one CSV row per frame played, the level arena's high-mark column
   peaks at exactly the peak the exit report prints, every level change is a marked event,
   the recommended LEVEL_ARENA_BYTES is levelcheck's for the same levels, and
   `--trace-every 10` keeps every tenth frame plus the frames with an event. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app_run.h"
#include "check.h"
#include "portable.h"

static char dir[] = "/tmp/test_trace_app_XXXXXX";
static char text[8 << 20];

static uint64_t read_all(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    uint64_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    return n;
}

/* Field `col` (0-based) of a CSV line without quoted commas in the numeric part: the event
   column (3) may be quoted, so fields after it are counted from the line's end. */
static uint64_t field_from_end(const char *line, const char *end, int from_end) {
    const char *p = end;
    for (int k = 0; k <= from_end; k++) {
        p--;
        while (p > line && *p != ',') p--;
    }
    return strtoull(p + 1, NULL, 10);
}

static uint64_t run(Arena *perm, const char *csv, uint32_t every, uint64_t *frames, uint64_t *level_peak) {
    App *app = app_run_create(perm, &(AppRunOptions){.replay = SOURCE_DIR "/tests/replays/full-run.rep", .headless = true,
                                              .skip_title = true, .no_save = true, .arena_trace = csv,
                                              .arena_trace_every = every});
    if (!app) return 0;
    while (app_run_frame(app)) {
    }
    *frames = app->host->frames;
    *level_peak = st_arena_stats(app->host->life.level).peak;
    CHECK_EQ_I(app->host->timeline.played_count, 7);
    CHECK_EQ_I(app_run_release(app), 0);
    return read_all(csv);
}

/* levelcheck's recommendation for the shipped levels. */
#if !defined(_WIN32)
static uint64_t levelcheck_recommends(void) {
    char cmd[600];
    snprintf(cmd, sizeof cmd, "'%s' '%s'/levels/*.lvl", LEVELCHECK, SOURCE_DIR);
    FILE *p = popen(cmd, "r");
    if (!p) return 0;
    char line[1024];
    uint64_t rec = 0;
    while (fgets(line, sizeof line, p))
        if (strncmp(line, "recommended LEVEL_ARENA_BYTES=", 30) == 0) rec = strtoull(line + 30, NULL, 10);
    pclose(p);
    return rec;
}
#endif

/* argc and argv: on Windows SDL.h makes this SDL_main, which takes them. */
int main(int argc, char **argv) {
    (void)argc, (void)argv;
    REQUIRE(mkdtemp(dir) != NULL);
    REQUIRE(chdir(SOURCE_DIR) == 0);
    Arena *perm = st_arena_create((ArenaParams){.name = "permanent"});
    char csv[300];
    snprintf(csv, sizeof csv, "%s/run.csv", dir);
    uint64_t frames = 0, level_peak = 0;
    REQUIRE(run(perm, csv, 0, &frames, &level_peak) > 0);

    /* The comment, the header, then one row per frame. */
    char *line = text, *nl = strchr(line, '\n');
    REQUIRE(nl);
    uint64_t recommended = 0;
    CHECK(sscanf(line, "# recommended_level_arena_bytes=%llu", (unsigned long long *)&recommended) == 1);
    line = nl + 1;
    nl = strchr(line, '\n');
    REQUIRE(nl);
    CHECK(strncmp(line, "frame,level,screen,event,permanent_used,", 40) == 0);
    /* The history arena's group comes last, after the four that were there before it. */
    CHECK(strncmp(nl - 78, ",scratch_reserved,history_used,history_committed,history_high,history_reserved", 78) == 0);
    /* level_high is the 3rd field of the level group: from the line's end, the level group
       is followed by the frame, scratch and history groups (4 fields each). */
    uint64_t rows = 0, max_level_high = 0, level_events = 0, last_frame = 0;
    for (line = nl + 1; (nl = strchr(line, '\n')) != NULL; line = nl + 1) {
        rows++;
        uint64_t frame = strtoull(line, NULL, 10);
        CHECK(rows == 1 || frame == last_frame + 1);
        last_frame = frame;
        uint64_t level_high = field_from_end(line, nl, 13);
        if (level_high > max_level_high) max_level_high = level_high;
        char *ev = strstr(line, ",level ");
        if (!ev) ev = strstr(line, ",\"level ");
        level_events += ev && ev < nl;
    }
    printf("--arena-trace: %llu rows for %llu frames, level arena high %llu (peak %llu), %llu level events, "
           "recommended %llu\n",
           (unsigned long long)rows, (unsigned long long)frames, (unsigned long long)max_level_high,
           (unsigned long long)level_peak, (unsigned long long)level_events, (unsigned long long)recommended);
    CHECK_EQ_U(rows, frames);
    CHECK_EQ_U(max_level_high, level_peak);
    CHECK_EQ_U(level_events, 7);
#if !defined(_WIN32) /* levelcheck through popen's shell; tests/windows compares its table with native */
    CHECK_EQ_U(recommended, levelcheck_recommends());
#endif
    CHECK(recommended > 0);

    /* Every tenth frame, and the frames with an event. */
    uint64_t frames10 = 0, peak10 = 0;
    REQUIRE(run(perm, csv, 10, &frames10, &peak10) > 0);
    uint64_t rows10 = 0, odd_with_event = 0;
    line = strchr(strchr(text, '\n') + 1, '\n') + 1;
    for (; (nl = strchr(line, '\n')) != NULL; line = nl + 1) {
        rows10++;
        uint64_t frame = strtoull(line, NULL, 10);
        if (frame % 10 != 0) {
            const char *ev = strchr(strchr(strchr(line, ',') + 1, ',') + 1, ',') + 1; /* the event field */
            CHECK(*ev != ',');
            odd_with_event++;
        }
    }
    CHECK(rows10 >= frames10 / 10 && rows10 <= frames10 / 10 + 1 + odd_with_event);
    CHECK(odd_with_event > 0);
    st_arena_release(perm);
    CHECK(test_remove_tree(dir));
    return check_result();
}
