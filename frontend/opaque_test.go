package frontend

import (
	"fmt"
	"strings"
	"testing"

	"cegpv.dev/cegpv/internal/progen"
	"cegpv.dev/cegpv/program"
)

// TestOpaqueLayoutAgainstGCC checks that opaque members (bit-fields,
// floating point, flexible array members: opaque.go) leave the other
// members where gcc puts them, and the struct's size and alignment, in
// both data models.
func TestOpaqueLayoutAgainstGCC(t *testing.T) {
	l := progen.Layout{
		Src: `#include <stddef.h>
#include <pthread.h>
struct o_k { const char *name; unsigned a : 1; unsigned b : 3; int refs; double w; char c; int data[]; };
struct o_d { char c; double d; short s; long double ld; int i; };
struct o_b { char c; unsigned short x : 9; char d; float f[3]; void *p; };
union o_u { double d; int i; char c[12]; };
struct o_n { int a; union o_u u; struct o_d d; unsigned : 0; char z; };
`,
		Types: []progen.LayoutType{
			{C: "struct o_k", Tag: "o_k", Members: []progen.LayoutMember{{Name: "name", Type: "const char *"}, {Name: "refs", Type: "int"}, {Name: "c", Type: "char"}}},
			{C: "struct o_d", Tag: "o_d", Members: []progen.LayoutMember{{Name: "c", Type: "char"}, {Name: "s", Type: "short"}, {Name: "i", Type: "int"}}},
			{C: "struct o_b", Tag: "o_b", Members: []progen.LayoutMember{{Name: "c", Type: "char"}, {Name: "d", Type: "char"}, {Name: "p", Type: "void *"}}},
			{C: "union o_u", Tag: "o_u", Members: []progen.LayoutMember{{Name: "i", Type: "int"}, {Name: "c", Type: "char[12]"}}},
			{C: "struct o_n", Tag: "o_n", Members: []progen.LayoutMember{{Name: "a", Type: "int"}, {Name: "u", Type: "union o_u"}, {Name: "d", Type: "struct o_d"}, {Name: "z", Type: "char"}}},
		},
	}
	for _, m := range layoutModels(t) {
		gcc := gccLayout(t, []progen.Layout{l}, m)
		var src strings.Builder
		src.WriteString(l.Src + "void *sink;\nint main(void) {\n")
		for _, ty := range l.Types {
			fmt.Fprintf(&src, "  static %s v_%s;\n  sink = &v_%s;\n", ty.C, ty.Tag, ty.Tag)
		}
		src.WriteString("  return 0;\n}\n")
		p, err := Lower("opaque.c", []byte(src.String()), Options{Model: m.model})
		if err != nil {
			t.Fatalf("%s: %v", m.model, err)
		}
		for _, lt := range l.Types {
			var found bool
			for _, ty := range p.Types {
				if ty.Name != lt.Tag {
					continue
				}
				found = true
				g := gcc[lt.Tag]
				if ty.Size != g[0] || ty.Alignment() != g[1] {
					t.Errorf("%s %s: size %d align %d, gcc %s %d %d", m.model, lt.C, ty.Size, ty.Alignment(), m.flag, g[0], g[1])
				}
				var end int64
				for _, f := range ty.Fields {
					if f.Offset < end && ty.Kind != program.Union {
						t.Errorf("%s %s: member %s at %d overlaps the one before (ends at %d)", m.model, lt.C, f.Name, f.Offset, end)
					}
					end = f.Offset + f.Type.Size
				}
				for _, mb := range lt.Members {
					i := ty.FieldIndex(mb.Name)
					g := gcc[lt.Tag+"."+mb.Name]
					if i < 0 {
						t.Errorf("%s %s: no member %s", m.model, lt.C, mb.Name)
						continue
					}
					if f := ty.Fields[i]; f.Offset != g[0] || f.Type.Size != g[1] {
						t.Errorf("%s %s.%s: offset %d size %d, gcc %s %d %d", m.model, lt.C, mb.Name, f.Offset, f.Type.Size, m.flag, g[0], g[1])
					}
				}
			}
			if !found {
				t.Errorf("%s: %s not lowered", m.model, lt.C)
			}
		}
	}
}
