package builtin

import (
	"fmt"
	"strings"
	"testing"

	"cegpv.dev/cegpv/backend"
	"cegpv.dev/cegpv/program"
)

// TestSpinLoops checks which loops are recognised as busy waits.
func TestSpinLoops(t *testing.T) {
	for _, tc := range []struct {
		loop string
		spin bool
	}{
		{"while (l != s) ;", true},
		{"while (flag == 1 && turn == 1) ;", true},
		{"while (1) { if (flag) break; }", true},
		{"do { r = s; } while (r == 0);", true},
		{"while (s < 3) s = s + 1;", false},                     // writes a global
		{"while (l < s) l = l + 1;", false},                     // reads the previous iteration's l
		{"while (s == 0) { if (s == 2) break; r = 1; }", false}, // r is not written before the exit
		{"while (s == 0) r = __VERIFIER_nondet_int();", false},  // draws values
		{"while (s / l == 0) ;", false},                         // may divide by zero
		{"while (s == 0) g();", false},                          // calls
	} {
		src := fmt.Sprintf(`
int s, flag, turn;
void g(void) {}
void *w(void *a) { unsigned l = 1; int r = 0; %s return (void *)(long)r; }
int main() { pthread_t t; pthread_create(&t, 0, w, 0); s = 1; return 0; }`, tc.loop)
		p := lower(t, "spin", src)
		f := p.Func("w")
		e := &enc{p: p}
		got := false
		for pc, in := range f.Body {
			if in.Op == program.OpGoto && e.spinLoop(f, pc) {
				got = true
			}
		}
		if got != tc.spin {
			var b strings.Builder
			program.Show(&b, p)
			t.Errorf("%s: busy wait %v, want %v\n%s", tc.loop, got, tc.spin, b.String())
		}
	}
}

// TestSpinWait checks verdicts that need a wait longer than the unwinding
// bound: the consumer spins until the producer, whose loop runs to the
// bound, is done.
func TestSpinWait(t *testing.T) {
	const prog = `
int ready, data;
void *producer(void *a) { int i; for (i = 0; i < 3; i++) data = data + 1; %s return 0; }
int main() { pthread_t t; pthread_create(&t, 0, producer, 0); while (!ready) ; assert(data %s 3); return 0; }`
	runCTests(t, []ctest{
		{name: "wait_safe", src: fmt.Sprintf(prog, "ready = 1;", "=="), want: backend.Safe, unwind: 4},
		{name: "wait_unsafe", src: fmt.Sprintf(prog, "ready = 1;", "!="), want: backend.Unsafe, unwind: 4},
		{name: "wait_forever", src: fmt.Sprintf(prog, "", "!="), want: backend.Safe, unwind: 4},
	})
}
