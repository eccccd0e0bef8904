#ifndef __CEGPV_ASSERT_H
#define __CEGPV_ASSERT_H
/* assert is a function here, not glibc's macro, so that assertions stay visible. */
void assert(int);
void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
#endif
