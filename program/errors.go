package program

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
)

// ErrKind classifies errors.
type ErrKind int

const (
	Unsupported ErrKind = iota + 1 // the input uses something the backend cannot model
	Crash                          // the backend or its solver died or misbehaved
	Timeout                        // the time budget ran out
	BadOutput                      // the backend's output could not be understood
	Internal                       // an invariant of cegpv failed (e.g. a run did not replay)
	Memout                         // the memory budget ran out
	Interrupted                    // the user stopped the check (SIGINT, SIGTERM)
)

func (k ErrKind) String() string {
	switch k {
	case Unsupported:
		return "unsupported input"
	case Crash:
		return "backend crash"
	case Timeout:
		return "timeout"
	case BadOutput:
		return "bad backend output"
	case Internal:
		return "internal error"
	case Memout:
		return "out of memory"
	case Interrupted:
		return "interrupted"
	}
	return "error"
}

// Error is an error with a kind.
type Error struct {
	Kind ErrKind
	Pos  Pos // where in the input, when known
	Err  error
}

func (e *Error) Error() string {
	if e.Pos.File != "" || e.Pos.Line != 0 {
		return fmt.Sprintf("%s: %s: %v", e.Pos, e.Kind, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Kind, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error of the given kind.
func Errorf(kind ErrKind, format string, args ...any) error {
	return &Error{Kind: kind, Err: fmt.Errorf(format, args...)}
}

// KindOf returns the kind of err, Timeout for context deadline errors, or 0.
func KindOf(err error) ErrKind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return Timeout
	}
	return 0
}

// Recover turns a panic into an Internal error naming where it happened,
// so that one engine's bug makes its answer UNKNOWN instead of killing the
// process (the other engines of a race go on). Use it deferred, directly:
//
//	defer program.Recover(&err)
func Recover(err *error) {
	if r := recover(); r != nil {
		*err = PanicError(r)
	}
}

// PanicError is the Internal error for a recovered panic value:
// "internal error: panic at file:line: value", the frame that panicked (the
// first one outside the runtime).
func PanicError(r any) error {
	if e, ok := r.(*Error); ok {
		return e // a typed error raised by panic on purpose
	}
	where := "unknown place"
	pcs := make([]uintptr, 32)
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if !strings.HasPrefix(f.Function, "runtime.") && f.File != "" {
			where = fmt.Sprintf("%s:%d", filepath.Base(f.File), f.Line)
			break
		}
		if !more {
			break
		}
	}
	return &Error{Kind: Internal, Err: fmt.Errorf("panic at %s: %v", where, r)}
}
