// expect: unsafe
// bounds: unwind=3 threads=2
// Check-then-act across two atomic functions. The balance check and the
// withdrawal are each atomic, but not together: both clients can pass the
// check (10 >= 7) before either withdraws, leaving balance == -4.
#include <pthread.h>
#include <assert.h>

int balance = 10;

int __VERIFIER_atomic_can_withdraw(int amount) {
  return balance >= amount;
}

void __VERIFIER_atomic_withdraw(int amount) {
  balance = balance - amount;
}

void *client(void *arg) {
  if (__VERIFIER_atomic_can_withdraw(7))
    __VERIFIER_atomic_withdraw(7);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, client, 0);
  pthread_create(&b, 0, client, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(balance >= 0);
  return 0;
}
