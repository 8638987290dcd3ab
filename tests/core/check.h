/* check.h - the test harness: CHECK(expr) reports file:line and the expression when expr is
   false and marks the test failed; CHECK_EQ_U/CHECK_EQ_I also print both values, CHECK_STR
   both strings (a NULL first one reads "(null)"). A test's main ends with `return
   check_result();`, so any failed check makes the program exit 1. The checks keep going
   after a failure, to report everything that broke in one run. */
#ifndef CHECK_H
#define CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures_;

#define CHECK(expr)                                                                    \
    do {                                                                               \
        if (!(expr)) {                                                                 \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #expr);   \
            check_failures_++;                                                         \
        }                                                                              \
    } while (0)

#define CHECK_EQ_U(a, b)                                                               \
    do {                                                                               \
        unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b); \
        if (a_ != b_) {                                                                \
            fprintf(stderr, "%s:%d: CHECK failed: %s == %s (%llu vs %llu)\n", __FILE__, \
                    __LINE__, #a, #b, a_, b_);                                         \
            check_failures_++;                                                         \
        }                                                                              \
    } while (0)

#define CHECK_EQ_I(a, b)                                                               \
    do {                                                                               \
        long long a_ = (long long)(a), b_ = (long long)(b);                            \
        if (a_ != b_) {                                                                \
            fprintf(stderr, "%s:%d: CHECK failed: %s == %s (%lld vs %lld)\n", __FILE__, \
                    __LINE__, #a, #b, a_, b_);                                         \
            check_failures_++;                                                         \
        }                                                                              \
    } while (0)

#define CHECK_STR(a, b)                                                                \
    do {                                                                               \
        const char *a_ = (a), *b_ = (b);                                               \
        if (strcmp(a_ ? a_ : "(null)", b_) != 0) {                                     \
            fprintf(stderr, "%s:%d: CHECK failed: \"%s\" == \"%s\"\n", __FILE__,        \
                    __LINE__, a_, b_);                                                 \
            check_failures_++;                                                         \
        }                                                                              \
    } while (0)

/* Stops the test at once when continuing would only crash (a NULL to dereference). */
#define REQUIRE(expr)                                                                  \
    do {                                                                               \
        if (!(expr)) {                                                                 \
            fprintf(stderr, "%s:%d: REQUIRE failed: %s\n", __FILE__, __LINE__, #expr); \
            return 1;                                                                  \
        }                                                                              \
    } while (0)

/* The same, for void helper functions. */
#define REQUIRE_VOID(expr)                                                             \
    do {                                                                               \
        if (!(expr)) {                                                                 \
            fprintf(stderr, "%s:%d: REQUIRE failed: %s\n", __FILE__, __LINE__, #expr); \
            check_failures_++;                                                         \
            return;                                                                    \
        }                                                                              \
    } while (0)

static inline int check_result(void) {
    if (check_failures_) fprintf(stderr, "%d check(s) failed\n", check_failures_);
    return check_failures_ ? 1 : 0;
}

#endif
