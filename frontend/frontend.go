// Package frontend lowers C programs in the SV-COMP concurrency dialect
// (C99 with pthreads and the __VERIFIER_* functions) to the goto-program
// model of package program.
//
// The C text is preprocessed, parsed and type checked by modernc.org/cc/v4
// with a self-contained configuration: the ABI of linux/386 (ILP32) or
// linux/amd64 (LP64), a few predefined macros, and cegpv's own small set of
// system headers (frontend/include, embedded in the binary). The typed AST is
// then lowered construct by construct; see docs/conventions.md for the rules
// the output follows (labels, property ids, splitting of shared accesses).
//
// Anything the front end cannot model faithfully is rejected with a
// *program.Error of kind program.Unsupported that names file:line and the
// construct. The front end never samples values or drops behaviours.
package frontend

import (
	"embed"
	"fmt"
	"io/fs"
	"maps"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/hashicorp/go-hclog"
	"modernc.org/cc/v4"
	"modernc.org/token"

	"cegpv.dev/cegpv/program"
)

//go:embed include
var includeFS embed.FS

// Options configures Lower.
type Options struct {
	// Model is the data model; the zero value means the host's
	// (program.HostModel: LP64 on x86-64).
	Model program.DataModel
	// Logger receives Debug messages about modelling decisions; nil is silent.
	Logger hclog.Logger
	// IncludeDirs are searched for #include "..." after the including
	// file's directory.
	IncludeDirs []string
	// MaxHeap is the Go heap LowerContext lets the lowering reach (0:
	// DefaultMaxHeap).
	MaxHeap int
	// MallocMayFail lets malloc, calloc and realloc return a null pointer (CBMC's
	// and ESBMC's --malloc-may-fail); by default they never fail, as in
	// both.
	MallocMayFail bool
}

const predefinedCommon = `
#define __STDC__ 1
#define __STDC_VERSION__ 199901L
#define __STDC_HOSTED__ 1
#define __CHAR_BIT__ 8
#define __SCHAR_MAX__ 0x7f
#define __SHRT_MAX__ 0x7fff
#define __INT_MAX__ 0x7fffffff
#define __LONG_LONG_MAX__ 0x7fffffffffffffffLL
#define __SIZEOF_INT__ 4
#define __SIZEOF_SHORT__ 2
#define __SIZEOF_LONG_LONG__ 8
#define __linux__ 1
#define __linux 1
#define __unix__ 1
#define __unix 1
#define __ELF__ 1
#define __CEGPV__ 1
#define __VERIFIER_CEGPV 1
#define __inline inline
#define __inline__ inline
#define __restrict restrict
#define __restrict__ restrict
#define __const const
#define __signed__ signed
#define __volatile__ volatile
#define __UINT8_TYPE__ unsigned char
#define __UINT16_TYPE__ unsigned short
#define __UINT32_TYPE__ unsigned int
#define __INT8_TYPE__ signed char
#define __INT16_TYPE__ short
#define __INT32_TYPE__ int
#define __ATOMIC_RELAXED 0
#define __ATOMIC_CONSUME 1
#define __ATOMIC_ACQUIRE 2
#define __ATOMIC_RELEASE 3
#define __ATOMIC_ACQ_REL 4
#define __ATOMIC_SEQ_CST 5
`

const predefinedILP32 = predefinedCommon + `
#define __i386__ 1
#define __i386 1
#define __ILP32__ 1
#define __SIZE_TYPE__ unsigned int
#define __PTRDIFF_TYPE__ int
#define __INTPTR_TYPE__ int
#define __UINTPTR_TYPE__ unsigned int
#define __WCHAR_TYPE__ long int
#define __LONG_MAX__ 0x7fffffffL
#define __SIZEOF_LONG__ 4
#define __SIZEOF_POINTER__ 4
#define __SIZEOF_SIZE_T__ 4
#define __UINT64_TYPE__ unsigned long long
#define __INT64_TYPE__ long long
`

