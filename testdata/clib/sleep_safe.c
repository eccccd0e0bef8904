// expect: safe
// sleep, usleep, nanosleep and sched_yield are no-ops in a model without
// time or signals: they return 0, nanosleep -1 for an invalid tv_nsec.
#include <assert.h>
#include <time.h>
#include <unistd.h>
#include <sched.h>
int main(void) {
  struct timespec ts = { 0, 1000 }, bad = { 0, 1000000000 };
  assert(sleep(0) == 0 && usleep(10) == 0 && sched_yield() == 0);
  assert(nanosleep(&ts, 0) == 0 && nanosleep(&bad, &ts) == -1);
  return 0;
}
