/* lvl2tiled - our levels as maps for the Tiled editor (levels/README.md, "Levels from Tiled").

       lvl2tiled [--assets DIR] [--keep-links] -o OUTDIR FILE.lvl...

   Loads each FILE as the game does and writes OUTDIR/<name>.tmx (Tiled's own map format,
   which it opens and saves as it is), plus OUTDIR/tiles.tsx and OUTDIR/sprites.tsx: the two
   tilesets over the game's art, DIR/tiles.png and DIR/sprites.png (default: assets), named
   by a path relative to OUTDIR. In Tiled, File > Export As (or `tiled --export-map json
   X.tmx X.tmj`) makes the .tmj the game loads. The terrain is drawn as the game draws it
   (wall faces, floor variants); every entity is a tile object with the type and properties
   the loader reads, so the map looks like the level and loads back into the same level.

   Exits and portal targets ending in .lvl are written ending in .tmj, so a set of levels
   exported together leads from map to map; --keep-links writes them as they are. Exit
   status 1 when a file does not load or a file cannot be written, 2 on bad usage. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../assets/atlas.h"
#include <strata/core/cli.h>
#include <strata/core/diag.h>
#include <strata/core/hash.h>
#include <strata/core/os_file.h>
#include <strata/core/path.h>
#include <strata/core/str8.h>
#include "level/level.h"
#include "level/level_load.h"

#define TILES_FIRSTGID 1
#define TILES_COUNT (ATLAS_COLS * TILES_ROWS)
#define SPRITES_FIRSTGID (TILES_FIRSTGID + TILES_COUNT)
#define SPRITES_COUNT (ATLAS_COLS * SPRITES_ROWS)

static const char usage_text[] =
    "usage: lvl2tiled [--assets DIR] [--keep-links] -o OUTDIR FILE.lvl...\n"
    "       lvl2tiled --help | --version\n"
    "Writes each level as OUTDIR/<name>.tmx for the Tiled editor, with the tilesets\n"
    "OUTDIR/tiles.tsx and OUTDIR/sprites.tsx over DIR/tiles.png and DIR/sprites.png.\n"
    "\n"
    "  -o OUTDIR     where the maps and tilesets go (made if missing)\n"
    "  --assets DIR  the folder of tiles.png and sprites.png (default: assets)\n"
    "  --keep-links  keep exits and portal targets as written (default: .lvl -> .tmj)\n";

/* Writes a text built in a Str8Buf (sized for it) through the one writer,
   st_os_write_file_atomic, as every file the project writes; a cut text is never written. */
static bool out_write(const Str8Buf *o, const char *path) {
    Error msg;
    if (o->cut) {
        st_diag_report_at(DIAG_ERROR, path, 0, 0, "cannot write: the text did not fit its %llu-byte buffer",
                       (unsigned long long)o->cap);
        return false;
    }
    if (st_os_write_file_atomic(path, o->data, o->len, &msg)) return true;
    st_error_report(&msg);
    return false;
}

/* Text in an XML attribute. */
static void put_attr(Str8Buf *f, const char *s) {
    for (; s && *s; s++) {
        switch (*s) {
        case '&': st_str8_buf_fmt(f, "&amp;"); break;
        case '<': st_str8_buf_fmt(f, "&lt;"); break;
        case '>': st_str8_buf_fmt(f, "&gt;"); break;
        case '"': st_str8_buf_fmt(f, "&quot;"); break;
        default: st_str8_buf_fmt(f, "%c", *s);
        }
    }
}

/* The path of `to` relative to the folder `from`, both real (absolute, no "." or ".."):
   "../" for each of from's components past the common ones, then the rest of `to`. */
