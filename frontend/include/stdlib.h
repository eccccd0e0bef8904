#ifndef __CEGPV_STDLIB_H
#define __CEGPV_STDLIB_H
#include <stddef.h>
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 2147483647
void *malloc(size_t);
void *calloc(size_t, size_t);
void *realloc(void *, size_t);
void free(void *);
void abort(void) __attribute__((__noreturn__));
void exit(int) __attribute__((__noreturn__));
int rand(void);
void srand(unsigned);
int abs(int);
long labs(long);
int atoi(const char *);
long atol(const char *);
#endif
