package frontend

import (
	"bytes"
	_ "embed"

	"modernc.org/cc/v4"
)

// The C library model: functions of <string.h> defined in C
// (libc/string.c), parsed with every program as a source of its own before
// the program's (so that the program's macros cannot change it) and
// lowered like the program's functions when a run can reach them. A call
// of memcpy, memmove, memset, memcmp, strlen, strcpy, strncpy, strcmp or
// strncmp without a body of the program's own becomes a call of its model
// (byte loops over the memory model, exact as glibc's), except where the
// front end lowers the call exactly to element-wise stores (libWrite: a
// constant extent over one element type, which copies pointers too and
// needs no loop). The loops are the program's: the unwinding bounds them,
// and a TRUE that they cut says so like any other.

//go:embed libc/string.c
var libcSource string

// libModels maps a library function to its model in libcSource.
var libModels = map[string]string{
	"memcpy": "__cegpv_memcpy", "memmove": "__cegpv_memmove", "memset": "__cegpv_memset",
	"memcmp": "__cegpv_memcmp", "strlen": "__cegpv_strlen", "strcpy": "__cegpv_strcpy",
	"strncpy": "__cegpv_strncpy", "strcmp": "__cegpv_strcmp", "strncmp": "__cegpv_strncmp",
}

// libModelOf returns the model of the library function name (or of its
// __builtin_ form) that the lowerer has a definition of, or "", and the
// library function's own name.
func (l *lowerer) libModelOf(name string) (model, lib string) {
	if a, ok := libAlias[name]; ok {
		name = a
	}
	if m := libModels[name]; m != "" && l.defs[m] != nil {
		return m, name
	}
	return "", name
}

// libModelCall returns the model a direct call of name without a body
// goes to, or "" when the call is lowered otherwise (not a modelled
// function, or one libWrite lowers exactly).
func (fl *funcLowerer) libModelCall(name string, as []cc.ExpressionNode) string {
	m, lib := fl.l.libModelOf(name)
	switch {
	case m == "":
		return ""
	case lib == "strcpy", lib == "strncpy", lib == "memset", lib == "memcpy":
		if fl.libWriteExact(lib, as) == "" {
			return ""
		}
	}
	return m
}

// libcFor returns the library model to parse with src: none when src
// already names one of its functions (a program cegpv printed, whose
// reachable models are ordinary functions of it).
func libcFor(src []byte) string {
	for _, m := range libModels {
		if bytes.Contains(src, []byte(m)) {
			return ""
		}
	}
	return libcSource
}
