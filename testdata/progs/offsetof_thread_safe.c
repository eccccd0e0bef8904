// expect: safe
// bounds: unwind=2 threads=1
// Issue 26: a thread writes r.val through a char * moved by offsetof (bytes),
// then an int *. truth: gcc -pthread -m32/-m64, 200 runs each, assertion holds.
#include <pthread.h>
#include <assert.h>
#include <stddef.h>
struct rec { char tag; int pad[3]; int val; } r;
void *t(void *arg) {
  int *pv = (int *)((char *)arg + offsetof(struct rec, val)); *pv = 42; return 0; }
int main(void) { pthread_t h; pthread_create(&h, 0, t, &r); pthread_join(h, 0);
                 assert(r.val == 42); return 0; }