const predefinedLP64 = predefinedCommon + `
#define __x86_64__ 1
#define __x86_64 1
#define __amd64__ 1
#define __LP64__ 1
#define _LP64 1
#define __SIZE_TYPE__ long unsigned int
#define __PTRDIFF_TYPE__ long int
#define __INTPTR_TYPE__ long int
#define __UINTPTR_TYPE__ long unsigned int
#define __WCHAR_TYPE__ int
#define __LONG_MAX__ 0x7fffffffffffffffL
#define __SIZEOF_LONG__ 8
#define __SIZEOF_POINTER__ 8
#define __SIZEOF_SIZE_T__ 8
#define __UINT64_TYPE__ unsigned long
#define __INT64_TYPE__ long
`

var abis = map[program.DataModel]*cc.ABI{}

func init() {
	for m, arch := range map[program.DataModel]string{program.ILP32: "386", program.LP64: "amd64"} {
		abi, err := cc.NewABI("linux", arch)
		if err != nil {
			panic(err)
		}
		abis[m] = abi
	}
}

func config(model program.DataModel, includeDirs []string) *cc.Config {
	sub, _ := fs.Sub(includeFS, "include")
	return &cc.Config{
		ABI:             abis[model],
		FS:              sub,
		IncludePaths:    append([]string{""}, includeDirs...),
		SysIncludePaths: []string{"."},
		DefaultSizeT:    cc.UInt,
		ExpansionLimit:  ExpansionLimit,
	}
}

// Lower parses the C translation unit src (named file in positions and
// errors) and lowers it to a program.
func Lower(file string, src []byte, opts Options) (prog *program.Program, err error) {
	if opts.Model == "" {
		opts.Model = program.HostModel()
	}
	if opts.Model != program.ILP32 && opts.Model != program.LP64 {
		return nil, program.Errorf(program.Internal, "unknown data model %q", opts.Model)
	}
	log := opts.Logger
	if log == nil {
		log = hclog.NewNullLogger()
		opts.Logger = log
	}
	l := newLowerer(file, opts.Model, log)
	l.mallocMayFail = opts.MallocMayFail
	parsing := true
	defer func() {
		if r := recover(); r != nil {
			prog = nil
			if b, ok := r.(bailout); ok {
				err = b.err
				return
			}
			log.Debug("front end panic", "value", r, "stack", string(debug.Stack()))
			if parsing {
				// a bug of the C parser (modernc.org/cc/v4) on this input,
				// e.g. an empty character constant: the input cannot be
				// read, like any other parse error
				err = &program.Error{Kind: program.Unsupported, Pos: program.Pos{File: file},
					Err: fmt.Errorf("C parse error: the C parser failed on this input (%v)", r)}
				return
			}
			err = program.PanicError(r)
		}
	}()
	ast, err := parse(file, src, opts)
	parsing = false
	if err != nil {
		return nil, err
	}
	return l.run(ast)
}

func parse(file string, src []byte, opts Options) (*cc.AST, error) {
	cfg := config(opts.Model, opts.IncludeDirs)
	pre := predefinedILP32
	if opts.Model == program.LP64 {
		pre = predefinedLP64
	}
	sources := []cc.Source{
		{Name: "<predefined>", Value: pre},
		{Name: "<builtin>", Value: cc.Builtin},
		{Name: "<cegpv-libc>", Value: libcFor(src)}, // libmodel.go
		// cc may write into the buffer it is given: pass a copy.
		{Name: file, Value: string(src)},
	}
	if err := checkIncludes(file, src, opts.IncludeDirs); err != nil {
		return nil, err
	}
	if err := checkNesting(cfg, sources, file, src); err != nil {
		return nil, err
	}
	text := string(src)
	for range 16 { // each round drops one unused duplicated label
		sources[3].Value = text
		ast, err := cc.Translate(cfg, sources)
		if err == nil {
			return ast, nil
		}
		if !strings.Contains(err.Error(), "*cc.LabeledStatement") {
			return nil, parseError(file, err)
		}
		// cc's type checker reports a label defined twice in one function
		// without a position: find it ourselves.
		sources[3].Value = text
		ps, name, derr := duplicateLabel(cfg, sources)
		if derr != nil {
			return nil, derr
		}
		next, ok := dropLabels(text, file, name, ps)
		if ps == nil || !ok {
			return nil, parseError(file, err)
		}
		opts.Logger.Warn("label defined twice in one function and never the target of a goto: its definitions are ignored (gcc rejects the file)",
			"label", name, "at", fmt.Sprintf("%s:%d", file, ps[1].Line))
		text = next
	}
	return nil, program.Errorf(program.Unsupported, "%s: too many duplicated labels", file)
}

