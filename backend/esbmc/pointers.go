package esbmc

import (
	"fmt"

	"cegpv.dev/cegpv/program"
)

// pointerAccess returns where p first reads or writes memory through a
// pointer (a dereference, an index of a pointer, a heap block), or "".
//
// ESBMC 8.4 misses interleavings at such accesses: on the printed
// testdata/progs/heap_shared_unsafe.c (a message on the heap, passed to
// two threads) and on the same program with the message a local of main
// passed by address, it answers VERIFICATION SUCCESSFUL although a
// violation is reachable (with the message a global, it finds it). Its
// Safe is therefore not trusted on such programs. A program that creates
// no thread (the lazy sequentialisation's output) has no interleavings to
// miss: "".
func pointerAccess(p *program.Program) string {
	threads := false
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			threads = threads || in.Op == program.OpSpawn
		}
	}
	if !threads {
		return ""
	}
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			if in.Op == program.OpAlloc || in.Op == program.OpRealloc {
				return fmt.Sprintf("a heap block at %s", in.Pos)
			}
			found := false
			for _, e := range in.Operands() {
				program.Walk(e, func(x program.Expr) bool {
					switch x := x.(type) {
					case *program.Deref:
						found = true
					case *program.Index:
						if t := x.X.Type(); t != nil && t.Kind == program.Pointer {
							found = true
						}
					}
					return !found
				})
			}
			if found {
				return fmt.Sprintf("an access through a pointer at %s", in.Pos)
			}
		}
	}
	return ""
}

// reallocAt returns where p reallocates a heap block, or "".
//
// ESBMC 8.4's realloc does not always carry the old block's contents: on
// the lazy sequentialisation of testdata/progs/realloc_shared_safe.c (3
// rounds; a block grown twice, by sizes that are not constants) it
// reports a violation in which the grown block's first element holds other
// bytes than the old block's (the run cannot be followed, so the answer is
// UNKNOWN, never FALSE). Its Safe on such a program is not trusted either.
func reallocAt(p *program.Program) string {
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			if in.Op == program.OpRealloc {
				return fmt.Sprintf("a realloc at %s", in.Pos)
			}
		}
	}
	return ""
}
