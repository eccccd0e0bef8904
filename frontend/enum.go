package frontend

import (
	"math"
	"strings"

	"modernc.org/cc/v4"

	"cegpv.dev/cegpv/program"
)

// Enumerations as gcc types them on i386 and x86-64 (no -fshort-enums):
// an enum type is unsigned int when no enumerator is negative and all fit
// in it, int when all fit in int, otherwise the first 64-bit type that
// holds them all (unsigned when none is negative); an enumeration constant
// has type int when its value fits in int, the enum's type otherwise.
//
// cc/v4 types them otherwise (enum {A, B} is int, its constants of an enum
// with a constant beyond int have the enum's type, ...), and folds
// constant expressions in its own types. So every enum object and
// constant gets gcc's type here (enumType, enumeratorType), and a constant
// expression whose value depends on cc's type of an enum (a cast to such an
// enum, a constant typed otherwise than gcc does, and every expression
// above it: "tainted") is not taken from cc: where an expression may stand
// it is lowered like any other, so evaluated in gcc's types (constInt says
// "not a constant", binary operations on constants fold); where C requires
// a constant that cc computes (array sizes, case labels, designators,
// enumerator values, alignments) it is lowered so too and rejected unless
// its value is cc's (enum {A, B = A} is typed differently by cc while it
// is defined, with the same values). A packed enum (gcc: the smallest type that holds its
// constants) is rejected: cc ignores the attribute and gives it 4 bytes.

// enumInfo is what the front end knows of the enumerations of a
// translation unit.
type enumInfo struct {
	of    map[*cc.Enumerator]*cc.EnumType // the enum that defines each constant
	taint map[cc.Node]bool                // expressions whose value cc may fold otherwise than gcc
}

// gccEnum returns the size and signedness gcc gives an enum whose
// constants range over [lo, hi]; ok is false when no integer type holds
// them.
func gccEnum(lo int64, hi uint64) (size int64, signed, ok bool) {
	switch {
	case lo >= 0 && hi <= math.MaxUint32:
		return 4, false, true
	case lo >= math.MinInt32 && hi <= math.MaxInt32:
		return 4, true, true
	case lo >= 0:
		return 8, false, true
	case hi <= math.MaxInt64:
		return 8, true, true
	}
	return 0, false, false
}

// enumType returns gcc's type of the enum et.
func (l *lowerer) enumType(n cc.Node, et *cc.EnumType) *program.Type {
	tag := et.Tag()
	if len(et.Enumerators()) == 0 {
		l.fail(n, "enum %s used without its definition", tag.SrcStr())
	}
	size, signed, ok := gccEnum(et.Min(), et.Max())
	if !ok {
		l.fail(n, "enum %s: no integer type holds its constants", tag.SrcStr())
	}
	return program.IntType(size, signed)
}

// enumeratorType returns gcc's type of the enumeration constant en of et:
// int when its value fits, et's type otherwise.
func (l *lowerer) enumeratorType(n cc.Node, en *cc.Enumerator, et *cc.EnumType) *program.Type {
	switch v := en.Value().(type) {
	case cc.Int64Value:
		if v >= math.MinInt32 && v <= math.MaxInt32 {
			return program.IntT
		}
	case cc.UInt64Value:
		if v <= math.MaxInt32 {
			return program.IntT
		}
	default:
		l.fail(n, "enumerator %s without value", en.Token.SrcStr())
	}
	return l.enumType(n, et)
}

// ccAgrees reports whether cc's integer type t is the same as gcc's g.
func ccAgrees(t cc.Type, g *program.Type) bool {
	return t != nil && cc.IsIntegerType(t) && t.Size() == g.Size && cc.IsSignedInteger(t) == g.Signed
}