// duplicateLabel parses sources without type checking and looks for a
// label defined twice in one function (C11 6.8.1p3: not C; gcc rejects
// it). When no goto of that function names the label (nor a computed
// goto), the label carries no meaning: unused returns the positions of all
// its definitions, which parse removes from the source (SV-COMP tasks
// whose assert macro defines ERROR: and expands twice). Otherwise err is
// the Unsupported error at the second definition. Both are nil when there
// is no duplicate.
func duplicateLabel(cfg *cc.Config, sources []cc.Source) (unused []token.Position, name string, err error) {
	ast, perr := cc.Parse(cfg, sources)
	if perr != nil || ast == nil {
		return nil, "", nil
	}
	for tu := ast.TranslationUnit; tu != nil; tu = tu.TranslationUnit {
		ext := tu.ExternalDeclaration
		if ext == nil || ext.Case != cc.ExternalDeclarationFuncDef {
			continue
		}
		fd := ext.FunctionDefinition
		defs := map[string][]token.Position{}
		gotos := map[string]bool{}
		computed := false
		var walk func(s *cc.Statement)
		var block func(cs *cc.CompoundStatement)
		block = func(cs *cc.CompoundStatement) {
			if cs == nil {
				return
			}
			for bl := cs.BlockItemList; bl != nil; bl = bl.BlockItemList {
				if bi := bl.BlockItem; bi != nil {
					walk(bi.Statement)
				}
			}
		}
		walk = func(s *cc.Statement) {
			if s == nil {
				return
			}
			switch s.Case {
			case cc.StatementLabeled:
				ls := s.LabeledStatement
				if ls.Case == cc.LabeledStatementLabel {
					name := ls.Token.SrcStr()
					defs[name] = append(defs[name], ls.Token.Position())
				}
				walk(ls.Statement)
			case cc.StatementCompound:
				block(s.CompoundStatement)
			case cc.StatementSelection:
				walk(s.SelectionStatement.Statement)
				walk(s.SelectionStatement.Statement2)
			case cc.StatementIteration:
				walk(s.IterationStatement.Statement)
			case cc.StatementJump:
				switch js := s.JumpStatement; js.Case {
				case cc.JumpStatementGoto:
					gotos[js.Token2.SrcStr()] = true
				case cc.JumpStatementGotoExpr:
					computed = true
				}
			}
		}
		block(fd.CompoundStatement)
		for _, lname := range slices.Sorted(maps.Keys(defs)) {
			ps := defs[lname]
			if len(ps) < 2 {
				continue
			}
			if gotos[lname] || computed {
				first := ps[0]
				return nil, lname, &program.Error{Kind: program.Unsupported, Pos: toPos(ps[1]),
					Err: fmt.Errorf("label %s defined twice in function %s (first at %s:%d) and the target of a goto: invalid C, label names must be unique within a function "+
						"(C11 6.8.1p3; gcc: duplicate label '%s'); probably a macro that defines a label, expanded twice",
						lname, fd.Declarator.Name(), first.Filename, first.Line, lname)}
			}
			return ps, lname, nil
		}
	}
	return nil, "", nil
}

