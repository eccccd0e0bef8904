package frontend

import (
	"reflect"

	"modernc.org/cc/v4"
)

// _Atomic objects (C11 6.7.2.4, 6.7.3). The front end models what it can
// model exactly and rejects the rest (design.md §5 rule 5: a qualifier is
// never dropped):
//
//   - A variable declared `_Atomic T x` or `_Atomic(T) x`, T a scalar that
//     is not a pointer target (x itself is the atomic object): every load
//     and store of x is one instruction with one shared access, hence
//     atomic in the model anyway; a read-modify-write of x (x++, --x,
//     x op= e) is lowered between AtomicBegin and AtomicEnd, with e
//     evaluated before the section (C evaluates it separately, and
//     evaluating it inside would remove interleavings).
//   - Taking the address of such a variable is rejected (accesses through
//     the pointer would not be known to be atomic).
//   - Every other _Atomic — a pointer to an atomic type, an atomic array,
//     struct or union member, parameter, typedef, cast, compound literal —
//     is rejected as unsupported input naming its position.
//
// <stdatomic.h> is not among the front end's headers: including it is
// rejected by the preprocessor ("include file not found").

// checkAtomics walks the translation unit and fails at the first _Atomic
// that is not on the declaration of a plain variable, in the declarations
// a run can reach (mayReach).
func (l *lowerer) checkAtomics(ast *cc.AST) {
	var stack []reflect.Value
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		for v.Kind() == reflect.Interface {
			if v.IsNil() {
				return
			}
			v = v.Elem()
		}
		if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
			return
		}
		if v.Type() == tokenPtrType {
			return
		}
		if atomicNode(v) {
			if node, why := atomicAllowed(stack); why != "" {
				l.fail(node, "_Atomic %s", why)
			}
		}
		stack = append(stack, v)
		s := v.Elem()
		for i := 0; i < s.NumField(); i++ {
			f := s.Type().Field(i)
			if !f.IsExported() || f.Anonymous {
				continue
			}
			switch f.Type.Kind() {
			case reflect.Pointer, reflect.Interface:
				walk(s.Field(i))
			}
		}
		stack = stack[:len(stack)-1]
	}
	for ed := ast.TranslationUnit; ed != nil; ed = ed.TranslationUnit {
		if ext := ed.ExternalDeclaration; ext != nil && l.mayReach(ext) {
			walk(reflect.ValueOf(ext))
		}
	}
}

// mayReach reports whether a file-scope declaration matters to a run: a
// function definition a run can call, or a declaration that declares a
// typedef, a tag, or an object a run can use (reach.go); not a prototype
// or an object no reachable code names.
func (l *lowerer) mayReach(ext *cc.ExternalDeclaration) bool {
	switch ext.Case {
	case cc.ExternalDeclarationFuncDef:
		return l.reached.funcs[ext.FunctionDefinition.Declarator.Name()]
	case cc.ExternalDeclarationDecl:
		d := ext.Declaration
		if d == nil || d.Case != cc.DeclarationDecl || d.InitDeclaratorList == nil {
			return true
		}
		for list := d.InitDeclaratorList; list != nil; list = list.InitDeclaratorList {
			id := list.InitDeclarator
			if id == nil || id.Declarator == nil {
				return true
			}
			dd := id.Declarator
			if dd.IsTypename() || (dd.Type() != nil && dd.Type().Kind() != cc.Function && l.reached.objs[dd.Name()]) {
				return true
			}
		}
		return false
	}
	return true
}

var tokenPtrType = reflect.TypeOf(&cc.Token{})

// atomicNode says whether v is an _Atomic qualifier or an _Atomic(T)
// specifier.
func atomicNode(v reflect.Value) bool {
	switch n := v.Interface().(type) {
	case *cc.TypeQualifier:
		return n.Case == cc.TypeQualifierAtomic
	case *cc.TypeSpecifier:
		return n.Case == cc.TypeSpecifierAtomic
	}
	return false
}

// atomicAllowed inspects the ancestors of an _Atomic node (innermost
// last): it is allowed only in the declaration specifiers of a
// declaration of variables whose declarators are plain identifiers of
// scalar, non-pointer type. Otherwise it returns the node to blame and
// why.
func atomicAllowed(stack []reflect.Value) (cc.Node, string) {
	var blame cc.Node
	for i := len(stack) - 1; i >= 0; i-- {
		switch n := stack[i].Interface().(type) {
		case *cc.DeclarationSpecifiers:
			if blame == nil {
				blame = n
			}
			continue
		case *cc.Declaration:
			if blame == nil {
				blame = n
			}
			if n.InitDeclaratorList == nil {
				return n, "in a declaration that declares no variable is not supported"
			}
			for idl := n.InitDeclaratorList; idl != nil; idl = idl.InitDeclaratorList {
				d := idl.InitDeclarator.Declarator
				switch {
				case d.IsTypename():
					return d, "in a typedef is not supported"
				case d.Pointer != nil:
					return d, "on a pointer or its target (" + d.Name() + ") is not supported"
				case d.DirectDeclarator == nil || d.DirectDeclarator.Case != cc.DirectDeclaratorIdent:
					return d, "on an array or function (" + d.Name() + ") is not supported"
				}
				if t := d.Type(); t == nil || !cc.IsScalarType(t) || t.Kind() == cc.Ptr {
					return d, "on a variable of non-scalar type (" + d.Name() + ") is not supported"
				}
			}
			return nil, ""
		case *cc.StructDeclaration:
			return n, "on a struct or union member is not supported"
		case *cc.SpecifierQualifierList:
			for j := i - 1; j >= 0; j-- {
				if sd, ok := stack[j].Interface().(*cc.StructDeclaration); ok {
					return sd, "on a struct or union member is not supported"
				}
			}
			return n, "in a cast or type name is not supported"
		case *cc.ParameterDeclaration:
			return n, "on a parameter is not supported"
		case *cc.Pointer:
			return n, "on a pointer is not supported"
		default:
			if blame == nil {
				blame = n.(cc.Node)
			}
			return blame, "here is not supported"
		}
	}
	return blame, "here is not supported"
}

// isAtomicVar says whether e names a variable declared _Atomic (the only
// _Atomic objects checkAtomics lets through).
func (fl *funcLowerer) isAtomicVar(e cc.ExpressionNode) bool {
	_, d := identDecl(e)
	return d != nil && d.IsAtomic()
}
