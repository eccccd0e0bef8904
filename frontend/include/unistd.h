#ifndef __CEGPV_UNISTD_H
#define __CEGPV_UNISTD_H
#include <stddef.h>
unsigned int sleep(unsigned int);
int usleep(unsigned int);
#endif
