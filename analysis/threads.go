package analysis

import "cegpv.dev/cegpv/program"

// Thread-private globals.
//
// A global is private to a thread when, in every run, one thread instance
// alone reads and writes it: the built-in encoding then keeps it like a
// local of that thread (plain symbolic execution, no partial-order
// events), so that a loop over it (for (p = 0; p < 10; p++) with p a
// global) has constant bounds as a loop over a local does.
//
// ThreadPrivate decides it by a call graph of direct calls. The threads of
// a run are main and the instances of each start function; a start
// function has one instance in every run when exactly one Spawn names it,
// that Spawn lies in main outside every loop of main, and nothing calls
// it or main. A global is private when every instruction that names it
// lies in functions that only one such single-instance thread (main
// included) reaches by calls. The analysis gives up (no global is
// private) when a call or spawn goes through a function pointer or a
// function's address is taken, since the call graph is then unknown.
// Whether the global's address is taken is the caller's question (the
// encoding's exposed objects): a pointer to it could reach other threads.

// ThreadPrivate returns the names of the globals private to one thread.
func ThreadPrivate(p *program.Program) map[string]bool {
	if p.Func("main") == nil {
		return nil
	}
	callees := map[string][]string{}
	spawnSites := map[string]int{} // start function -> Spawns naming it
	called := map[string]bool{}
	var roots []string
	single := map[string]bool{"main": true}
	mainLoops := p.Func("main").Loops()
	for _, f := range p.Funcs {
		for pc, in := range f.Body {
			for _, x := range in.Operands() {
				if x == in.Func && (in.Op == program.OpCall || in.Op == program.OpSpawn) {
					continue
				}
				if funcValue(x) {
					return nil // a function's address: calls through pointers
				}
			}
			if in.Op != program.OpCall && in.Op != program.OpSpawn {
				continue
			}
			ref, ok := in.Func.(*program.FuncRef)
			if !ok {
				return nil
			}
			if p.Func(ref.Name) == nil {
				continue // a library function the front end did not model as code
			}
			if in.Op == program.OpCall {
				callees[f.Name] = append(callees[f.Name], ref.Name)
				called[ref.Name] = true
				continue
			}
			if spawnSites[ref.Name] == 0 {
				roots = append(roots, ref.Name)
			}
			spawnSites[ref.Name]++
			single[ref.Name] = f.Name == "main" && len(mainLoops[pc]) == 0
		}
	}
	if called["main"] || spawnSites["main"] > 0 {
		return nil
	}
	roots = append([]string{"main"}, roots...)
	// owner[g]: the one root that reaches g; "" when several do
	owner := map[string]string{}
	for _, r := range roots {
		if r != "main" && (spawnSites[r] != 1 || called[r]) {
			single[r] = false
		}
		seen := map[string]bool{}
		var visit func(string)
		visit = func(g string) {
			if seen[g] {
				return
			}
			seen[g] = true
			if o, ok := owner[g]; ok && o != r {
				owner[g] = ""
			} else {
				owner[g] = r
			}
			for _, c := range callees[g] {
				visit(c)
			}
		}
		visit(r)
	}
	// thread[v]: the one single-instance root whose functions name v
	thread := map[string]string{}
	for _, f := range p.Funcs {
		o := owner[f.Name]
		if o != "" && !single[o] {
			o = ""
		}
		for _, in := range f.Body {
			for _, x := range in.Operands() {
				program.Walk(x, func(x program.Expr) bool {
					if r, ok := x.(*program.Ref); ok && !r.Local {
						if t, ok := thread[r.Name]; !ok {
							thread[r.Name] = o
						} else if t != o {
							thread[r.Name] = ""
						}
					}
					return true
				})
			}
		}
	}
	out := map[string]bool{}
	for _, g := range p.Globals {
		if g.Init != nil {
			program.Walk(g.Init, func(x program.Expr) bool {
				if r, ok := x.(*program.Ref); ok && !r.Local {
					thread[r.Name] = "" // named by an initialiser: &v
				}
				return true
			})
		}
	}
	for v, t := range thread {
		if t != "" {
			out[v] = true
		}
	}
	return out
}

// funcValue reports whether x uses a function's address as a value.
func funcValue(x program.Expr) bool {
	found := false
	program.Walk(x, func(x program.Expr) bool {
		if _, ok := x.(*program.FuncRef); ok {
			found = true
		}
		return !found
	})
	return found
}
