package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"cegpv.dev/cegpv/program"
)

// Trace styles of the text output (--trace).
const (
	traceSource = "source" // one row per source line executed, values of program variables
	traceSteps  = "steps"  // one row per step of the program model, temporaries included
)

var traceStyles = []string{traceSource, traceSteps}

// traceStep is one step of a counterexample as reported (JSON and text).
type traceStep struct {
	Step      int               `json:"step"`
	Thread    int               `json:"thread"`
	Label     string            `json:"label"`
	File      string            `json:"file,omitempty"`
	Line      int               `json:"line,omitempty"`
	Statement string            `json:"statement"`
	Assigned  map[string]string `json:"assigned,omitempty"`
	Hidden    bool              `json:"-"` // a step that does nothing visible (skip, declaration, jump)
	order     []string          // the keys of Assigned in the order of the stores
}

func traceOf(p *program.Program, run *program.Run) []traceStep {
	ix := program.NewIndex(p)
	var out []traceStep
	for i, s := range run.Steps {
		in := ix.Instr[s.Label]
		ts := traceStep{Step: i + 1, Thread: s.Thread, Label: string(s.Label)}
		if in != nil {
			ts.File, ts.Line = in.Pos.File, in.Pos.Line
			ts.Statement = in.String()
			ts.Hidden = in.Op == program.OpSkip || in.Op == program.OpDecl || (in.Op == program.OpGoto && in.Rhs == nil)
		}
		if len(s.Assigned) > 0 {
			ts.Assigned = map[string]string{}
			for _, w := range s.Assigned {
				if _, ok := ts.Assigned[w.Loc]; !ok {
					ts.order = append(ts.order, w.Loc)
				}
				ts.Assigned[w.Loc] = w.Val.String()
			}
		}
		out = append(out, ts)
	}
	return out
}

// writeTrace prints the counterexample in the given style (traceSource
// unless traceSteps).
func writeTrace(w io.Writer, o *outcome, style string) {
	names := threadNames(o)
	if style == traceSteps {
		writeStepTrace(w, o, names)
		return
	}
	writeSourceTrace(w, o, names)
}

// threadNames names each thread of the trace "id:function" after the
// function its spawn starts (thread k is created by the k-th spawn).
func threadNames(o *outcome) map[int]string {
	fn := map[int]string{0: "main"}
	ix := program.NewIndex(o.prog)
	next := 1
	for _, ts := range o.Trace {
		in := ix.Instr[program.Label(ts.Label)]
		if in != nil && in.Op == program.OpSpawn {
			if fr, ok := in.Func.(*program.FuncRef); ok {
				fn[next] = fr.Name
			} else {
				fn[next] = program.ExprString(in.Func)
			}
			next++
		}
	}
	names := map[int]string{}
	for _, ts := range o.Trace {
		names[ts.Thread] = fmt.Sprintf("%d:%s", ts.Thread, fn[ts.Thread])
	}
	return names
}

// writeStepTrace prints the counterexample as a listing in execution order,
// one line per step of the program model (temporaries of lowered
// expressions included), without the steps that do nothing visible.
func writeStepTrace(w io.Writer, o *outcome, names map[int]string) {
	fmt.Fprintf(w, "\nCounterexample (%d steps):\n", len(o.Trace))
	fmt.Fprintf(w, "  %5s  %-14s %-6s %-44s %s\n", "step", "thread", "line", "statement", "values")
	for _, ts := range o.Trace {
		if ts.Hidden {
			continue
		}
		var vals []string
		for k, v := range ts.Assigned {
			vals = append(vals, k+"="+v)
		}
		sort.Strings(vals)
		fmt.Fprintf(w, "  %5d  %-14s %-6d %-44s %s\n", ts.Step, names[ts.Thread], ts.Line, clip(ts.Statement, 44), strings.Join(vals, " "))
	}
}

// sourceRow is a maximal sequence of consecutive steps of one thread on one
// source line.
type sourceRow struct {
	first  int // step number of the first step
	thread int
	file   string
	line   int
	stmts  []string          // the model's statements, when the source line cannot be read
	vals   map[string]string // last value stored per program location
	order  []string          // the locations in the order of their first store
}

// writeSourceTrace prints the counterexample as CBMC users read it: the
// source lines executed, in execution order, each with the thread that
// executed it and the values it stored in program variables. Consecutive
// steps of a thread on one line (a lowered expression, a call of a one-line
// function) make one row; stores into temporaries the front end introduced
// are left out, and so are steps that do nothing visible. The step
// number is that of the row's first step in the model's trace (--trace
// steps and the JSON output list every step).
func writeSourceTrace(w io.Writer, o *outcome, names map[int]string) {
	temps := tempLocations(o.prog)
	var rows []*sourceRow
	var cur *sourceRow
	for _, ts := range o.Trace {
		if ts.Hidden {
			continue
		}
		if cur == nil || cur.thread != ts.Thread || cur.file != ts.File || cur.line != ts.Line {
			cur = &sourceRow{first: ts.Step, thread: ts.Thread, file: ts.File, line: ts.Line, vals: map[string]string{}}
			rows = append(rows, cur)
		}
		cur.stmts = append(cur.stmts, ts.Statement)
		for _, loc := range ts.order {
			if temps.has(loc) {
				continue
			}
			if _, ok := cur.vals[loc]; !ok {
				cur.order = append(cur.order, loc)
			}
			cur.vals[loc] = ts.Assigned[loc]
		}
	}
	src := sourceLines{}
	fmt.Fprintf(w, "\nCounterexample (%d source lines executed, %d steps of the program model; --trace steps lists every step):\n", len(rows), len(o.Trace))
	fmt.Fprintf(w, "  %5s  %-14s %-6s %-50s %s\n", "step", "thread", "line", "source", "values")
	for _, r := range rows {
		text, ok := src.line(r.file, r.line)
		if !ok {
			text = strings.Join(r.stmts, "; ")
		}
		line := fmt.Sprint(r.line)
		if r.file != "" && r.file != o.File {
			line = filepath.Base(r.file) + ":" + line
		}
		var vals []string
		for _, loc := range r.order {
			vals = append(vals, loc+"="+r.vals[loc])
		}
		fmt.Fprintf(w, "  %5d  %-14s %-6s %-50s %s\n", r.first, names[r.thread], line, clip(text, 50), strings.Join(vals, " "))
	}
}

// tempSet holds the location prefixes of temporaries ("func::name").
type tempSet map[string]bool

func tempLocations(p *program.Program) tempSet {
	t := tempSet{}
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

// has says whether loc (a location as in program.Write) is a cell of a
// temporary.
func (t tempSet) has(loc string) bool {
	if i := strings.IndexAny(loc, ".["); i >= 0 && strings.Contains(loc[:i], "::") {
		loc = loc[:i]
	}
	return t[loc]
}

// sourceLines reads source files once each, for the text of their lines.
type sourceLines map[string][]string

func (s sourceLines) line(file string, n int) (string, bool) {
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

// clip shortens s to at most n bytes, marking the cut with "...".
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}
