#ifndef __CEGPV_SCHED_H
#define __CEGPV_SCHED_H
int sched_yield(void);
#endif
