/* Allocation that never returns NULL: out of memory aborts (as in tmux). */
#ifndef MIGRATOR_XALLOC_H
#define MIGRATOR_XALLOC_H
#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Returns a newly allocated formatted string; caller frees. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
