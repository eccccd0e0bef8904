// expect: unsafe
// bounds: unwind=2 threads=1
// Issue 26: as offsetof_thread_safe.c, with the assertion negated.
// truth: gcc -pthread -m32/-m64, 200 runs each, assertion fails every run.
#include <pthread.h>
#include <assert.h>
#include <stddef.h>
struct rec { char tag; int pad[3]; int val; } r;
void *t(void *arg) {
  int *pv = (int *)((char *)arg + offsetof(struct rec, val)); *pv = 42; return 0; }
int main(void) { pthread_t h; pthread_create(&h, 0, t, &r); pthread_join(h, 0);
                 assert(r.val != 42); return 0; }
