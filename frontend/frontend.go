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
	"regexp"
	"runtime/debug"
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
	// Model is the data model; the zero value means program.ILP32.
	Model program.DataModel
	// Logger receives Debug messages about modelling decisions; nil is silent.
	Logger hclog.Logger
	// IncludeDirs are searched for #include "..." after the including
	// file's directory.
	IncludeDirs []string
	// MaxHeap is the Go heap LowerContext lets the lowering reach (0:
	// DefaultMaxHeap).
	MaxHeap int
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
		opts.Model = program.ILP32
	}
	if opts.Model != program.ILP32 && opts.Model != program.LP64 {
		return nil, program.Errorf(program.Internal, "unknown data model %q", opts.Model)
	}
	log := opts.Logger
	if log == nil {
		log = hclog.NewNullLogger()
	}
	l := newLowerer(file, opts.Model, log)
	defer func() {
		if r := recover(); r != nil {
			prog = nil
			if b, ok := r.(bailout); ok {
				err = b.err
				return
			}
			err = &program.Error{Kind: program.Internal, Pos: l.pos,
				Err: fmt.Errorf("front end panic: %v\n%s", r, debug.Stack())}
		}
	}()
	ast, err := parse(file, src, opts)
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
		// cc may write into the buffer it is given: pass a copy.
		{Name: file, Value: string(src)},
	}
	if err := checkIncludes(file, src, opts.IncludeDirs); err != nil {
		return nil, err
	}
	if err := checkNesting(cfg, sources, file, src); err != nil {
		return nil, err
	}
	ast, err := cc.Translate(cfg, sources)
	if err != nil {
		if strings.Contains(err.Error(), "*cc.LabeledStatement") {
			// cc's type checker reports a label defined twice in one
			// function without a position: find it ourselves.
			sources[2].Value = string(src)
			if e := duplicateLabel(cfg, sources); e != nil {
				return nil, e
			}
		}
		return nil, parseError(file, err)
	}
	return ast, nil
}

// duplicateLabel parses sources without type checking and returns an
// Unsupported error at the second definition of a label defined twice in
// one function, or nil. Such a file is not C (a constraint violation, C11
// 6.8.1p3, that gcc reports as an error); it is not lowered even when no
// goto names the label, because the front end does not guess what an
// invalid program means.
func duplicateLabel(cfg *cc.Config, sources []cc.Source) error {
	ast, err := cc.Parse(cfg, sources)
	if err != nil || ast == nil {
		return nil
	}
	for tu := ast.TranslationUnit; tu != nil; tu = tu.TranslationUnit {
		ext := tu.ExternalDeclaration
		if ext == nil || ext.Case != cc.ExternalDeclarationFuncDef {
			continue
		}
		fd := ext.FunctionDefinition
		seen := map[string]token.Position{}
		var found error
		var walk func(s *cc.Statement)
		var block func(cs *cc.CompoundStatement)
		block = func(cs *cc.CompoundStatement) {
			if cs == nil {
				return
			}
			for bl := cs.BlockItemList; bl != nil && found == nil; bl = bl.BlockItemList {
				if bi := bl.BlockItem; bi != nil {
					walk(bi.Statement)
				}
			}
		}
		walk = func(s *cc.Statement) {
			if s == nil || found != nil {
				return
			}
			switch s.Case {
			case cc.StatementLabeled:
				ls := s.LabeledStatement
				if ls.Case == cc.LabeledStatementLabel {
					name := ls.Token.SrcStr()
					pos := ls.Token.Position()
					if first, dup := seen[name]; dup {
						found = &program.Error{Kind: program.Unsupported, Pos: toPos(pos),
							Err: fmt.Errorf("label %s defined twice in function %s (first at %s:%d): invalid C, label names must be unique within a function "+
								"(C11 6.8.1p3; gcc: duplicate label '%s'); probably a macro that defines a label, expanded twice",
								name, fd.Declarator.Name(), first.Filename, first.Line, name)}
						return
					}
					seen[name] = pos
				}
				walk(ls.Statement)
			case cc.StatementCompound:
				block(s.CompoundStatement)
			case cc.StatementSelection:
				walk(s.SelectionStatement.Statement)
				walk(s.SelectionStatement.Statement2)
			case cc.StatementIteration:
				walk(s.IterationStatement.Statement)
			}
		}
		block(fd.CompoundStatement)
		if found != nil {
			return found
		}
	}
	return nil
}

// parseError turns a cc error list into an Unsupported error positioned at
// the first message.
// ccPos matches a position in cc's own sources in its messages.
var ccPos = regexp.MustCompile(`\s*\([A-Za-z0-9_]+\.go:\d+(:[A-Za-z0-9_.]*)*:?\)`)

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
		pos.Line = line
		if j := strings.Index(rest, ": "); j >= 0 {
			first = strings.TrimSpace(rest[j+2:])
		}
	}
	// cc appends its own source position, "(check.go:5317:check:)": not
	// the input's, so not the user's business
	first = strings.TrimSpace(ccPos.ReplaceAllString(first, ""))
	return &program.Error{Kind: program.Unsupported, Pos: pos, Err: fmt.Errorf("C parse error: %s", first)}
}

// bailout carries an error out of the lowering through panic/recover.
type bailout struct{ err error }
