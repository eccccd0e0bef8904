package program

import (
	"fmt"
	"strconv"
	"strings"
)

// Unwinding properties are the properties that unwinding assertions add
// (CBMC's --unwinding-assertions): no run reaches the unwinding bound of a
// loop, or of the recursive calls a function makes. They are not
// instructions: a run violates one when a thread would take a loop's back
// edge once more than the bound allows, or call a function that already
// has as many activations on its stack as the bound allows (see
// docs/conventions.md "Bounds"). Their ids are CBMC's:
//
//   - "<f>.unwind.<k>" for the loop of f whose back edge is the k-th
//     backward goto of f's body (from 0, in body order: CBMC's loop
//     numbers, so a `continue` that jumps back to the head of a while
//     loop is a loop of its own, as in CBMC);
//   - "<f>.recursion" for the calls f makes of a function on a cycle of
//     the call graph through f (CBMC names a recursion unwinding
//     assertion after the function that makes the call).
type Unwinding struct {
	ID    string
	Func  string
	Loop  int   // k of a loop; -1 for recursion
	Label Label // a loop's back edge (a Goto); "" for recursion
	Pos   Pos   // the back edge's position, or that of the first recursive call
	// Text is CBMC's description: "unwinding assertion loop k" or
	// "recursion unwinding assertion".
	Text string
}

// Key is what a backend compares a bound with to select the property
// (backend.Bounds.UnwindingOnly): a loop's back-edge label, which
// translations keep (the loop numbers of a translated program may differ:
// WithoutOpaque turns a goto into an assume), or the id of a recursion
// property (function names are kept too).
func (u Unwinding) Key() string {
	if u.Label != "" {
		return string(u.Label)
	}
	return u.ID
}

// Describe names the property for people: its text, with the line.
func (u Unwinding) Describe() string {
	if u.Loop >= 0 {
		return fmt.Sprintf("unwinding assertion loop %d of %s (line %d)", u.Loop, u.Func, u.Pos.Line)
	}
	return fmt.Sprintf("recursion unwinding assertion of %s (call at line %d)", u.Func, u.Pos.Line)
}

// IsUnwinding reports whether id has the form of an unwinding property's
// id (function names contain no dot, so no assertion's id has it).
func IsUnwinding(id string) bool {
	f, rest, ok := strings.Cut(id, ".")
	if !ok || f == "" {
		return false
	}
	if rest == "recursion" {
		return true
	}
	k, ok := strings.CutPrefix(rest, "unwind.")
	if !ok {
		return false
	}
	_, err := strconv.Atoi(k)
	return err == nil
}

// LoopID returns the id of the loop whose back edge is the instruction at
// index i of f, or "" when it is not a back edge (Func.LoopHead).
func LoopID(f *Func, i int) string {
	if f.LoopHead(i) < 0 {
		return ""
	}
	k := 0
	for j := 0; j < i; j++ {
		if f.LoopHead(j) >= 0 {
			k++
		}
	}
	return f.Name + ".unwind." + strconv.Itoa(k)
}

// RecursionID is the id of the recursion property of f.
func RecursionID(f string) string { return f + ".recursion" }

// Unwindings returns the unwinding properties of p: per function in
// program order, its loops in body order, then its recursion property if
// it has one. A function has one when one of its calls may call a
// function from which f can be reached again in the call graph (a call
// through a pointer may call any function whose address is taken).
func Unwindings(p *Program) []Unwinding {
	rec := recursiveCalls(p)
	var out []Unwinding
	for _, f := range p.Funcs {
		k := 0
		for i, in := range f.Body {
			if f.LoopHead(i) < 0 {
				continue
			}
			out = append(out, Unwinding{ID: f.Name + ".unwind." + strconv.Itoa(k), Func: f.Name, Loop: k, Label: in.Label, Pos: in.Pos,
				Text: "unwinding assertion loop " + strconv.Itoa(k)})
			k++
		}
		if in := rec[f.Name]; in != nil {
			out = append(out, Unwinding{ID: RecursionID(f.Name), Func: f.Name, Loop: -1, Pos: in.Pos, Text: "recursion unwinding assertion"})
		}
	}
	return out
}

// UnwindingByID returns the unwinding property of p with that id.
func UnwindingByID(p *Program, id string) (Unwinding, bool) {
	for _, u := range Unwindings(p) {
		if u.ID == id {
			return u, true
		}
	}
	return Unwinding{}, false
}

// UnwindingDetails returns the unwinding properties as PropertyDetails,
// for listings (--show-properties, ** Results:).
func UnwindingDetails(p *Program) []PropertyDetail {
	var out []PropertyDetail
	for _, u := range Unwindings(p) {
		out = append(out, PropertyDetail{ID: u.ID, Func: u.Func, Pos: u.Pos, Text: u.Text})
	}
	return out
}

// recursiveCalls returns, for each function that makes a call that may
// exceed the recursion bound, its first such call: a call of a function
// from which the caller is reachable in the call graph (itself included).
func recursiveCalls(p *Program) map[string]*Instr {
	taken := map[string]bool{} // functions whose address is taken
	note := func(e Expr) {
		Walk(e, func(x Expr) bool {
			if r, ok := x.(*FuncRef); ok {
				taken[r.Name] = true
			}
			return true
		})
	}
	for _, g := range p.Globals {
		if g.Init != nil {
			note(g.Init)
		}
	}
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			for _, e := range []Expr{in.Lhs, in.Rhs} {
				if e != nil {
					note(e)
				}
			}
			for _, a := range in.Args {
				note(a)
			}
			if in.Op == OpCall && !isFuncRef(in.Func) {
				note(in.Func) // (a Spawn's start routine is called by no one)
			}
		}
	}
	callees := func(in *Instr) []string {
		if r, ok := in.Func.(*FuncRef); ok {
			return []string{r.Name}
		}
		var out []string
		for _, f := range p.Funcs {
			if taken[f.Name] {
				out = append(out, f.Name)
			}
		}
		return out
	}
	calls := map[string][]string{}
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			if in.Op == OpCall {
				calls[f.Name] = append(calls[f.Name], callees(in)...)
			}
		}
	}
	reaches := func(from, to string) bool {
		seen := map[string]bool{from: true}
		work := []string{from}
		for len(work) > 0 {
			f := work[len(work)-1]
			work = work[:len(work)-1]
			if f == to {
				return true
			}
			for _, g := range calls[f] {
				if !seen[g] {
					seen[g] = true
					work = append(work, g)
				}
			}
		}
		return false
	}
	out := map[string]*Instr{}
	for _, f := range p.Funcs {
		for _, in := range f.Body {
			if in.Op != OpCall || out[f.Name] != nil {
				continue
			}
			for _, g := range callees(in) {
				if reaches(g, f.Name) {
					out[f.Name] = in
					break
				}
			}
		}
	}
	return out
}

func isFuncRef(e Expr) bool {
	_, ok := e.(*FuncRef)
	return ok
}

func unwindingIDs(p *Program) []string {
	var out []string
	for _, u := range Unwindings(p) {
		out = append(out, u.ID)
	}
	if out == nil {
		out = []string{"none"}
	}
	return out
}
