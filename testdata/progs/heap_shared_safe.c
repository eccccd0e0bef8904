// expect: safe
// bounds: unwind=3 threads=2
// The heap message of heap_shared_unsafe.c with the writes in the right
// order: the payload is written before `ready`, so under interleaving
// semantics a receiver that sees ready == 1 also sees the payload.
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

struct msg {
  int ready;
  int payload;
};

void *sender(void *arg) {
  struct msg *m = (struct msg *)arg;
  m->payload = 42;
  m->ready = 1;
  return 0;
}

void *receiver(void *arg) {
  struct msg *m = (struct msg *)arg;
  if (m->ready == 1)
    assert(m->payload == 42);
  return 0;
}

int main(void) {
  pthread_t s, r;
  struct msg *m = malloc(sizeof(struct msg));
  if (m == 0)
    return 0;
  m->ready = 0;
  m->payload = 0;
  pthread_create(&s, 0, sender, m);
  pthread_create(&r, 0, receiver, m);
  pthread_join(s, 0);
  pthread_join(r, 0);
  free(m);
  return 0;
}
