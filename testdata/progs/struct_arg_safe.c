// expect: safe
// bounds: unwind=3 threads=2
// A struct and pointers shared through the thread argument: each job
// points to the same account, whose mutex is a struct member. Deposits are
// made under that lock, so both are counted.
#include <pthread.h>
#include <assert.h>

struct account {
  pthread_mutex_t lock;
  int balance;
  int ops;
};

struct job {
  struct account *acc;
  int amount;
};

void *deposit(void *arg) {
  struct job *j = (struct job *)arg;
  pthread_mutex_lock(&j->acc->lock);
  j->acc->balance = j->acc->balance + j->amount;
  j->acc->ops = j->acc->ops + 1;
  pthread_mutex_unlock(&j->acc->lock);
  return 0;
}

int main(void) {
  struct account acc;
  struct job j1, j2;
  pthread_t a, b;
  pthread_mutex_init(&acc.lock, 0);
  acc.balance = 0;
  acc.ops = 0;
  j1.acc = &acc;
  j1.amount = 5;
  j2.acc = &acc;
  j2.amount = 7;
  pthread_create(&a, 0, deposit, &j1);
  pthread_create(&b, 0, deposit, &j2);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(acc.balance == 12 && acc.ops == 2);
  return 0;
}
