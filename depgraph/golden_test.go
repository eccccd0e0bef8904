package depgraph

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"cegpv.dev/cegpv/frontend"
	"cegpv.dev/cegpv/program"
)

var update = flag.Bool("update", false, "rewrite the expected sections of testdata/depgraph/*.txtar")

// TestGolden builds the graph of the input.c section of every archive in
// testdata/depgraph and compares its text form (-- graph --) and the V0 of
// the paper, steps2 and cone heuristics (-- v0 --) with the archive. It also
// checks the invariants of the package documentation on each graph.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("../testdata/depgraph/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			a, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			src := section(a, "input.c")
			if src == nil {
				t.Fatal("no input.c section")
			}
			p, err := frontend.Lower("input.c", src, frontend.Options{Model: program.ILP32})
			if err != nil {
				t.Fatalf("Lower: %v", err)
			}
			var before bytes.Buffer
			program.Show(&before, p)
			g := Build(p)
			checkInvariants(t, g)
			var graph bytes.Buffer
			if err := g.WriteText(&graph); err != nil {
				t.Fatal(err)
			}
			var v0 strings.Builder
			for _, name := range []string{"paper", "steps2", "cone"} {
				h, err := Lookup(name)
				if err != nil {
					t.Fatal(err)
				}
				vs := Choose(g, h, "")
				if len(vs) == 0 && len(g.Vars) > 0 {
					t.Errorf("%s: empty V0", name)
				}
				fmt.Fprintf(&v0, "%s: %s\n", name, JoinVars(vs))
			}
			var after bytes.Buffer
			program.Show(&after, p)
			if before.String() != after.String() {
				t.Errorf("Build modified its input")
			}
			got := map[string]string{"graph": graph.String(), "v0": v0.String()}
			if *update {
				for _, name := range []string{"graph", "v0"} {
					setSection(a, name, []byte(got[name]))
				}
				if err := os.WriteFile(file, txtar.Format(a), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			for _, name := range []string{"graph", "v0"} {
				if want := section(a, name); string(want) != got[name] {
					t.Errorf("%s differs:\n--- got\n%s--- want\n%s", name, got[name], want)
				}
			}
		})
	}
}

func checkInvariants(t *testing.T, g *Graph) {
	t.Helper()
	for i := 1; i < len(g.Vars); i++ {
		if g.Vars[i-1] >= g.Vars[i] {
			t.Errorf("Vars not sorted or duplicated at %s", g.Vars[i])
		}
	}
	for _, v := range g.Vars {
		if _, ok := g.Group[v]; !ok {
			t.Errorf("%s has no group", v)
		}
		for y := range g.In[v] {
			if g.Out[y][v] != g.In[v][y] {
				t.Errorf("In and Out disagree on %s -> %s", y, v)
			}
		}
	}
	for _, c := range []Heuristic{Steps{K: 0}, Steps{K: 1}, Cone{}} {
		vs := Choose(g, c, "")
		if got := g.Close(vs); fmt.Sprint(got) != fmt.Sprint(vs) {
			t.Errorf("Choose(%s) is not closed under groups: %v vs %v", c.Name(), vs, got)
		}
	}
}

func section(a *txtar.Archive, name string) []byte {
	for _, f := range a.Files {
		if f.Name == name {
			return f.Data
		}
	}
	return nil
}

func setSection(a *txtar.Archive, name string, data []byte) {
	for i, f := range a.Files {
		if f.Name == name {
			a.Files[i].Data = data
			return
		}
	}
	a.Files = append(a.Files, txtar.File{Name: name, Data: data})
}
