#ifndef __CEGPV_TIME_H
#define __CEGPV_TIME_H
/* The types pthread.h needs (timed waits) and nanosleep (a no-op of the
   model, extern.go); the clock functions are not declared: the model has
   no time. */
typedef long time_t;
struct timespec { time_t tv_sec; long tv_nsec; };
int nanosleep(const struct timespec *, struct timespec *);
#endif
