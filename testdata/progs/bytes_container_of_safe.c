// expect: safe
// bounds: unwind=2 threads=3
// truth: gcc -m32/-m64, 500 runs each: the assertion always holds.
// container_of over an array of structs: each thread gets the address of
// the link member of one element and steps back offsetof bytes (8: after
// a char, its padding and an int, on both data models) to the element
// that holds it; each element's key then names its index. A model moving
// by scalars lands two elements earlier.
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
  assert(nodes[0].key == 0 && nodes[1].key == 0 && nodes[2].key == 12 && nodes[3].key == 13);
  return 0;
}
