package analysis

import (
	"strings"
	"testing"

	"cegpv.dev/cegpv/internal/progen"
	P "cegpv.dev/cegpv/program"
)

// TestLocks checks which globals the lock analysis finds protected.
func TestLocks(t *testing.T) {
	const head = "#include <pthread.h>\nextern void __VERIFIER_assume(int);\nint x, y, z, mtx, *gp;\npthread_mutex_t m, m2;\n" +
		"void __VERIFIER_atomic_acquire(int *l) { __VERIFIER_assume(*l == 0); *l = 1; }\n" +
		"void __VERIFIER_atomic_release(int *l) { __VERIFIER_assume(*l == 1); *l = 0; }\n" +
		"void __VERIFIER_atomic_take(void) { __VERIFIER_assume(mtx == 0); mtx = 1; }\n" +
		"void __VERIFIER_atomic_give(void) { mtx = 0; }\n" +
		"_Bool bm = !1;\nvoid __VERIFIER_atomic_btake(void) { __VERIFIER_assume(bm == 0); bm = 1; }\n" +
		"void __VERIFIER_atomic_bgive(void) { __VERIFIER_assume(bm == 1); bm = 0; }\n"
	const tail = "\nint main(void) { pthread_t a, b; x = 5; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0); return 0; }\n"
	cases := []struct {
		name, body string
		protected  map[string]string // global -> lock ("" = unprotected)
	}{
		{"mutex", "pthread_mutex_lock(&m); x = x + 1; y = x; pthread_mutex_unlock(&m); y = 2;",
			map[string]string{"x": "m", "y": ""}},
		{"two mutexes", "pthread_mutex_lock(&m); x = 1; pthread_mutex_lock(&m2); y = x; pthread_mutex_unlock(&m); y = 3; pthread_mutex_unlock(&m2);",
			map[string]string{"x": "m", "y": "m2"}},
		{"atomic functions through a pointer", "__VERIFIER_atomic_acquire(&z); x = 1; __VERIFIER_atomic_release(&z);",
			map[string]string{"x": "z"}},
		{"atomic functions on a global", "__VERIFIER_atomic_take(); x = 1; __VERIFIER_atomic_give();",
			map[string]string{"x": "mtx"}},
		{"called through a function pointer in a global", "pthread_mutex_lock(&m); q = 1; pthread_mutex_unlock(&m); fp();",
			map[string]string{"q": ""}},
		{"_Bool lock", "__VERIFIER_atomic_btake(); x = 1; __VERIFIER_atomic_bgive();",
			map[string]string{"x": "bm"}},
		{"release by a thread that does not hold it", "__VERIFIER_atomic_give(); __VERIFIER_atomic_take(); x = 1; __VERIFIER_atomic_give();",
			map[string]string{"x": ""}},
		{"unlock without the lock", "pthread_mutex_unlock(&m); pthread_mutex_lock(&m); x = 1; pthread_mutex_unlock(&m);",
			map[string]string{"x": ""}},
		{"lock address leaks", "gp = &z; __VERIFIER_atomic_acquire(&z); x = 1; __VERIFIER_atomic_release(&z);",
			map[string]string{"x": ""}},
		{"lock written directly", "__VERIFIER_atomic_acquire(&z); x = 1; __VERIFIER_atomic_release(&z); z = 0;",
			map[string]string{"x": ""}},
		{"lock held on one path only", "if (y) pthread_mutex_lock(&m); x = 1; if (y) pthread_mutex_unlock(&m);",
			map[string]string{"x": ""}},
		{"callee keeps the lock", "pthread_mutex_lock(&m); f(); pthread_mutex_unlock(&m);",
			map[string]string{"x": "m"}},
		{"callee releases and takes it again", "pthread_mutex_lock(&m); g(); x = 2; pthread_mutex_unlock(&m);",
			map[string]string{"x": "m"}},
		{"callee releases it", "pthread_mutex_lock(&m); h(); x = 2; pthread_mutex_lock(&m); pthread_mutex_unlock(&m);",
			map[string]string{"x": ""}},
		{"release through a lock function", "pthread_mutex_lock(&m); x = 2; h();",
			map[string]string{"x": "m"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := head + "int q;\nvoid bump(void) { q = q + 1; }\nvoid (*fp)(void) = bump;\nvoid f(void) { x = x + 1; }\nvoid g(void) { pthread_mutex_unlock(&m); pthread_mutex_lock(&m); }\nvoid h(void) { pthread_mutex_unlock(&m); }\n" +
				"void *w(void *arg) {\n" + c.body + "\nreturn 0; }\n" + tail
			p := lowerC(t, c.name+".c", src)
			li := AnalyseLocks(p)
			for g, lock := range c.protected {
				var got []string
				if li != nil {
					for i, l := range li.locks {
						if li.protected[g]&(1<<i) != 0 {
							got = append(got, l)
						}
					}
				}
				if lock == "" && len(got) > 0 || lock != "" && (len(got) != 1 || got[0] != lock) {
					t.Errorf("%s protected by %v, want %q", g, got, lock)
				}
			}
		})
	}
}

