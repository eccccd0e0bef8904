package witness

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"cegpv.dev/cegpv/program"
)

// Info is the graph-level data of a witness.
type Info struct {
	ProgramFile   string // the input file as given to the verifier
	Specification string // the property file's text
	Producer      string // "cegpv <version>"
	Model         program.DataModel
	Now           time.Time // creation time; the zero value means time.Now()
}

type key struct {
	id, name, typ, domain, def string
}

// keys are the GraphML keys a witness may use, declared in every witness.
var keys = []key{
	{"witness-type", "witness-type", "string", "graph", ""},
	{"sourcecodelang", "sourcecodelang", "string", "graph", ""},
	{"producer", "producer", "string", "graph", ""},
	{"specification", "specification", "string", "graph", ""},
	{"programfile", "programfile", "string", "graph", ""},
	{"programhash", "programhash", "string", "graph", ""},
	{"architecture", "architecture", "string", "graph", ""},
	{"creationtime", "creationtime", "string", "graph", ""},
	{"entry", "entry", "boolean", "node", "false"},
	{"violation", "violation", "boolean", "node", "false"},
	{"invariant", "invariant", "string", "node", ""},
	{"invariant.scope", "invariant.scope", "string", "node", ""},
	{"startline", "startline", "int", "edge", ""},
	{"endline", "endline", "int", "edge", ""},
	{"threadId", "threadId", "string", "edge", ""},
	{"createThread", "createThread", "string", "edge", ""},
	{"enterFunction", "enterFunction", "string", "edge", ""},
	{"returnFrom", "returnFrom", "string", "edge", ""},
	{"assumption", "assumption", "string", "edge", ""},
	{"assumption.scope", "assumption.scope", "string", "edge", ""},
}

type gw struct {
	b bytes.Buffer
}

func (w *gw) data(indent, k, v string) {
	w.b.WriteString(indent + `<data key="` + k + `">`)
	xml.EscapeText(&w.b, []byte(v))
	w.b.WriteString("</data>\n")
}

func header(w *gw, info Info, kind string) error {
	src, err := os.ReadFile(info.ProgramFile)
	if err != nil {
		return program.Errorf(program.Internal, "witness: reading the program file: %v", err)
	}
	sum := sha256.Sum256(src)
	now := info.Now
	if now.IsZero() {
		now = time.Now()
	}
	arch := "32bit"
	if info.Model == program.LP64 {
		arch = "64bit"
	}
	w.b.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="no"?>` + "\n")
	w.b.WriteString(`<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">` + "\n")
	for _, k := range keys {
		fmt.Fprintf(&w.b, ` <key attr.name=%q attr.type=%q for=%q id=%q`, k.name, k.typ, k.domain, k.id)
		if k.def != "" {
			fmt.Fprintf(&w.b, ">\n  <default>%s</default>\n </key>\n", k.def)
		} else {
			w.b.WriteString("/>\n")
		}
	}
	w.b.WriteString(` <graph edgedefault="directed">` + "\n")
	w.data("  ", "witness-type", kind)
	w.data("  ", "sourcecodelang", "C")
	w.data("  ", "producer", info.Producer)
	w.data("  ", "specification", strings.TrimSpace(info.Specification))
	w.data("  ", "programfile", info.ProgramFile)
	w.data("  ", "programhash", hex.EncodeToString(sum[:]))
	w.data("  ", "architecture", arch)
	w.data("  ", "creationtime", now.UTC().Format(time.RFC3339))
	return nil
}

// Correctness returns a GraphML correctness witness: the entry node, with the
// trivial invariant.
func Correctness(info Info) ([]byte, error) {
	w := &gw{}
	if err := header(w, info, "correctness_witness"); err != nil {
		return nil, err
	}
	w.b.WriteString("  <node id=\"N0\">\n")
	w.data("   ", "entry", "true")
	w.b.WriteString("  </node>\n </graph>\n</graphml>\n")
	return w.b.Bytes(), nil
}

