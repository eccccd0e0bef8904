#ifndef __CEGPV_TIME_H
#define __CEGPV_TIME_H
#include <stddef.h>
typedef long time_t;
struct timespec { time_t tv_sec; long tv_nsec; };
int nanosleep(const struct timespec *, struct timespec *);
#endif
