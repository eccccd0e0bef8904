package frontend

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"cegpv.dev/cegpv/internal/progen"
	"cegpv.dev/cegpv/program"
)

var layoutSeeds = flag.Int("seeds", 0, "TestLayoutAgainstGCC: generated sets of declarations (0: the default)")

// layoutModel is a data model and the gcc flag that compiles for it.
type layoutModel struct {
	model program.DataModel
	flag  string
}

// layoutModels returns the data models gcc compiles for here
// (progen.Models: t is skipped when there is none).
func layoutModels(t *testing.T) []layoutModel {
	t.Helper()
	var out []layoutModel
	for _, m := range progen.Models(t) {
		out = append(out, layoutModel{program.DataModel(m.Name), m.Flag})
	}
	return out
}

func gccLayout(t *testing.T, ls []progen.Layout, m layoutModel) map[string][]int64 {
	t.Helper()
	var src, pr strings.Builder
	for _, l := range ls {
		src.WriteString(l.Src)
		for _, ty := range l.Types {
			fmt.Fprintf(&pr, "  printf(\"%s %%zu %%zu\\n\", sizeof(%s), _Alignof(%s));\n", ty.Tag, ty.C, ty.C)
			for _, mb := range ty.Members {
				fmt.Fprintf(&pr, "  printf(\"%s.%s %%zu %%zu %%zu\\n\", offsetof(%s, %s), sizeof(((%s *)0)->%s), _Alignof(%s));\n",
					ty.Tag, mb.Name, ty.C, mb.Name, ty.C, mb.Name, mb.Type)
			}
		}
	}
	c := src.String() + "#include <stdio.h>\nint main(void) {\n" + pr.String() + "  return 0;\n}\n"
	out, err := progen.CompileRun(t.TempDir(), "layout.c", c, m.flag)
	if err != nil {
		t.Fatalf("%v\n%s", err, c)
	}
	res := map[string][]int64{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		for _, s := range f[1:] {
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				t.Fatalf("gcc printed %q", line)
			}
			res[f[0]] = append(res[f[0]], v)
		}
	}
	return res
}

// layoutDiffs lowers l (a global of each type, an empty main) under m and
// returns where its layout differs from gcc's: the size and alignment of
// each type, the byte offset of each member, its type's size and, when
// the front end states it (Type.Align: aggregates, pthread types), its
// alignment. A declaration the front end rejects is a difference too:
// every generated type is one gcc lays out.
func layoutDiffs(l progen.Layout, m layoutModel, gcc map[string][]int64) []string {
	var src strings.Builder
	src.WriteString(l.Src)
	for _, ty := range l.Types {
		fmt.Fprintf(&src, "%s v_%s;\n", ty.C, ty.Tag)
	}
	// main takes each global's address: the front end lowers only what a
	// run can reach, so an unused global (and its type) would be dropped
	src.WriteString("int main(void) {\n")
	for _, ty := range l.Types {
		fmt.Fprintf(&src, "  void *p_%s = &v_%s;\n", ty.Tag, ty.Tag)
	}
	src.WriteString("  return 0;\n}\n")
	p, err := Lower("layout.c", []byte(src.String()), Options{Model: m.model})
	if err != nil {
		return []string{fmt.Sprintf("rejected: %v\n%s", err, src.String())}
	}
	byTag := map[string]*program.Type{}
	for _, ty := range p.Types {
		byTag[ty.Name] = ty
	}
	var diffs []string
	differ := func(what string, cegpv, gcc int64) {
		if cegpv != gcc {
			diffs = append(diffs, fmt.Sprintf("%s: cegpv %d, gcc %s %d", what, cegpv, m.flag, gcc))
		}
	}
	for _, lt := range l.Types {
		ty := byTag[lt.Tag]
		g := gcc[lt.Tag]
		if ty == nil || len(g) != 2 {
			diffs = append(diffs, fmt.Sprintf("%s: not in the lowered program's types (or not printed by gcc)", lt.C))
			continue
		}
		differ("sizeof("+lt.C+")", ty.Size, g[0])
		differ("_Alignof("+lt.C+")", ty.Alignment(), g[1])
		if len(ty.Fields) != len(lt.Members) {
			diffs = append(diffs, fmt.Sprintf("%s: %d fields, %d members declared", lt.C, len(ty.Fields), len(lt.Members)))
			continue
		}
		for i, mb := range lt.Members {
			f := ty.Fields[i]
			g := gcc[lt.Tag+"."+mb.Name]
			differ(fmt.Sprintf("offsetof(%s, %s)", lt.C, mb.Name), f.Offset, g[0])
			differ(fmt.Sprintf("sizeof %s (%s)", mb.Name, mb.Type), f.Type.Size, g[1])
			if f.Type.Align > 0 {
				// a scalar's natural alignment (Align 0) is no claim
				// about the data model: only LayOut uses it
				differ(fmt.Sprintf("_Alignof(%s)", mb.Type), f.Type.Alignment(), g[2])
			}
		}
	}
	if len(diffs) > 0 {
		diffs = append(diffs, "in\n"+l.Src)
	}
	return diffs
}

// TestLayoutAgainstGCC compares the layout the front end gives struct and
// union types (program.Type Size and Alignment, program.Field Offset) with
// gcc's under both data models, on generated declarations
// (progen.GenerateLayout: members of every integer type, _Bool, enums,
// pointers, function pointers, pthread types, arrays of one and two
// dimensions, nested structs and unions, pointers to types declared
// later). Byte-exact memory (issue 26) rests on these numbers: an offset
// that differs from gcc's makes offsetof, char pointer arithmetic and
// byte reads land elsewhere than in the compiled program. -seeds N.
func TestLayoutAgainstGCC(t *testing.T) {
	models := layoutModels(t)
	n := 60
	if testing.Short() {
		n = 20
	}
	if *layoutSeeds > 0 {
		n = *layoutSeeds
	}
	var ls []progen.Layout
	for seed := int64(1); seed <= int64(n); seed++ {
		ls = append(ls, progen.GenerateLayout(seed))
	}
	for _, m := range models {
		gcc := gccLayout(t, ls, m) // one translation unit for all seeds
		bad := 0
		for i, l := range ls {
			d := layoutDiffs(l, m, gcc)
			if len(d) > 0 {
				bad++
				if bad <= 5 {
					t.Errorf("seed %d, %s:\n%s", i+1, m.model, strings.Join(d, "\n"))
				}
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of %d sets of declarations differ from gcc %s", m.model, bad, n, m.flag)
		}
	}
}

// FuzzLayout: the declarations the fuzzer's bytes choose
// (progen.LayoutFromBytes) get gcc's layout under both data models (one
// gcc run per input and data model; skipped without gcc). `go test` runs
// the seeds; `go test -fuzz FuzzLayout ./frontend` searches.
func FuzzLayout(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{4, 0, 5, 9, 3, 7, 2, 1, 9, 0, 8})
	f.Add([]byte{3, 1, 2, 200, 17, 3, 0, 5, 0, 1, 9, 4, 3, 2, 1, 0, 250, 251})
	f.Add([]byte("struct with a long long after a char"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l := progen.LayoutFromBytes(data)
		for _, m := range layoutModels(t) {
			if d := layoutDiffs(l, m, gccLayout(t, []progen.Layout{l}, m)); len(d) > 0 {
				t.Fatalf("%s:\n%s", m.model, strings.Join(d, "\n"))
			}
		}
	})
}
