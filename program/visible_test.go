package program

import "testing"

// TestSharedAccess: globals, dereferences and address-taken (or
// undeclared) locals are shared; a private local is not; the address of a
// variable is an access only when addrs is set.
func TestSharedAccess(t *testing.T) {
	ip := PointerTo(IntT, 8)
	f := &Func{Name: "f", Locals: []*Var{{Name: "p", Type: IntT}, {Name: "a", Type: IntT, AddrTaken: true}, {Name: "q", Type: ip}}}
	cases := []struct {
		name   string
		e      Expr
		addrs  bool
		shared bool
	}{
		{"private local", bin(Add, lref("p", IntT), ic(1)), true, false},
		{"global", bin(Add, lref("p", IntT), gref("g", IntT)), true, true},
		{"address-taken local", lref("a", IntT), true, true},
		{"undeclared local", lref("z", IntT), true, true},
		{"dereference of a private pointer", &Deref{X: lref("q", ip), T: IntT}, true, true},
		{"address, as an access", &AddrOf{X: lref("a", IntT), T: ip}, true, true},
		{"address, not a read", &AddrOf{X: lref("a", IntT), T: ip}, false, false},
		{"address of a global, not a read", &AddrOf{X: gref("g", IntT), T: ip}, false, false},
	}
	for _, c := range cases {
		if got := SharedAccess(f, c.e, c.addrs); got != c.shared {
			t.Errorf("%s: %v, want %v", c.name, got, c.shared)
		}
	}
}
