package frontend

import (
	"fmt"

	"modernc.org/cc/v4"

	"cegpv.dev/cegpv/program"
)

// Unions (C11 6.7.2.1p16: the members share one storage). The program
// model keeps a union as an object with a cell per member, so the front
// end makes the members that are used share one cell, where that is exact,
// and rejects the rest (design.md §5 rule 5):
//
//   - An access to member m selects the first member whose type is
//     identical to m's (its canonical member): members of identical types
//     are the same bytes read the same way, so they are one cell.
//   - An initializer writes the first member (C's rule), an access of it.
//   - When the accesses of one union type reach members of two types that
//     are not identical (type punning: `unsigned i; unsigned char c[4];`,
//     an int and a pointer, ...), the program is rejected, naming both
//     members and the place of the second one.
//
// A union used through a single member type is then exact: every access
// reads and writes the one cell that C's storage holds.

// unionUse is the first access of one canonical member of a union type.
type unionUse struct {
	field int
	name  string // the member as written
	at    cc.Node
}

// unionMember returns the canonical member for an access of member i of
// union type t at n, recording the access.
func (l *lowerer) unionMember(t *program.Type, i int, name string, n cc.Node) int {
	if t.Store > 0 {
		// one storage for every member (program.ChooseStorage): each
		// access is the bytes C gives it, punning included
		return i
	}
	canon := i
	for j := range t.Fields {
		if program.Identical(t.Fields[j].Type, t.Fields[i].Type) {
			canon = j
			break
		}
	}
	if l.unionUses == nil {
		l.unionUses = map[*program.Type][]unionUse{}
	}
	for _, u := range l.unionUses[t] {
		if u.field == canon {
			return canon
		}
	}
	l.unionUses[t] = append(l.unionUses[t], unionUse{field: canon, name: name, at: n})
	if uses := l.unionUses[t]; len(uses) > 1 {
		first := uses[0]
		l.fail(n, "%s: members %s (%s) and %s (%s) are both accessed; reading a union through a member of another type than the one written (type punning) is not supported",
			unionName(t), first.name, t.Fields[first.field].Type, name, t.Fields[canon].Type)
	}
	return canon
}

func unionName(t *program.Type) string {
	if t.Name != "" {
		return "union " + t.Name
	}
	return fmt.Sprint(t)
}
