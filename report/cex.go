package report

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
)

// Step is one step of a counterexample as reported (verify's JSON, the
// text listings and the counterexample page).
type Step struct {
	Step   int    `json:"step"`
	Thread int    `json:"thread"`
	Label  string `json:"label"`
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
	// Function is the function the step's instruction belongs to.
	Function  string            `json:"function,omitempty"`
	Statement string            `json:"statement"`
	Assigned  map[string]string `json:"assigned,omitempty"`
	// Reads are the cells the step read, in the order of the accesses,
	// each with where its value was stored (interp.Observe).
	Reads []ReadValue `json:"reads,omitempty"`
	// Returned is the value a return (or pthread_exit) step returns.
	Returned string `json:"returned,omitempty"`
	// Overflow says that the step overflows a signed operation, which C
	// leaves undefined ("arithmetic overflow on signed + in x + 1"), when
	// the program does not check it as a property.
	Overflow string `json:"overflow,omitempty"`
	// Hidden marks a step that does nothing visible (skip, declaration,
	// jump), except the last step of a violation (a run that ends at a
	// loop's back edge refused at the unwinding bound).
	Hidden bool `json:"-"`
	// Order holds the keys of Assigned in the order of the stores.
	Order []string `json:"-"`
	// Spawned is the thread the step creates, Joined the thread it
	// joins (-1: none).
	Spawned int `json:"-"`
	Joined  int `json:"-"`
}

// ReadValue is a value a step read and where it was stored.
type ReadValue struct {
	Loc string `json:"loc"`
	Val string `json:"value"`
	// Stored is the number of the step that stored the value; 0 when the
	// cell holds its initial value (Initial).
	Stored  int  `json:"stored_at,omitempty"`
	Initial bool `json:"initial,omitempty"`
	// Shared: a cell of a global or a heap block, or one another thread
	// stored (interp.Read.Shared); the source listing shows these.
	Shared bool `json:"shared"`
}

// Steps lists the steps of run, a replayed run of p, with their
// functions, source positions, statements, stores, the values they read
// (run is replayed once more to observe them, interp.Observe) and return;
// and the initial values of the globals the run reads or writes. A step
// creating a thread names it (thread k is created by the k-th spawn of
// the run); a join names the thread it joins when its operand is a
// variable whose last store in the run holds the handle (a local of the
// joining thread, or a global). The error says why the reads are not
// shown (the run does not replay on p); the steps are listed all the
// same.
func Steps(p *program.Program, run *program.Run) ([]Step, []Store, error) {
	ix := program.NewIndex(p)
	ob, oerr := interp.Observe(p, run)
	var out []Step
	next := 1
	// last stored value per location; locals per thread
	last := map[int]map[string]program.Value{}
	for i, s := range run.Steps {
		in := ix.Instr[s.Label]
		st := Step{Step: i + 1, Thread: s.Thread, Label: string(s.Label), Spawned: -1, Joined: -1}
		if f := ix.Func[s.Label]; f != nil {
			st.Function = f.Name
		}
		if ob != nil {
			for _, r := range ob.Reads[i] {
				st.Reads = append(st.Reads, ReadValue{Loc: r.Loc, Val: p.ValueString(r.Val), Stored: r.By + 1, Initial: r.By < 0, Shared: r.Shared})
			}
			if v := ob.Returned[i]; v != nil {
				st.Returned = p.ValueString(*v)
			}
		}
		if in != nil {
			st.File, st.Line = in.Pos.File, in.Pos.Line
			st.Statement = in.String()
			st.Hidden = in.Op == program.OpSkip || in.Op == program.OpDecl || (in.Op == program.OpGoto && in.Rhs == nil)
			if run.Violated != "" && i == len(run.Steps)-1 {
				st.Hidden = false
			}
			switch in.Op {
			case program.OpSpawn:
				st.Spawned = next
				next++
			case program.OpJoin:
				if r, ok := in.Rhs.(*program.Ref); ok {
					loc := r.Name
					if r.Local {
						loc = ix.Func[s.Label].Name + "::" + r.Name
					}
					if v, ok := last[s.Thread][loc]; ok && v.Obj == "" {
						st.Joined = int(v.Bits)
					} else if v, ok := last[-1][loc]; ok && !r.Local && v.Obj == "" {
						st.Joined = int(v.Bits)
					}
				}
			}
		}
		if len(s.Assigned) > 0 {
			st.Assigned = map[string]string{}
			for _, w := range s.Assigned {
				if _, ok := st.Assigned[w.Loc]; !ok {
					st.Order = append(st.Order, w.Loc)
				}
				st.Assigned[w.Loc] = p.ValueString(w.Val)
				key := -1 // globals
				if strings.Contains(w.Loc, "::") {
					key = s.Thread
				}
				if last[key] == nil {
					last[key] = map[string]program.Value{}
				}
				last[key][w.Loc] = w.Val
			}
		}
		out = append(out, st)
	}
	if oerr != nil {
		return out, nil, oerr
	}
	return out, initialValues(p, ob, out), nil
}