// dropLabels removes the definitions of label name at ps from src: the
// text "name :" at a position that holds it, and for a position that is
// the expansion of a macro (the SV-COMP assert macro defines ERROR:), the
// label in every #define of src whose body defines it. It refuses (ok
// false) when a goto anywhere in src names the label, since a macro's
// label serves every function that expands it, or when a position holds
// neither. Columns of the other tokens stay as they are.
func dropLabels(src string, file string, name string, ps []token.Position) (string, bool) {
	if regexp.MustCompile(`\bgoto\s+` + regexp.QuoteMeta(name) + `\b`).MatchString(src) {
		return src, false
	}
	label := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `[ \t]*:([^:]|$)`)
	blank := func(l string, loc []int) string {
		end := loc[1]
		if loc[3] > loc[2] {
			end = loc[2] // keep the character after the colon
		}
		return l[:loc[0]] + strings.Repeat(" ", end-loc[0]) + l[end:]
	}
	lines := strings.SplitAfter(src, "\n")
	macros := false
	for _, p := range ps {
		if p.Filename != file || p.Line < 1 || p.Line > len(lines) {
			return src, false
		}
		l := lines[p.Line-1]
		if i := p.Column - 1; i >= 0 && i < len(l) {
			if loc := label.FindStringSubmatchIndex(l[i:]); loc != nil && loc[0] == 0 {
				for k := range loc {
					loc[k] += i
				}
				lines[p.Line-1] = blank(l, loc)
				continue
			}
		}
		macros = true
	}
	if macros {
		found := false
		for i, l := range lines {
			if !regexp.MustCompile(`^\s*#\s*define\b`).MatchString(l) {
				continue
			}
			for loc := label.FindStringSubmatchIndex(l); loc != nil; loc = label.FindStringSubmatchIndex(l) {
				l = blank(l, loc)
				found = true
			}
			lines[i] = l
		}
		if !found {
			return src, false
		}
	}
	return strings.Join(lines, ""), true
}

// parseError turns a cc error list into an Unsupported error positioned at
// the first message.
// ccPos matches a position in cc's own sources in its messages.
var ccPos = regexp.MustCompile(`\s*\([A-Za-z0-9_]+\.go:\d+(:[A-Za-z0-9_.]*)*:?\)`)

// cxxHeader matches the message of an include of a header without a
// suffix, which C does not have.
var cxxHeader = regexp.MustCompile(`include file not found: <([A-Za-z_]+)>`)

func parseError(file string, err error) error {
	msg := err.Error()
	first := strings.SplitN(msg, "\n", 2)[0]
	pos := program.Pos{File: file}
	// cc messages look like "file:line:col: text".
	rest := first
	if i := strings.LastIndex(first, ".c:"); i >= 0 {
		rest = first[i+3:]
		pos.File = first[:i+2]
	} else if i := strings.Index(first, ":"); i >= 0 {
		pos.File = first[:i]
		rest = first[i+1:]
	}
	var line, col int
	if n, _ := fmt.Sscanf(rest, "%d:%d:", &line, &col); n >= 1 {
		pos.Line, pos.Col = line, col
		if j := strings.Index(rest, ": "); j >= 0 {
			first = strings.TrimSpace(rest[j+2:])
		}
	}
	// cc appends its own source position, "(check.go:5317:check:)": not
	// the input's, so not the user's business
	first = strings.TrimSpace(ccPos.ReplaceAllString(first, ""))
	if m := cxxHeader.FindStringSubmatch(first); m != nil {
		// every C header is name.h; <thread>, <iostream>, <cstdio> are C++'s
		return &program.Error{Kind: program.Unsupported, Pos: pos, Err: fmt.Errorf("C++ input: <%s> is a C++ header; cegpv checks C programs, C++ is not supported", m[1])}
	}
	return &program.Error{Kind: program.Unsupported, Pos: pos, Err: fmt.Errorf("C parse error: %s", first)}
}

// bailout carries an error out of the lowering through panic/recover.
type bailout struct{ err error }