// checkEnums walks the translation unit: it records the enum of every
// enumeration constant, marks the expressions whose cc value may differ
// from gcc's, and fails at a packed enum and at a constant C requires
// whose value may differ.
func (l *lowerer) checkEnums(ast *cc.AST) {
	l.enums = enumInfo{of: map[*cc.Enumerator]*cc.EnumType{}, taint: map[cc.Node]bool{}}
	var walk func(n cc.Node) bool
	walk = func(n cc.Node) bool {
		switch x := n.(type) {
		case *cc.EnumSpecifier:
			if et, ok := x.Type().(*cc.EnumType); ok && x.Case == cc.EnumSpecifierDef {
				for _, en := range et.Enumerators() {
					l.enums.of[en] = et
				}
			}
		case *cc.DeclarationSpecifiers:
			l.checkPackedEnum(x)
		}
		tainted := false
		eachChild(n, func(c cc.Node) {
			if walk(c) {
				tainted = true
			}
		})
		switch x := n.(type) {
		case *cc.UnaryExpression:
			switch x.Case {
			case cc.UnaryExpressionSizeofExpr, cc.UnaryExpressionSizeofType, cc.UnaryExpressionAlignofExpr, cc.UnaryExpressionAlignofType:
				return false // the operand's value does not matter
			}
		case *cc.PrimaryExpression:
			if en, ok := x.ResolvedTo().(*cc.Enumerator); ok && x.Case == cc.PrimaryExpressionIdent {
				if et := l.enums.of[en]; et == nil || !ccAgrees(x.Type(), l.enumeratorType(x, en, et)) {
					tainted = true
				}
			}
		case *cc.DirectDeclarator:
			l.sameConst(x.AssignmentExpression, "array size")
			return false
		case *cc.DirectAbstractDeclarator:
			l.sameConst(x.AssignmentExpression, "array size")
			return false
		}
		e, ok := n.(cc.ExpressionNode)
		if !ok {
			return false
		}
		if et, ok := e.Type().(*cc.EnumType); ok && !ccAgrees(et.UnderlyingType(), l.enumType(n, et)) {
			tainted = true
		}
		if !tainted {
			return false
		}
		l.enums.taint[n] = true
		if _, ok := n.(*cc.ConstantExpression); ok {
			l.sameConst(e, "constant expression")
			return false
		}
		return true
	}
	walk(ast.TranslationUnit)
}

// sameConst fails at the tainted constant expression n, which C requires
// and cc computes, unless its value in gcc's types (the front end's
// lowering, which folds constants) is cc's value; then n is a constant
// like any other.
func (l *lowerer) sameConst(n cc.ExpressionNode, what string) {
	if !l.enums.taint[n] {
		return
	}
	v := n.Value()
	if _, ok := intValue(v); !ok {
		return // not an integer constant: not one the front end reads
	}
	fl := newFuncLowerer(l, nil)
	c, ok := fl.rval(n).(*program.Const)
	if !ok || len(fl.body) > 0 || !sameValue(v, c) {
		l.fail(n, "%s whose value depends on the type of an enum, which gcc gives other types than the C parser", what)
	}
	delete(l.enums.taint, n) // cc's value is gcc's
}

// sameValue reports whether cc's integer value v is the value of c.
func sameValue(v cc.Value, c *program.Const) bool {
	signed := c.T.Kind == program.Int && c.T.Signed
	switch v := v.(type) {
	case cc.Int64Value:
		return int64(v) == c.V && (signed || v >= 0)
	case cc.UInt64Value:
		return int64(v) == c.V && (!signed || c.V >= 0)
	}
	return false
}

// checkPackedEnum fails when the specifiers ds define an enum with the
// packed attribute.
func (l *lowerer) checkPackedEnum(ds *cc.DeclarationSpecifiers) {
	var enum cc.Node
	packed := false
	for ; ds != nil; ds = ds.DeclarationSpecifiers {
		switch ds.Case {
		case cc.DeclarationSpecifiersTypeSpec:
			if ts := ds.TypeSpecifier; ts != nil && ts.Case == cc.TypeSpecifierEnum {
				enum = ts
			}
		case cc.DeclarationSpecifiersAttr:
			walkNodes(ds.AttributeSpecifierList, func(n cc.Node) bool {
				if v, ok := n.(*cc.AttributeValue); ok && strings.Trim(v.Token.SrcStr(), "_") == "packed" {
					packed = true
				}
				return true
			})
		}
	}
	if enum != nil && packed {
		l.fail(enum, "packed enum (gcc gives it the smallest type that holds its constants; not supported)")
	}
}

// constInt returns the value of the integer constant expression n as cc
// folds it; ok is false when n is not one, or when its value may differ
// from gcc's (then n is to be lowered as an expression).
func (l *lowerer) constInt(n cc.ExpressionNode) (int64, bool) {
	if n == nil || l.enums.taint[n] {
		return 0, false
	}
	return intValue(n.Value())
}