// Violation returns a GraphML violation witness of run, a run of p that ends in a
// violated assertion (it must have been replayed on p).
func Violation(info Info, p *program.Program, run *program.Run) ([]byte, error) {
	if run == nil || run.Violated == "" {
		return nil, program.Errorf(program.Internal, "witness: the run ends in no violation")
	}
	src, err := os.ReadFile(info.ProgramFile)
	if err != nil {
		return nil, program.Errorf(program.Internal, "witness: reading the program file: %v", err)
	}
	lines := bytes.Count(src, []byte("\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		lines++
	}
	w := &gw{}
	if err := header(w, info, "violation_witness"); err != nil {
		return nil, err
	}
	ix := program.NewIndex(p)
	defined := map[string]bool{}
	for _, f := range p.Funcs {
		defined[f.Name] = true
	}
	inFile := func(pos program.Pos) bool {
		return pos.Line >= 1 && pos.Line <= lines && (pos.File == "" || pos.File == info.ProgramFile ||
			filepath.Base(pos.File) == filepath.Base(info.ProgramFile))
	}
	w.b.WriteString("  <node id=\"N0\">\n")
	w.data("   ", "entry", "true")
	w.b.WriteString("  </node>\n")
	node := 0
	spawns := 0
	for i, s := range run.Steps {
		in := ix.Instr[s.Label]
		if in == nil {
			return nil, program.Errorf(program.Internal, "witness: step %d: label %v is not in the program", i, s.Label)
		}
		var d [][2]string
		if in.Op == program.OpSpawn {
			spawns++ // thread k is created by the k-th spawn of the run
		}
		last := i == len(run.Steps)-1
		if !inFile(in.Pos) && !last {
			continue
		}
		d = append(d, [2]string{"threadId", fmt.Sprint(s.Thread)})
		if inFile(in.Pos) {
			d = append(d, [2]string{"startline", fmt.Sprint(in.Pos.Line)}, [2]string{"endline", fmt.Sprint(in.Pos.Line)})
		}
		switch in.Op {
		case program.OpSpawn:
			d = append(d, [2]string{"createThread", fmt.Sprint(spawns)})
		case program.OpCall:
			if f, ok := in.Func.(*program.FuncRef); ok && defined[f.Name] {
				d = append(d, [2]string{"enterFunction", f.Name})
			}
		case program.OpReturn:
			d = append(d, [2]string{"returnFrom", ix.Func[s.Label].Name})
		case program.OpAssign:
			if a, scope := assumption(p, in, s, ix.Func[s.Label]); a != "" {
				d = append(d, [2]string{"assumption", a}, [2]string{"assumption.scope", scope})
			}
		}
		fmt.Fprintf(&w.b, "  <node id=\"N%d\">\n", node+1)
		if last {
			w.data("   ", "violation", "true")
		}
		w.b.WriteString("  </node>\n")
		fmt.Fprintf(&w.b, "  <edge source=\"N%d\" target=\"N%d\">\n", node, node+1)
		for _, kv := range d {
			w.data("   ", kv[0], kv[1])
		}
		w.b.WriteString("  </edge>\n")
		node++
	}
	w.b.WriteString(" </graph>\n</graphml>\n")
	return w.b.Bytes(), nil
}

// assumption returns "x == v;" for an assignment of a drawn integer to a scalar
// variable of the source (not a front-end temporary), with the function it is in (its
// scope), or "". The value is the one the step stored.
func assumption(p *program.Program, in *program.Instr, s program.Step, f *program.Func) (string, string) {
	r, ok := in.Lhs.(*program.Ref)
	if !ok || !validIdent(r.Name) {
		return "", ""
	}
	if _, ok := in.Rhs.(*program.Nondet); !ok {
		return "", ""
	}
	var v *program.Var
	loc := r.Name
	if r.Local {
		v = f.Var(r.Name)
		loc = f.Name + "::" + r.Name
	} else {
		v = p.Global(r.Name)
	}
	if v == nil || v.Temp || v.Type.Kind != program.Int {
		return "", ""
	}
	for _, wr := range s.Assigned {
		if wr.Loc != loc || wr.Val.IsPtr() {
			continue
		}
		if !v.Type.Signed && wr.Val.Bits < 0 {
			return fmt.Sprintf("%s == %dU;", r.Name, uint64(wr.Val.Bits)), f.Name
		}
		return fmt.Sprintf("%s == %d;", r.Name, wr.Val.Bits), f.Name
	}
	return "", ""
}

func validIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
