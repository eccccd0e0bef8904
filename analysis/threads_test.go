package analysis

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestThreadPrivate checks which globals one thread instance alone
// accesses in every run.
func TestThreadPrivate(t *testing.T) {
	const pre = "#include <pthread.h>\n"
	for _, tc := range []struct {
		name, src string
		want      string // private globals, sorted, comma-separated
	}{
		{"one thread each", `
int a, b, s;
void *t(void *x) { for (b = 0; b < 10; b++) s++; return 0; }
int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); for (a = 0; a < 3; a++) ; s = 2; return 0; }`, "a,b"},
		// each instance of t has its own view of nothing: b is shared by them
		{"spawned in a loop", `
int b;
void *t(void *x) { b++; return 0; }
int main(void) { pthread_t h; for (int i = 0; i < 2; i++) pthread_create(&h, 0, t, 0); return 0; }`, ""},
		{"two spawns", `
int b;
void *t(void *x) { b++; return 0; }
int main(void) { pthread_t h, k; pthread_create(&h, 0, t, 0); pthread_create(&k, 0, t, 0); return 0; }`, ""},
		{"main reads after join", `
int b;
void *t(void *x) { b = 1; return 0; }
int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); pthread_join(h, 0); return b; }`, ""},
		// f runs in main and in t: c is not private; d is main's
		{"shared callee", `
int c, d;
void f(void) { c++; }
void *t(void *x) { f(); return 0; }
int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); f(); d = 1; return 0; }`, "d"},
		// a thread that creates the thread: not main's one spawn
		{"spawned by a thread", `
int e;
void *u(void *x) { e++; return 0; }
void *t(void *x) { pthread_t k; pthread_create(&k, 0, u, 0); return 0; }
int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); return 0; }`, ""},
		{"function pointer", `
int g;
void f(void) { g++; }
int main(void) { void (*fp)(void) = f; fp(); return 0; }`, ""},
		{"named by an initialiser", `
int g;
int *p = &g;
int main(void) { g = 1; return *p; }`, "p"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := lowerC(t, "priv.c", pre+tc.src)
			got := strings.Join(slices.Sorted(maps.Keys(ThreadPrivate(p))), ",")
			if got != tc.want {
				t.Errorf("private %q, want %q", got, tc.want)
			}
		})
	}
}