// initialValues are the initial contents of the global cells that steps
// read or write, sorted by location.
func initialValues(p *program.Program, ob *interp.Observation, steps []Step) []Store {
	touched := map[string]bool{}
	for _, st := range steps {
		for _, r := range st.Reads {
			touched[r.Loc] = true
		}
		for loc := range st.Assigned {
			touched[loc] = true
		}
	}
	var out []Store
	for _, loc := range slices.Sorted(maps.Keys(ob.Initial)) {
		if touched[loc] {
			out = append(out, Store{loc, p.ValueString(ob.Initial[loc])})
		}
	}
	return out
}

// ThreadNames names each thread of steps "id:function" after the function
// its spawn starts.
func ThreadNames(p *program.Program, steps []Step) map[int]string {
	fn := map[int]string{0: "main"}
	ix := program.NewIndex(p)
	for _, st := range steps {
		in := ix.Instr[program.Label(st.Label)]
		if in != nil && st.Spawned > 0 {
			if fr, ok := in.Func.(*program.FuncRef); ok {
				fn[st.Spawned] = fr.Name
			} else {
				fn[st.Spawned] = program.ExprString(in.Func)
			}
		}
	}
	names := map[int]string{}
	for _, st := range steps {
		names[st.Thread] = fmt.Sprintf("%d:%s", st.Thread, fn[st.Thread])
		if st.Spawned > 0 {
			names[st.Spawned] = fmt.Sprintf("%d:%s", st.Spawned, fn[st.Spawned])
		}
	}
	return names
}

// Store is a value stored in a program location.
type Store struct {
	Loc string `json:"loc"`
	Val string `json:"value"`
}

// Line is a maximal sequence of consecutive steps of one thread on one
// source line: a row of the source-line counterexample.
type Line struct {
	First  int // step number of the first step
	Last   int // step number of the last step
	Thread int
	File   string
	Line   int
	// Function is the function the line belongs to.
	Function string
	// Text is the source line (whitespace collapsed), or the model's
	// statements when the file cannot be read.
	Text string
	// Vals are the last value stored per program location, in the order
	// of their first store; stores into the front end's temporaries are
	// left out.
	Vals    []Store
	Spawned []int // threads the line creates
	Joined  []int // threads it joins
	// Overflows are the signed overflows of its steps (Step.Overflow).
	Overflows []string
	// Reads are the shared reads of its steps (ReadValue.Shared), each value
	// from one store once.
	Reads []ReadValue
	// Returned are the values its steps return (Step.Returned).
	Returned []string
}

