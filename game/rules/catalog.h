/* catalog.h - the levels of a run's folder, for the title menu and the level select: each
   file's number, display name ("4. Patrol") and coin count, in file-name order.

       Catalog *c = &g->catalog;                    // plain data, held by value in the Game
       catalog_scan(c, "levels/01-first-steps.lvl");  // the folder of the run's first level
       for (int32_t i = 0; i < c->count; i++) ... c->levels[i].label ...

   Scanning loads every level once into an arena of its own, released when the scan ends
   (full validation: a level that would not load is listed as broken, not hidden), and
   keeps only the few facts above, in fixed arrays: the catalog owns no memory. It
   reads the disk, so the Game scans only when a menu first needs it, never during a
   replay. */
#ifndef CATALOG_H
#define CATALOG_H

#include <stdbool.h>
#include <stdint.h>

#include "rules/save.h"
#include "rules/sim.h"

#define CATALOG_MAX 64 /* levels listed; a folder with more lists the first by name */
#define CATALOG_LABEL_MAX 64

typedef struct CatalogLevel {
    char file[SAVE_NAME_MAX];      /* base name, the save's key: "04-patrol.lvl" */
    char label[CATALOG_LABEL_MAX]; /* "4. Patrol"; the file name when the level is broken */
    int32_t number;                /* from the file name's "NN-" prefix; 0: none */
    int32_t coins;                 /* coins in the level */
    bool broken;                   /* did not load: choosing it reports why */
} CatalogLevel;

typedef struct Catalog {
    char dir[SIM_PATH_MAX]; /* the folder, with its trailing '/' ("" for the current one) */
    CatalogLevel levels[CATALOG_MAX];
    int32_t count;
    bool scanned;
} Catalog;

/* Lists the `.lvl` files beside `first_level`. False (and an empty catalog) when the folder
   cannot be listed. */
bool catalog_scan(Catalog *c, const char *first_level);
/* Index of the level with this file name (a path's base name is used), -1 if absent. */
int32_t catalog_find(const Catalog *c, const char *file);
/* The full path of entry i, for sim_start_run. False if it does not fit. */
bool catalog_path(const Catalog *c, int32_t i, char *out, size_t cap);
/* The number a level's file name starts with ("07-the-vault.lvl" -> 7), 0 when none. */
int32_t catalog_file_number(const char *path);

#endif
