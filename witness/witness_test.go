package witness

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"cegpv.dev/cegpv/explicit"
	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/internal/testenv"
	"cegpv.dev/cegpv/interp"
	"cegpv.dev/cegpv/program"
)

const unreach = "CHECK( init(main()), LTL(G ! call(reach_error())) )\n"

type gmlData struct {
	Key string `xml:"key,attr"`
	Val string `xml:",chardata"`
}

type gml struct {
	Keys []struct {
		ID  string `xml:"id,attr"`
		For string `xml:"for,attr"`
	} `xml:"key"`
	Graph struct {
		Data  []gmlData `xml:"data"`
		Nodes []struct {
			ID   string    `xml:"id,attr"`
			Data []gmlData `xml:"data"`
		} `xml:"node"`
		Edges []struct {
			Source string    `xml:"source,attr"`
			Target string    `xml:"target,attr"`
			Data   []gmlData `xml:"data"`
		} `xml:"edge"`
	} `xml:"graph"`
}

// checkGraphML checks the rules of the GraphML witness format that matter to a
// validator: every data key declared for its domain, exactly one entry node, edges
// between declared nodes, lines inside the program file, the program's SHA-256 hash,
// the graph data, and (violation witnesses) a violation node reached by the last edge.
func checkGraphML(t *testing.T, b []byte, file, kind string) gml {
	t.Helper()
	var g gml
	if err := xml.Unmarshal(b, &g); err != nil {
		t.Fatalf("witness is not XML: %v\n%s", err, b)
	}
	domain := map[string]string{}
	for _, k := range g.Keys {
		domain[k.ID] = k.For
	}
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	nlines := strings.Count(string(src), "\n")
	sum := sha256.Sum256(src)
	graph := map[string]string{}
	for _, d := range g.Graph.Data {
		if domain[d.Key] != "graph" {
			t.Errorf("graph data %s not declared for graphs", d.Key)
		}
		graph[d.Key] = d.Val
	}
	for k, want := range map[string]string{"witness-type": kind, "sourcecodelang": "C", "programhash": hex.EncodeToString(sum[:]),
		"programfile": file, "architecture": "32bit", "specification": strings.TrimSpace(unreach)} {
		if graph[k] != want {
			t.Errorf("graph %s = %q, want %q", k, graph[k], want)
		}
	}
	if _, err := time.Parse(time.RFC3339, graph["creationtime"]); err != nil {
		t.Errorf("creationtime: %v", err)
	}
	if !strings.HasPrefix(graph["producer"], "cegpv") {
		t.Errorf("producer %q", graph["producer"])
	}
	nodes := map[string]bool{}
	entries, violations := 0, []string{}
	for _, n := range g.Graph.Nodes {
		if nodes[n.ID] {
			t.Errorf("node %s twice", n.ID)
		}
		nodes[n.ID] = true
		for _, d := range n.Data {
			if domain[d.Key] != "node" {
				t.Errorf("node data %s not declared for nodes", d.Key)
			}
			if d.Key == "entry" && d.Val == "true" {
				entries++
			}
			if d.Key == "violation" && d.Val == "true" {
				violations = append(violations, n.ID)
			}
		}
	}
	if entries != 1 {
		t.Errorf("%d entry nodes", entries)
	}
	for _, e := range g.Graph.Edges {
		if !nodes[e.Source] || !nodes[e.Target] {
			t.Errorf("edge %s->%s between undeclared nodes", e.Source, e.Target)
		}
		for _, d := range e.Data {
			if domain[d.Key] != "edge" {
				t.Errorf("edge data %s not declared for edges", d.Key)
			}
			if d.Key == "startline" || d.Key == "endline" {
				n, err := strconv.Atoi(d.Val)
				if err != nil || n < 1 || n > nlines {
					t.Errorf("%s %q outside %s (%d lines)", d.Key, d.Val, file, nlines)
				}
			}
		}
	}
	if kind == "violation_witness" {
		if len(violations) != 1 || len(g.Graph.Edges) == 0 || g.Graph.Edges[len(g.Graph.Edges)-1].Target != violations[0] {
			t.Errorf("violation nodes %v, the last edge must reach the only one", violations)
		}
	} else if len(violations) != 0 {
		t.Errorf("a correctness witness with violation nodes %v", violations)
	}
	return g
}

func lower(t *testing.T, file string) *program.Program {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	p, err := frontend.Lower(file, src, frontend.Options{Model: testenv.ModelOf(src)})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// violatingRun lowers file and returns a run of it that violates an assertion, found
// by the explicit-state search at unwind 3 and replayed on the program.
func violatingRun(t *testing.T, file string) (*program.Program, *program.Run) {
	t.Helper()
	p := lower(t, file)
	res, err := explicit.Explore(context.Background(), p, explicit.ExploreOptions{Unwind: 3})
	if err != nil || res.Status != explicit.ViolationFound {
		t.Fatalf("no violation found: %v %s", err, res.Reason)
	}
	run, err := interp.Confirm(p, res.Run)
	if err != nil {
		t.Fatal(err)
	}
	return p, run
}

func TestViolationWitness(t *testing.T) {
	for _, name := range []string{"spin_ticket_unsafe.c", "join_missing_unsafe.c", "peterson_broken_unsafe.c", "cil_addr_unsafe.c"} {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join("../testdata/progs", name)
			p, run := violatingRun(t, file)
			b, err := Violation(Info{ProgramFile: file, Specification: unreach, Producer: "cegpv test", Model: program.ILP32}, p, run)
			if err != nil {
				t.Fatal(err)
			}
			g := checkGraphML(t, b, file, "violation_witness")
			lint(t, b, file)
			threads := map[string]bool{}
			for _, e := range g.Graph.Edges {
				for _, d := range e.Data {
					if d.Key == "threadId" {
						threads[d.Val] = true
					}
				}
			}
			if len(run.Threads()) > 1 && len(threads) < 2 {
				t.Errorf("a run of %d threads, witness edges of threads %v", len(run.Threads()), threads)
			}
		})
	}
}

func TestCorrectnessWitness(t *testing.T) {
	file := "../testdata/progs/spin_ticket_safe.c"
	b, err := Correctness(Info{ProgramFile: file, Specification: unreach, Producer: "cegpv test", Model: program.ILP32})
	if err != nil {
		t.Fatal(err)
	}
	checkGraphML(t, b, file, "correctness_witness")
	lint(t, b, file)
}