// SourceLines folds steps into source lines, as CBMC users read a
// counterexample: the source lines executed, in execution order, each
// with the thread that executed it, its function, the values it stored in
// program variables, the shared values it read and where they were
// stored, and the values it returned. Consecutive steps of a thread on one line (a lowered
// expression, a call of a one-line function) make one row; stores into
// temporaries the front end introduced are left out, and so are steps that
// do nothing visible.
func SourceLines(p *program.Program, steps []Step) []Line {
	temps := Temps(p)
	var rows []*Line
	var cur *Line
	var stmts []string
	src := sourceFiles{}
	flush := func() {
		if cur == nil {
			return
		}
		text, ok := src.line(cur.File, cur.Line)
		if !ok {
			text = strings.Join(stmts, "; ")
		}
		cur.Text = text
	}
	for _, st := range steps {
		if st.Hidden {
			continue
		}
		if cur == nil || cur.Thread != st.Thread || cur.File != st.File || cur.Line != st.Line || cur.Function != st.Function {
			flush()
			cur = &Line{First: st.Step, Thread: st.Thread, File: st.File, Line: st.Line, Function: st.Function}
			stmts = nil
			rows = append(rows, cur)
		}
		cur.Last = st.Step
		stmts = append(stmts, st.Statement)
		if st.Overflow != "" {
			cur.Overflows = append(cur.Overflows, st.Overflow)
		}
		if st.Spawned > 0 {
			cur.Spawned = append(cur.Spawned, st.Spawned)
		}
		if st.Joined >= 0 {
			cur.Joined = append(cur.Joined, st.Joined)
		}
		if st.Returned != "" {
			cur.Returned = append(cur.Returned, st.Returned)
		}
		for _, r := range st.Reads {
			if r.Shared && !slices.Contains(cur.Reads, r) {
				cur.Reads = append(cur.Reads, r)
			}
		}
		for _, loc := range st.Order {
			if temps.Has(loc) {
				continue
			}
			found := false
			for i := range cur.Vals {
				if cur.Vals[i].Loc == loc {
					cur.Vals[i].Val = st.Assigned[loc]
					found = true
				}
			}
			if !found {
				cur.Vals = append(cur.Vals, Store{loc, st.Assigned[loc]})
			}
		}
	}
	flush()
	out := make([]Line, len(rows))
	for i, r := range rows {
		out[i] = *r
	}
	return out
}

// Stores renders the values a row stored, "loc" + sep + "value" each, the
// first maxRowStores of them and a count of the rest: a loop that stores
// into 10000 array cells on one source line makes one readable row (the
// steps view, --trace steps, and the JSON output list every store).
func (l Line) Stores(sep string) []string {
	var out []string
	for i, s := range l.Vals {
		if i == maxRowStores && len(l.Vals) > maxRowStores+1 {
			out = append(out, fmt.Sprintf("... %d more stores", len(l.Vals)-i))
			break
		}
		out = append(out, s.Loc+sep+s.Val)
	}
	return out
}

// maxRowStores is how many stored values Line.Stores lists in full.
const maxRowStores = 12

// TempSet holds the location prefixes of temporaries ("func::name").
type TempSet map[string]bool

// Temps returns the temporaries of p (program.Var.Temp).
func Temps(p *program.Program) TempSet {
	t := TempSet{}
	if p == nil {
		return t
	}
	for _, f := range p.Funcs {
		for _, vs := range [][]*program.Var{f.Params, f.Locals} {
			for _, v := range vs {
				if v.Temp {
					t[f.Name+"::"+v.Name] = true
				}
			}
		}
	}
	return t
}

// Has says whether loc (a location as in program.Write) is a cell of a
// temporary.
func (t TempSet) Has(loc string) bool {
	if i := strings.IndexAny(loc, ".["); i >= 0 && strings.Contains(loc[:i], "::") {
		loc = loc[:i]
	}
	return t[loc]
}

// sourceFiles reads source files once each, for the text of their lines.
type sourceFiles map[string][]string

func (s sourceFiles) line(file string, n int) (string, bool) {
	if file == "" || n <= 0 {
		return "", false
	}
	lines, ok := s[file]
	if !ok {
		if b, err := os.ReadFile(file); err == nil {
			lines = strings.Split(string(b), "\n")
		}
		s[file] = lines
	}
	if n > len(lines) {
		return "", false
	}
	text := strings.Join(strings.Fields(lines[n-1]), " ")
	return text, text != ""
}
