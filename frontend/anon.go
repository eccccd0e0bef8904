package frontend

import (
	"fmt"
	"strings"

	"modernc.org/cc/v4"

	"cegpv.dev/cegpv/program"
)

// Anonymous struct and union members (C11 6.7.2.1p13): the members of an
// anonymous member are members of the containing struct or union. The
// program model's fields have names, so the anonymous member gets one,
// anonPrefix and its index (not a C identifier a program can write, apart
// from the reserved __ prefix), and an access of one of its members is
// the access through it: s.x is s.__anon_member_1.x. The printed program
// names the member, and lowering it again gives the same program.
const anonPrefix = "__anon_member_"

func anonMemberName(i int) string { return fmt.Sprintf("%s%d", anonPrefix, i) }

func isAnonMember(name string) bool { return strings.HasPrefix(name, anonPrefix) }

// fieldPath returns the indexes of the members that lead from t to its
// member name: one for a direct member, more through anonymous members;
// nil when t has none of that name.
func fieldPath(t *program.Type, name string) []int {
	if i := t.FieldIndex(name); i >= 0 {
		return []int{i}
	}
	for i, f := range t.Fields {
		if !isAnonMember(f.Name) {
			continue
		}
		if p := fieldPath(f.Type, name); p != nil {
			return append([]int{i}, p...)
		}
	}
	return nil
}

// selectPath returns the member of s at path (fieldPath), each union on
// the way accessed through its canonical member (union.go); name is the
// member as written and n its node, for errors.
func (fl *funcLowerer) selectPath(s program.Expr, path []int, name string, n cc.Node) program.Expr {
	for k, i := range path {
		t := s.Type()
		fname := t.Fields[i].Name
		if k == len(path)-1 {
			fname = name
		}
		if t.Kind == program.Union {
			i = fl.l.unionMember(t, i, fname, n) // members share storage: union.go
		}
		s = &program.FieldSel{X: s, Name: t.Fields[i].Name, Field: i, T: t.Fields[i].Type}
	}
	return s
}
