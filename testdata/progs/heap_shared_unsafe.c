// expect: unsafe
// bounds: unwind=3 threads=2
// A heap message shared between two threads through their argument. The
// sender publishes `ready` before writing the payload, so a receiver that
// runs in between sees ready == 1 and payload == 0 (reach_error).
#include <pthread.h>
#include <stdlib.h>

extern void reach_error(void);

struct msg {
  int ready;
  int payload;
};

void *sender(void *arg) {
  struct msg *m = (struct msg *)arg;
  m->ready = 1;
  m->payload = 42;
  return 0;
}

void *receiver(void *arg) {
  struct msg *m = (struct msg *)arg;
  if (m->ready == 1) {
    if (m->payload != 42)
      reach_error();
  }
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
