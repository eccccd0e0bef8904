// expect: unsafe
// bounds: unwind=4 threads=2
// A connection state machine (switch + goto) driven by nondet events, and a
// sender thread. The sender is supposed to transmit only in CONNECTED but
// tests `state != IDLE`, so it also transmits in CONNECTING (after the
// first event 0) or in CLOSED, which the assertion catches.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

#define IDLE 0
#define CONNECTING 1
#define CONNECTED 2
#define CLOSED 3

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int state = IDLE;
int sent = 0;

void *driver(void *arg) {
  int i, ev;
  for (i = 0; i < 3; i++) {
    ev = __VERIFIER_nondet_int();
    __VERIFIER_assume(ev >= 0 && ev <= 2);
    pthread_mutex_lock(&m);
    switch (state) {
    case IDLE:
      if (ev == 0)
        state = CONNECTING;
      break;
    case CONNECTING:
      if (ev == 1)
        state = CONNECTED;
      else if (ev == 2)
        goto reset;
      break;
    case CONNECTED:
      if (ev == 2)
        state = CLOSED;
      break;
    default:
      break;
    }
    goto done;
  reset:
    state = IDLE;
  done:
    pthread_mutex_unlock(&m);
  }
  return 0;
}

void *sender(void *arg) {
  pthread_mutex_lock(&m);
  if (state != IDLE) {
    sent = sent + 1;
    assert(state == CONNECTED);
  }
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t d, s;
  pthread_create(&d, 0, driver, 0);
  pthread_create(&s, 0, sender, 0);
  pthread_join(d, 0);
  pthread_join(s, 0);
  return 0;
}
