/* virtual_array.c - VirtualArray: one reservation, committed and decommitted in steps. */
#include <strata/core/virtual_array.h>

#include <string.h>

#include <strata/core/diag.h>
#include <strata/core/os_memory.h>

/* Commit in steps of this many bytes (rounded to pages): few system calls while growing,
   and at most one step of unused memory held after a shrink. */
#define VIRTUAL_ARRAY_COMMIT_STEP (64ull << 10)

static uint64_t round_up(uint64_t x, uint64_t to) {
    uint64_t r = x % to;
    return r ? x + (to - r) : x;
}

static uint64_t commit_step(void) { return round_up(VIRTUAL_ARRAY_COMMIT_STEP, st_os_page_size()); }

bool st_virtual_array_init(VirtualArray *va, uint64_t elem_size, uint64_t reserve_bytes) {
    *va = (VirtualArray){0};
    if (elem_size == 0) {
        st_diag_report(DIAG_ERROR, "st_virtual_array_init: element size is 0");
        return false;
    }
    uint64_t reserve = reserve_bytes ? reserve_bytes : VIRTUAL_ARRAY_DEFAULT_RESERVE;
    if (reserve > (1ull << 46)) {
        st_diag_report(DIAG_ERROR, "st_virtual_array_init: reservation of %llu bytes is too large",
                       (unsigned long long)reserve);
        return false;
    }
    reserve = round_up(reserve, st_os_page_size());
    void *base = st_os_reserve(reserve);
    if (!base) {
        st_diag_report(DIAG_ERROR, "st_virtual_array_init: the OS refused to reserve %llu bytes",
                       (unsigned long long)reserve);
        return false;
    }
    *va = (VirtualArray){.base = base, .elem_size = elem_size, .reserved = reserve};
    return true;
}

void st_virtual_array_release(VirtualArray *va) {
    if (va->base) st_os_release(va->base, va->reserved);
    *va = (VirtualArray){0};
}

uint64_t st_virtual_array_capacity(const VirtualArray *va) { return va->elem_size ? va->reserved / va->elem_size : 0; }

/* Makes the committed range exactly the steps that cover `bytes`. */
static bool commit_to(VirtualArray *va, uint64_t bytes) {
    uint64_t target = round_up(bytes, commit_step());
    if (target > va->reserved) target = va->reserved;
    if (target > va->committed) {
        if (!st_os_commit((char *)va->base + va->committed, target - va->committed)) {
            st_diag_report(DIAG_ERROR, "virtual_array: the OS refused to commit %llu bytes",
                           (unsigned long long)(target - va->committed));
            return false;
        }
    } else if (target < va->committed) {
        st_os_decommit((char *)va->base + target, va->committed - target);
    }
    va->committed = target;
    return true;
}

bool st_virtual_array_set_count(VirtualArray *va, uint64_t count) {
    if (!va->base || count > st_virtual_array_capacity(va)) return false;
    uint64_t old_bytes = va->count * va->elem_size, new_bytes = count * va->elem_size;
    if (!commit_to(va, new_bytes)) return false;
    /* Pages kept committed across a shrink still hold old values. */
    if (new_bytes > old_bytes) memset((char *)va->base + old_bytes, 0, new_bytes - old_bytes);
    va->count = count;
    return true;
}

void *st_virtual_array_push_n(VirtualArray *va, uint64_t n) {
    uint64_t at = va->count;
    if (n > st_virtual_array_capacity(va) - at) return NULL;
    if (!st_virtual_array_set_count(va, at + n)) return NULL;
    return (char *)va->base + at * va->elem_size;
}

void *st_virtual_array_push(VirtualArray *va) { return st_virtual_array_push_n(va, 1); }

void st_virtual_array_clear(VirtualArray *va) {
    if (va->base) st_virtual_array_set_count(va, 0);
}

void *st_virtual_array_at(const VirtualArray *va, uint64_t i) {
    return i < va->count ? (char *)va->base + i * va->elem_size : NULL;
}