static void relative_path(const char *from, const char *to, char *out, size_t n) {
    size_t common = 0; /* bytes of the common folders, up to a '/' */
    size_t i = 0;
    for (; from[i] && from[i] == to[i]; i++)
        if (from[i] == '/') common = i;
    if (!from[i] && (to[i] == '/' || !to[i])) common = i; /* `from` is `to` or above it */
    size_t len = 0;
    out[0] = 0;
    for (const char *c = from + common; *c; c++)
        if (*c == '/' && c[1]) len += (size_t)snprintf(out + len, len < n ? n - len : 0, "../");
    const char *rest = to + common + (to[common] == '/');
    snprintf(out + len, len < n ? n - len : 0, "%s", rest);
    if (len && !rest[0]) out[len - 1] = 0; /* "../.." for an ancestor */
}

static bool write_tileset(Arena *a, const char *outdir, const char *name, const char *image_rel, int w, int h) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s.tsx", outdir, name);
    ArenaTemp t = st_arena_temp_begin(a);
    Str8Buf out = st_str8_buf(a, 4096 + 6 * strlen(image_rel)), *f = &out;
    st_str8_buf_fmt(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<tileset version=\"1.8\" tiledversion=\"1.8.2\" name=\"%s\" tilewidth=\"16\" tileheight=\"16\" "
            "tilecount=\"%d\" columns=\"%d\">\n"
            " <image source=\"",
            name, (w / 16) * (h / 16), w / 16);
    put_attr(f, image_rel);
    st_str8_buf_fmt(f, "\" width=\"%d\" height=\"%d\"/>\n</tileset>\n", w, h);
    bool ok = out_write(f, path);
    st_arena_temp_end(t);
    return ok;
}

/* The tile the game draws for (tx, ty) when nothing moves (draw.c: tile_sprite at tick 0). */
static int terrain_tile(const Level *lv, int32_t tx, int32_t ty) {
    switch (level_tile(lv, tx, ty)) {
    case TILE_WALL: return level_tile(lv, tx, ty + 1) == TILE_WALL ? TS_WALL : TS_WALL_FACE;
    case TILE_WATER: return ((uint32_t)(tx + ty) & 1) ? TS_WATER_1 : TS_WATER_0;
    case TILE_SPIKES: return TS_SPIKES;
    case TILE_EXIT: return TS_EXIT;
    default: { /* floor, and the floor under a door or portal (which are objects) */
        uint32_t h = st_hash_mix2(tx, ty) % 16;
        return h < 10 ? TS_FLOOR_0 : h < 13 ? TS_FLOOR_1 : h < 15 ? TS_FLOOR_2 : TS_FLOOR_3;
    }
    }
}

/* A written level path, .lvl turned into .tmj unless `keep`. */
static void put_level_path(Str8Buf *f, const char *written, bool keep) {
    size_t n = strlen(written), e = strlen(LEVEL_FILE_EXT);
    if (keep || n <= e || strcmp(written + n - e, LEVEL_FILE_EXT) != 0) {
        put_attr(f, written);
        return;
    }
    char buf[LEVEL_PATH_MAX];
    snprintf(buf, sizeof buf, "%.*s%s", (int)(n - e), written, LEVEL_TILED_EXT);
    put_attr(f, buf);
}

typedef struct Writer {
    Str8Buf *f;
    int next_id;
} Writer;

/* A tile object on (tx, ty): Tiled places a tile object by its bottom-left corner. */
static void object_open(Writer *w, const char *type, const char *name, int gid, int32_t tx, int32_t ty, bool more) {
    st_str8_buf_fmt(w->f, "  <object id=\"%d\" name=\"", w->next_id++);
    put_attr(w->f, name ? name : "");
    st_str8_buf_fmt(w->f, "\" type=\"%s\" gid=\"%d\" x=\"%d\" y=\"%d\" width=\"16\" height=\"16\"%s\n", type, gid, tx * TILE_PX,
            (ty + 1) * TILE_PX, more ? ">" : "/>");
}

