package progen

import (
	"fmt"
	"math/rand"
	"strings"
)

// Layout is a set of struct and union declarations for tests of a type
// layout against a C compiler's (sizeof, _Alignof, offsetof).
type Layout struct {
	// Src declares the types (and the enums and typedefs they use); it
	// includes <stddef.h> and <pthread.h>, nothing else.
	Src   string
	Types []LayoutType // in declaration order
}

// LayoutType is one declared struct or union.
type LayoutType struct {
	C       string // "struct s1_L0" or "union s1_L2"
	Tag     string // "s1_L0"
	Members []LayoutMember
}

// LayoutMember is a member and its type as a C type name (for _Alignof).
type LayoutMember struct {
	Name string
	Type string // e.g. "long long[2][3]", "struct s1_L0 *"
}

// GenerateLayout returns the declarations for seed; every name starts
// with "s<seed>_", so that the layouts of several seeds can share one
// translation unit.
func GenerateLayout(seed int64) Layout {
	return genLayout(rand.New(rand.NewSource(seed)), fmt.Sprintf("s%d_", seed))
}

// LayoutFromBytes returns the declarations that data chooses (each byte
// one choice, zeros once it is used up), for fuzzing: a mutation of data
// changes a member, a length or a type.
func LayoutFromBytes(data []byte) Layout {
	return genLayout(&byteChooser{b: data}, "f_")
}

type chooser interface{ Intn(n int) int }

type byteChooser struct {
	b []byte
	i int
}

func (c *byteChooser) Intn(n int) int {
	if c.i >= len(c.b) {
		return 0
	}
	v := int(c.b[c.i])
	c.i++
	return v % n
}

// layoutScalars are the scalar member types: every integer type of both
// data models, _Bool, enums of both signednesses, pointers, a function
// pointer and the pthread types.
var layoutScalars = []string{"char", "signed char", "unsigned char", "short", "unsigned short", "int", "unsigned int",
	"long", "unsigned long", "long long", "unsigned long long", "_Bool", "%sE", "%sF", "void *", "int *", "%sfn",
	"char *", "long long *", "pthread_mutex_t", "pthread_cond_t", "pthread_t"}

func genLayout(r chooser, pre string) Layout {
	var b strings.Builder
	var l Layout
	b.WriteString("#include <stddef.h>\n#include <pthread.h>\n")
	fmt.Fprintf(&b, "enum %sE { %sE_A, %sE_B };\n", pre, pre, pre)
	fmt.Fprintf(&b, "enum %sF { %sF_N = -3, %sF_P = 70000 };\n", pre, pre, pre)
	fmt.Fprintf(&b, "typedef int (*%sfn)(int);\n", pre)
	nt := 1 + r.Intn(5)
	var names []string // every type's C name, declared or not yet
	for i := 0; i < nt; i++ {
		kind := "struct"
		if r.Intn(4) == 0 {
			kind = "union"
		}
		names = append(names, fmt.Sprintf("%s %sL%d", kind, pre, i))
	}
	for i := 0; i < nt; i++ {
		lt := LayoutType{C: names[i], Tag: fmt.Sprintf("%sL%d", pre, i)}
		nm := 1 + r.Intn(6)
		fmt.Fprintf(&b, "%s {\n", lt.C)
		for k := 0; k < nm; k++ {
			base := genLayoutBase(r, pre, names[:i], names)
			var dims string
			if r.Intn(4) == 0 {
				dims = fmt.Sprintf("[%d]", 1+r.Intn(4))
				if r.Intn(3) == 0 {
					dims += fmt.Sprintf("[%d]", 1+r.Intn(3))
				}
			}
			m := LayoutMember{Name: fmt.Sprintf("m%d", k), Type: base + dims}
			fmt.Fprintf(&b, "  %s m%d%s;\n", base, k, dims)
			lt.Members = append(lt.Members, m)
		}
		b.WriteString("};\n")
		l.Types = append(l.Types, lt)
	}
	l.Src = b.String()
	return l
}

// genLayoutBase picks a member's type (before its array dimensions): a
// scalar, a pointer to any of the types (declared or not yet, itself
// included), or an earlier type by value.
func genLayoutBase(r chooser, pre string, earlier, all []string) string {
	switch c := r.Intn(10); {
	case c < 2 && len(earlier) > 0:
		return earlier[r.Intn(len(earlier))]
	case c == 2:
		return all[r.Intn(len(all))] + " *"
	default:
		s := layoutScalars[r.Intn(len(layoutScalars))]
		if strings.Contains(s, "%s") {
			s = fmt.Sprintf(s, pre)
			if strings.HasSuffix(s, "E") || strings.HasSuffix(s, "F") {
				s = "enum " + s
			}
		}
		return s
	}
}
