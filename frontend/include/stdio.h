#ifndef __CEGPV_STDIO_H
#define __CEGPV_STDIO_H
#include <stddef.h>
typedef struct __cegpv_FILE FILE;
extern FILE *stdin, *stdout, *stderr;
#define EOF (-1)
int printf(const char *, ...);
int fprintf(FILE *, const char *, ...);
int sprintf(char *, const char *, ...);
int snprintf(char *, size_t, const char *, ...);
int scanf(const char *, ...);
int sscanf(const char *, const char *, ...);
int puts(const char *);
int putchar(int);
int getchar(void);
int fflush(FILE *);
#endif