// TestLockReads checks that a thread may read a lock privately only while
// it holds it: inside the release function (called with the lock held),
// not inside the acquire function.
func TestLockReads(t *testing.T) {
	src := "#include <pthread.h>\nextern void __VERIFIER_assume(int);\nint x, mtx;\n" +
		"void __VERIFIER_atomic_take(void) { __VERIFIER_assume(mtx == 0); mtx = 1; }\n" +
		"void __VERIFIER_atomic_give(void) { __VERIFIER_assume(mtx == 1); mtx = 0; }\n" +
		"void *w(void *arg) { __VERIFIER_atomic_take(); x = x + 1; __VERIFIER_atomic_give(); return 0; }\n" +
		"int main(void) { pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0); return 0; }\n"
	p := lowerC(t, "reads.c", src)
	li := AnalyseLocks(p)
	if li == nil {
		t.Fatal("no lock found")
	}
	if li.guarded(p.Func("__VERIFIER_atomic_take"), 0, "mtx") {
		t.Errorf("the acquire function reads the lock privately")
	}
	if !li.guarded(p.Func("__VERIFIER_atomic_give"), 0, "mtx") {
		t.Errorf("the release function, called with the lock held, does not read it privately")
	}
}

// TestLocksGenerated checks that the analysis sees the discipline of the
// guarded generated programs (s is touched only under m) in most of them,
// so that the property test comparing the explicit search with the
// symbolic encoding on them exercises the reduction.
func TestLocksGenerated(t *testing.T) {
	n, seen := 30, 0
	for seed := int64(1); seed <= int64(n); seed++ {
		p := lowerC(t, "gen.c", progen.GenerateGuarded(seed))
		li := AnalyseLocks(p)
		if li != nil && li.protected["s"] != 0 {
			seen++
		}
		uses := false
		for _, f := range p.Funcs {
			for _, in := range f.Body {
				for _, e := range in.Operands() {
					P.Walk(e, func(x P.Expr) bool {
						if r, ok := x.(*P.Ref); ok && !r.Local && r.Name == "s" {
							uses = true
						}
						return true
					})
				}
			}
		}
		if !uses {
			seen++ // nothing to protect
		}
	}
	if seen < n*2/3 {
		t.Errorf("s protected in %d of %d guarded programs", seen, n)
	}
}

// TestLiveLocals checks the liveness that Explore's state keys use: a
// local is left out where every path stores it (or ends) before reading it.
func TestLiveLocals(t *testing.T) {
	src := "extern void __VERIFIER_error(void);\nint g;\nvoid set(int *p) { *p = 1; }\n" +
		"int main(void) { int a = g; int b; g = a; b = 2; if (g) b = 3; g = b; set(&a); if (g == 5) __VERIFIER_error(); g = b; return 0; }\n"
	p := lowerC(t, "live.c", src)
	f := p.Func("main")
	live := LiveLocals(f, TakenAddrs(p))
	idx := func(name string) int {
		for i, v := range f.Locals {
			if v.Name == name {
				return len(f.Params) + i
			}
		}
		t.Fatalf("no local %s", name)
		return -1
	}
	at := func(text string) int {
		for pc, in := range f.Body {
			if in.String() == text || strings.Contains(in.String(), text) {
				return pc
			}
		}
		t.Fatalf("no instruction %q in %s", text, f.Name)
		return -1
	}
	a, b := idx("a"), idx("b")
	for _, c := range []struct {
		instr string
		v     int
		want  bool
	}{
		{"__tmp_1 = a", a, true},  // read here
		{"__tmp_1 = a", b, false}, // b is stored (b = 2) before any read
		{"b = 2", b, false},       // stored here
		{"g = b", b, true},        // read here
		{"g = b", a, true},        // the address of a is taken: always live
		{"if (g != 5)", b, true},  // read at the end
		{"assert(0)", b, false},   // the run ends at the violation
	} {
		if got := live[at(c.instr)][c.v]; got != c.want {
			t.Errorf("at %q, %s live = %v, want %v", c.instr, f.Locals[c.v-len(f.Params)].Name, got, c.want)
		}
	}
}

// TestLiveLocalsStores checks the two rules the observer relies on since
// it uses LiveLocals: a store into an element of a local array is not a
// read of the array (dead when nothing reads it later), and a local whose
// address is taken stays live to the end of its function and after it
// (main's locals outlive main; the observer once dropped them at return).
func TestLiveLocalsStores(t *testing.T) {
	src := "#include <pthread.h>\nint g;\nvoid *w(void *p) { g = *(int *)p; return 0; }\n" +
		"int main(void) { int a[2]; int i = g; a[i] = 1; a[0] = 2; int one = 1; pthread_t h; pthread_create(&h, 0, w, &one); return 0; }\n"
	p := lowerC(t, "stores.c", src)
	f := p.Func("main")
	live := LiveLocals(f, TakenAddrs(p))
	vars := append(append([]*P.Var(nil), f.Params...), f.Locals...)
	idx := map[string]int{}
	for i, v := range vars {
		idx[v.Name] = i
	}
	pcOf := func(text string) int {
		for pc, in := range f.Body {
			if strings.Contains(in.String(), text) {
				return pc
			}
		}
		t.Fatalf("no instruction %q", text)
		return -1
	}
	if live[pcOf("a[0] = 2")][idx["a"]] {
		t.Errorf("a is live before a[0] = 2, but nothing reads a")
	}
	if !live[pcOf("a[i] = 1")][idx["i"]] {
		t.Errorf("i is not live before a[i] = 1, which reads it as the index")
	}
	for _, pc := range []int{pcOf("return"), len(f.Body)} {
		if !live[pc][idx["one"]] {
			t.Errorf("one (address taken, read by thread w) is dead at %d", pc)
		}
	}
}
