// expect: unsafe
// bounds: unwind=3 threads=2
// gcc gives an enum without a negative constant the type unsigned int
// (i386 and x86-64): a thread stores (enum level)-1 as an "unset" marker,
// which is UINT_MAX, and main's check that a level read after the join is
// at most HIGH fails. (Read as a signed int, -1 <= HIGH would hold.)
#include <pthread.h>
#include <assert.h>

enum level { LOW, MID, HIGH };

enum level lvl = MID;

void *reset(void *arg) {
  lvl = (enum level)-1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, reset, 0);
  pthread_join(t, 0);
  assert(lvl <= HIGH);
  return 0;
}