static void property(Str8Buf *f, const char *name, const char *type, const char *value) {
    st_str8_buf_fmt(f, "    <property name=\"%s\"%s%s%s value=\"", name, type ? " type=\"" : "", type ? type : "", type ? "\"" : "");
    put_attr(f, value);
    st_str8_buf_fmt(f, "%s", "\"/>\n");
}

static const char *const color_names[KEY_COLOR_COUNT] = {"red", "green", "blue"};

static bool write_map(Arena *a, const Level *lv, const char *out_path, bool keep_links) {
    int objects = 1 + lv->enemy_count + lv->pickup_count + lv->door_count + lv->link_count + lv->entry_count +
                  lv->sign_count;
    /* At most 6 bytes a tile ("%d," and the line's end), and an object's XML with its
       properties, names and texts escaped (6 bytes a character at worst). */
    uint64_t cap = 4096 + (uint64_t)lv->width * (uint64_t)lv->height * 6 + (uint64_t)objects * 512 +
                   (uint64_t)lv->sign_count * LEVEL_SIGN_TEXT_MAX * 6;
    ArenaTemp t = st_arena_temp_begin(a);
    Str8Buf out = st_str8_buf(a, cap), *f = &out;
    Writer w = {.f = f, .next_id = 1};
    st_str8_buf_fmt(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<map version=\"1.8\" tiledversion=\"1.8.2\" orientation=\"orthogonal\" renderorder=\"right-down\" "
            "width=\"%d\" height=\"%d\" tilewidth=\"16\" tileheight=\"16\" infinite=\"0\" nextlayerid=\"3\" "
            "nextobjectid=\"%d\">\n <properties>\n",
            lv->width, lv->height, objects + 1);
    if (lv->bullet_cap != LEVEL_DEFAULT_BULLETS) st_str8_buf_fmt(f, "  <property name=\"bullets\" type=\"int\" value=\"%d\"/>\n", lv->bullet_cap);
    if (lv->exit_written) {
        st_str8_buf_fmt(f, "%s", "  <property name=\"exit\" value=\"");
        put_level_path(f, lv->exit_written, keep_links);
        st_str8_buf_fmt(f, "%s", "\"/>\n");
    }
    st_str8_buf_fmt(f, "%s", "  <property name=\"name\" value=\"");
    put_attr(f, lv->name);
    st_str8_buf_fmt(f, "%s", "\"/>\n");
    if (lv->particle_cap != LEVEL_DEFAULT_PARTICLES)
        st_str8_buf_fmt(f, "  <property name=\"particles\" type=\"int\" value=\"%d\"/>\n", lv->particle_cap);
    st_str8_buf_fmt(f,
            " </properties>\n"
            " <tileset firstgid=\"%d\" source=\"tiles.tsx\"/>\n"
            " <tileset firstgid=\"%d\" source=\"sprites.tsx\"/>\n"
            " <layer id=\"1\" name=\"tiles\" width=\"%d\" height=\"%d\">\n  <data encoding=\"csv\">\n",
            TILES_FIRSTGID, SPRITES_FIRSTGID, lv->width, lv->height);
    for (int32_t y = 0; y < lv->height; y++) {
        for (int32_t x = 0; x < lv->width; x++)
            st_str8_buf_fmt(f, "%d%s", TILES_FIRSTGID + terrain_tile(lv, x, y), x + 1 < lv->width || y + 1 < lv->height ? "," : "");
        st_str8_buf_fmt(f, "\n");
    }
    st_str8_buf_fmt(f, "%s", "</data>\n </layer>\n <objectgroup id=\"2\" name=\"entities\">\n");
    object_open(&w, "player", "player", SPRITES_FIRSTGID + SPR_PLAYER, lv->start_tx, lv->start_ty, false);
    static const char *const enemy_types[ENEMY_KIND_COUNT] = {"patroller", "chaser", "turret"};
    static const int enemy_sprites[ENEMY_KIND_COUNT] = {SPR_PATROLLER, SPR_CHASER, SPR_TURRET};
    for (int32_t i = 0; i < lv->enemy_count; i++) {
        const EnemySpawn *e = &lv->enemies[i];
        object_open(&w, enemy_types[e->kind], NULL, SPRITES_FIRSTGID + enemy_sprites[e->kind], e->tx, e->ty, e->hp > 0);
        if (e->hp > 0) {
            char hp[16];
            snprintf(hp, sizeof hp, "%d", e->hp);
            st_str8_buf_fmt(f, "%s", "   <properties>\n");
            property(f, "hp", "int", hp);
            st_str8_buf_fmt(f, "%s", "   </properties>\n  </object>\n");
        }
    }
    for (int32_t i = 0; i < lv->pickup_count; i++) {
        const Pickup *k = &lv->pickups[i];
        if (k->kind == PICKUP_KEY) {
            object_open(&w, "key", NULL, SPRITES_FIRSTGID + SPR_KEY_RED + (int)k->color, k->tx, k->ty, true);
            st_str8_buf_fmt(f, "%s", "   <properties>\n");
            property(f, "color", NULL, color_names[k->color]);
            st_str8_buf_fmt(f, "%s", "   </properties>\n  </object>\n");
        } else {
            bool coin = k->kind == PICKUP_COIN;
            object_open(&w, coin ? "coin" : "heart", NULL, SPRITES_FIRSTGID + (coin ? SPR_COIN : SPR_HEART), k->tx, k->ty, false);
        }
    }
    for (int32_t i = 0; i < lv->door_count; i++) {
        const LevelDoor *d = &lv->doors[i];
        object_open(&w, "door", NULL, TILES_FIRSTGID + TS_DOOR_RED + (int)d->color, d->tx, d->ty, true);
        st_str8_buf_fmt(f, "%s", "   <properties>\n");
        property(f, "color", NULL, color_names[d->color]);
        st_str8_buf_fmt(f, "%s", "   </properties>\n  </object>\n");
    }
    for (int32_t i = 0; i < lv->link_count; i++) {
        const LevelLink *l = &lv->links[i];
        object_open(&w, "portal", NULL, TILES_FIRSTGID + TS_PORTAL_0, l->tx, l->ty, true);
        st_str8_buf_fmt(f, "%s", "   <properties>\n");
        if (l->entry) property(f, "entry", NULL, l->entry);
        st_str8_buf_fmt(f, "%s", "    <property name=\"target\" value=\"");
        put_level_path(f, l->target_written ? l->target_written : l->target_path, keep_links);
        st_str8_buf_fmt(f, "%s", "\"/>\n   </properties>\n  </object>\n");
    }
    for (int32_t i = 0; i < lv->entry_count; i++) {
        /* A point at the tile's centre: an entry is a place, not a thing to draw. */
        const LevelEntry *e = &lv->entries[i];
        st_str8_buf_fmt(f, "  <object id=\"%d\" name=\"", w.next_id++);
        put_attr(f, e->name);
        st_str8_buf_fmt(f, "\" type=\"entry\" x=\"%d\" y=\"%d\">\n   <point/>\n  </object>\n", e->tx * TILE_PX + TILE_PX / 2,
                e->ty * TILE_PX + TILE_PX / 2);
    }
    for (int32_t i = 0; i < lv->sign_count; i++) {
        const LevelSign *g = &lv->signs[i];
        object_open(&w, "sign", NULL, SPRITES_FIRSTGID + SPR_SIGN, g->tx, g->ty, true);
        st_str8_buf_fmt(f, "%s", "   <properties>\n");
        property(f, "text", NULL, g->text.data);
        st_str8_buf_fmt(f, "%s", "   </properties>\n  </object>\n");
    }
    st_str8_buf_fmt(f, "%s", " </objectgroup>\n</map>\n");
    bool ok = out_write(f, out_path);
    st_arena_temp_end(t);
    return ok;
}

