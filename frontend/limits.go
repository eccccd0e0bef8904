package frontend

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"modernc.org/cc/v4"

	"cegpv.dev/cegpv/internal/heap"
	"cegpv.dev/cegpv/program"
)

// Limits of the front end. No input may crash the process, hang past its
// time limit or take unbounded memory: each limit below ends the lowering
// with an error that names it.
const (
	// MaxNesting bounds the nesting of (), [] and {} after preprocessing
	// (clang's -fbracket-depth default is 256; the C parser recurses once
	// per level, and 100,000 levels overflow the Go stack, which no
	// recover catches).
	MaxNesting = 256
	// MaxIncludes bounds the nesting of quoted #include directives (gcc
	// stops at 200).
	MaxIncludes = 200
	// ExpansionLimit bounds the work of macro expansion, in tokens
	// (cc.Config.ExpansionLimit): a macro that expands to 2^25 copies of
	// itself ends with an error instead of taking all memory. The largest
	// SV-COMP 2015 task needs less than a hundredth of it.
	ExpansionLimit = 1 << 24
	// DefaultMaxHeap is the Go heap the lowering may reach before it is
	// abandoned (Options.MaxHeap 0).
	DefaultMaxHeap = 1 << 30
	// maxIncludeSize bounds a file named by #include "..." (a device such
	// as /dev/zero would be read forever).
	maxIncludeSize = 64 << 20
)

// LowerContext is Lower that obeys ctx (a time limit, a signal) and a
// memory budget (Options.MaxHeap): when either ends first it returns at
// once with a Timeout, Interrupted or Memout error. The C parser cannot
// be stopped from outside, so the abandoned parse goes on in its goroutine
// until it ends (cmd/cegpv exits right after printing the verdict).
func LowerContext(ctx context.Context, file string, src []byte, opts Options) (*program.Program, error) {
	type result struct {
		p   *program.Program
		err error
	}
	done := make(chan result, 1)
	go func() {
		p, err := Lower(file, src, opts)
		done <- result{p, err}
	}()
	budget := opts.MaxHeap
	if budget == 0 {
		budget = DefaultMaxHeap
	}
	base := heap.Bytes()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case r := <-done:
			return r.p, r.err
		case <-ctx.Done():
			kind := program.Timeout
			if errors.Is(ctx.Err(), context.Canceled) {
				kind = program.Interrupted
			}
			return nil, &program.Error{Kind: kind, Pos: program.Pos{File: file}, Err: fmt.Errorf("front end stopped: %v", context.Cause(ctx))}
		case <-tick.C:
			if h := heap.Bytes(); h > base && h-base > uint64(budget) {
				return nil, program.Errorf(program.Memout, "%s: the front end needs more than %d MiB", file, budget>>20)
			}
		}
	}
}

// checkNesting preprocesses sources and fails when brackets nest deeper
// than MaxNesting, naming the first source line where they do (or the
// file, when a macro builds the nesting).
func checkNesting(cfg *cc.Config, sources []cc.Source, file string, src []byte) error {
	w := &nestingWriter{}
	err := cc.Preprocess(cfg, sources, w)
	if w.deep {
		pos := program.Pos{File: file}
		d := &nestingWriter{}
		d.Write(src)
		if d.deep {
			pos.Line = 1 + strings.Count(string(src[:d.at]), "\n")
		}
		return &program.Error{Kind: program.Unsupported, Pos: pos, Err: fmt.Errorf("brackets nested more than %d deep", MaxNesting)}
	}
	if err != nil {
		return parseError(file, err)
	}
	return nil
}

// nestingWriter counts the nesting of (), [] and {} in C text outside
// string and character constants (comments are gone after preprocessing;
// in raw source they only make the reported line an estimate).
type nestingWriter struct {
	depth  int
	quote  byte // inside a string or character constant
	escape bool
	n      int // bytes seen
	deep   bool
	at     int // offset where the nesting passed MaxNesting
}

var errDeep = errors.New("brackets nested too deep")

func (w *nestingWriter) Write(b []byte) (int, error) {
	if w.deep {
		return 0, errDeep
	}
	for i, c := range b {
		switch {
		case w.quote != 0:
			switch {
			case w.escape:
				w.escape = false
			case c == '\\':
				w.escape = true
			case c == w.quote, c == '\n':
				w.quote = 0
			}
		case c == '"' || c == '\'':
			w.quote = c
		case c == '(' || c == '[' || c == '{':
			w.depth++
			if w.depth > MaxNesting {
				w.deep, w.at = true, w.n+i
				return 0, errDeep
			}
		case c == ')' || c == ']' || c == '}':
			if w.depth > 0 {
				w.depth--
			}
		}
	}
	w.n += len(b)
	return len(b), nil
}

// includeRe matches a quoted #include line.
var includeRe = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*include[ \t]*"([^"]+)"`)

// guardRe matches what makes a header safe to include again: #pragma once
// or an #ifndef/#if !defined guard as its first directive.
var guardRe = regexp.MustCompile(`(?m)\A(?:\s|//[^\n]*\n|/\*(?:[^*]|\*+[^*/])*\*+/)*#[ \t]*(?:ifndef|if[ \t]*!defined)|^[ \t]*#[ \t]*pragma[ \t]+once`)

// checkIncludes follows the quoted #include directives of src (file) and
// of the files they name, as the preprocessor would find them, and
// rejects a cycle through a file without an include guard: the
// preprocessor (cc/v4, which caches each file) would recurse until memory
// ends instead of stopping at gcc's 200 nested includes. Conditional
// directives are not evaluated, so a guarded cycle is left to the
// preprocessor, whose guard ends it.
func checkIncludes(file string, src []byte, includeDirs []string) error {
	onStack := map[string]bool{}
	done := map[string]bool{}
	var visit func(path string, text []byte, depth int) error
	visit = func(path string, text []byte, depth int) error {
		if depth > MaxIncludes {
			return &program.Error{Kind: program.Unsupported, Pos: program.Pos{File: path},
				Err: fmt.Errorf("#include nested more than %d deep", MaxIncludes)}
		}
		onStack[path] = true
		defer func() { onStack[path] = false; done[path] = true }()
		guarded := guardRe.Match(text)
		for _, m := range includeRe.FindAllSubmatchIndex(text, -1) {
			name := string(text[m[2]:m[3]])
			line := 1 + bytes.Count(text[:m[0]], []byte("\n"))
			dirs := append([]string{filepath.Dir(path)}, includeDirs...)
			for _, d := range dirs {
				cand := filepath.Clean(filepath.Join(d, name))
				if filepath.IsAbs(name) {
					cand = filepath.Clean(name)
				}
				if onStack[cand] {
					if guarded {
						break
					}
					return &program.Error{Kind: program.Unsupported, Pos: program.Pos{File: path, Line: line},
						Err: fmt.Errorf("#include %q: an include cycle through a file without an include guard (it would expand forever)", name)}
				}
				if done[cand] {
					break
				}
				st, err := os.Stat(cand)
				if err != nil {
					continue // not here: the next directory, or the preprocessor's error
				}
				if !st.Mode().IsRegular() || st.Size() > maxIncludeSize {
					return &program.Error{Kind: program.Unsupported, Pos: program.Pos{File: path, Line: line},
						Err: fmt.Errorf("#include %q: not a regular file of at most %d MiB", name, maxIncludeSize>>20)}
				}
				b, err := os.ReadFile(cand)
				if err != nil {
					continue
				}
				if err := visit(cand, b, depth+1); err != nil {
					return err
				}
				break
			}
		}
		return nil
	}
	return visit(filepath.Clean(file), src, 0)
}
