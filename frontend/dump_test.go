package frontend

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"cegpv.dev/cegpv/program"
)

// TestDump prints the lowering of $DUMP (debugging aid).
func TestDump(t *testing.T) {
	f := os.Getenv("DUMP")
	if f == "" {
		t.Skip("DUMP not set")
	}
	src, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Lower(f, src, Options{IncludeDirs: []string{filepath.Dir(f)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range p.Globals {
		init := ""
		if g.Init != nil {
			init = " = " + program.ExprString(g.Init)
		}
		fmt.Printf("%s%s  addr=%v\n", program.TypeDecl(g.Type, g.Name), init, g.AddrTaken)
	}
	for _, f := range p.Funcs {
		fmt.Printf("func %s atomic=%v\n", f.Name, f.Atomic)
		for _, in := range f.Body {
			fmt.Printf("  %-12s %s\n", in.Label, in.String())
		}
	}
	if err := program.Check(p); err != nil {
		t.Error(err)
	}
}
