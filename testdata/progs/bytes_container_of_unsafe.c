// expect: unsafe
// bounds: unwind=2 threads=3
// truth: gcc -m32/-m64, 500 runs each: the assertion fails in every run.
// container_of over an array of structs (as bytes_container_of_safe.c):
// the thread given &nodes[3].l writes nodes[3].key = 13; a model moving
// by scalars lands on nodes[1] and proves this assertion.
#include <pthread.h>
#include <assert.h>
#include <stddef.h>

#define container_of(ptr, type, member) \
  ((type *)((char *)(ptr) - offsetof(type, member)))

struct link {
  struct link *next;
};
struct node {
  char tag;
  int key;
  struct link l;
};
struct node nodes[4];

void *t(void *arg) {
  struct node *n = container_of((struct link *)arg, struct node, l);
  n->key = (int)(n - nodes) + 10;
  return 0;
}

int main(void) {
  pthread_t h1, h2;
  pthread_create(&h1, 0, t, &nodes[2].l);
  pthread_create(&h2, 0, t, &nodes[3].l);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  assert(nodes[3].key != 13);
  return 0;
}