enum { OPT_OUT = CLI_OPT_VERSION + 1, OPT_ASSETS, OPT_KEEP_LINKS, OPT_COUNT };
static const CliOption OPTS[OPT_COUNT] = {
    CLI_STANDARD_OPTIONS,
    [OPT_OUT] = {.name = "-o", .arg = CLI_PATH},
    [OPT_ASSETS] = {.name = "--assets", .arg = CLI_PATH},
    [OPT_KEEP_LINKS] = {.name = "--keep-links", .arg = CLI_SWITCH},
};

int main(int argc, char **argv) {
    CliValue v[OPT_COUNT];
    Arena *args = st_arena_create((ArenaParams){.name = "arguments"});
    if (!args || !st_os_args_utf8(args, &argc, &argv)) return 1; /* Windows: UTF-8 paths */
    const char **files = args ? st_arena_push_array(args, const char *, (uint64_t)argc) : NULL;
    if (!files) return 1;
    CliProgram prog = {"lvl2tiled", usage_text, NULL, OPTS, OPT_COUNT, 1, argc};
    int count, rc = st_cli_run(&prog, AD_VERSION, argc, argv, v, files, &count);
    if (rc >= 0) return rc;
    if (!v[OPT_OUT].given) {
        st_diag_report(DIAG_ERROR, "lvl2tiled: -o OUTDIR is missing: where do the maps go?");
        return fputs(usage_text, stderr), 2;
    }
    const char *outdir = v[OPT_OUT].text, *assets = v[OPT_ASSETS].given ? v[OPT_ASSETS].text : "assets";
    bool keep_links = v[OPT_KEEP_LINKS].given;
    if (!st_os_make_dirs(outdir)) {
        st_diag_report_at(DIAG_ERROR, outdir, 0, 0, "cannot make the folder");
        return 1;
    }
    char out_real[PATH_MAX], assets_real[PATH_MAX], rel[PATH_MAX];
    char tiles_rel[PATH_MAX + 16], sprites_rel[PATH_MAX + 16]; /* rel, a slash and a file name */
    if (!st_os_real_path(outdir, out_real, sizeof out_real) || !st_os_real_path(assets, assets_real, sizeof assets_real)) {
        st_diag_report_at(DIAG_ERROR, assets, 0, 0, "expected the assets folder (tiles.png, sprites.png), found none");
        return 1;
    }
    relative_path(out_real, assets_real, rel, sizeof rel);
    snprintf(tiles_rel, sizeof tiles_rel, "%s%stiles.png", rel, rel[0] ? "/" : "");
    snprintf(sprites_rel, sizeof sprites_rel, "%s%ssprites.png", rel, rel[0] ? "/" : "");
    if (!write_tileset(args, outdir, "tiles", tiles_rel, ATLAS_COLS * 16, TILES_ROWS * 16) ||
        !write_tileset(args, outdir, "sprites", sprites_rel, ATLAS_COLS * 16, SPRITES_ROWS * 16))
        return 1;
    Arena *level_arena =
        st_arena_create((ArenaParams){.reserve_size = 1ull << 30, .flags = ARENA_FLAG_NO_CHAIN, .name = "level"});
    if (!level_arena) return 1;
    int failed = 0;
    for (int i = 0; i < count; i++) {
        Level lv;
        Error err;
        if (!level_load(&lv, level_arena, files[i], &err)) {
            st_error_report(&err);
            failed++;
            continue;
        }
        Str8 base = st_path_base_name(st_str8_cstr(files[i]));
        int64_t dot = -1;
        for (uint64_t k = 0; k < base.len; k++)
            if (base.data[k] == '.') dot = (int64_t)k;
        if (dot > 0) base = st_str8_prefix(base, (uint64_t)dot);
        char out[PATH_MAX];
        snprintf(out, sizeof out, "%s/%.*s.tmx", outdir, STR8_FMT(base));
        if (!write_map(args, &lv, out, keep_links)) failed++;
    }
    st_arena_release(level_arena);
    return failed ? 1 : 0;
}
