// expect: unsafe
// bounds: unwind=3 threads=2
// In the spirit of the motivating example of Abdulla, Atig, Diep,
// "Counter-Example Guided Program Verification" (FM 2016), Fig. 2 (written
// from memory: not a verbatim copy of the figure).
//
// Threads t1 and t2 (running thr1 and thr2) each add 1 to x, but only when a flag written by the
// other thread is already set: thr1 tests z (written by thr2), thr2 tests y
// (written by thr1). main checks x != 2 after both joins.
//
// Slicing to {t1, t2, x}: y and z are dropped, so both guards become
// nondet (`if (*)`), while the increments of x are kept. The abstract
// program then reaches x == 2 along *any* order of the two threads, e.g.
// all of t1 before all of t2 (the shortest, and typically the first,
// abstract counterexample). That run is spurious: when t1 runs alone first,
// its guard reads z == 0 because t2 has not written z yet. Reconstruction
// of the omitted variables {y, z} along it fails (SAFE), the run is
// excluded, and the refined abstract program must produce an interleaving
// in which both flag writes (y = 1 by t1 and z = 1 by t2) precede both
// tests and the two increments of x do not overlap (an overlapping
// increment loses an update and gives x == 1): that run is real.
#include <pthread.h>
#include <assert.h>

int x = 0;
int y = 0;
int z = 0;

void *thr1(void *arg) {
  y = 1;
  if (z == 1)
    x = x + 1;
  return 0;
}

void *thr2(void *arg) {
  z = 1;
  if (y == 1)
    x = x + 1;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, thr1, 0);
  pthread_create(&t2, 0, thr2, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(x != 2);
  return 0;
}
