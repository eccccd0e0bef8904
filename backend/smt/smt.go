// Package smt drives an SMT-LIB2 solver process (z3 by default) over its
// standard input and output. The solver is used incrementally: declarations,
// definitions and assertions are sent as they are produced; CheckSat asks
// for satisfiability and GetValue reads model values back.
//
// The process runs in its own process group; cancelling the context given
// to Start, or calling Close, kills the whole group, and a cancelled call
// returns once the solver has been reaped. No temporary files are used.
// Solver failures are *program.Error values of kind Crash; a context
// deadline is kind Timeout. What differs between solvers (Yices's
// set-logic, unsat assumptions rather than cores) follows the solver's own
// answer to (get-info :name), else its program's name.
package smt

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"cegpv.dev/cegpv/internal/proc"
	"cegpv.dev/cegpv/program"
	"github.com/hashicorp/go-hclog"
)

// DefaultArgv is the command started when Start is given no argv: z3 with
// a hard memory limit (MiB), so that one check stays under 2 GiB with cegpv
// itself; hitting it is an error of kind Memout.
var DefaultArgv = []string{"z3", "-in", "-smt2", "-memory:1700"}

// Result is the answer of CheckSat.
type Result int

const (
	Unknown Result = iota
	Sat
	Unsat
)

func (r Result) String() string { return [...]string{"unknown", "sat", "unsat"}[r] }

// Stats count what was sent to the solver.
type Stats struct {
	BytesSent  int
	Assertions int
	Decls      int
	Checks     int
	SolverTime time.Duration // time spent waiting for check-sat answers
}

// Solver is a running SMT-LIB2 solver process.
type Solver struct {
	ctx    context.Context
	cmd    *exec.Cmd
	argv   []string
	stdin  io.WriteCloser
	out    *bufio.Reader
	w      *bufio.Writer
	stderr *bytes.Buffer
	log    hclog.Logger

	mu         sync.Mutex
	closed     bool
	stats      Stats
	transcript *strings.Builder
	reason     string // reason of the last unknown
	waitErr    error
	waited     chan struct{}
	dialect    dialect
	logicSent  bool
	assuming   bool // the last check was check-sat-assuming
}

// Start starts the solver given by argv (DefaultArgv when empty) and sets
// the options needed for models.
func Start(ctx context.Context, argv []string, logger hclog.Logger) (*Solver, error) {
	if len(argv) == 0 {
		argv = DefaultArgv
	}
	if logger == nil {
		logger = hclog.NewNullLogger()
	}
	cmd := proc.Command(ctx, argv[0], argv[1:]...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, program.Errorf(program.Crash, "solver %s: %v", argv[0], err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, program.Errorf(program.Crash, "solver %s: %v", argv[0], err)
	}
	stderr := &bytes.Buffer{}
	cmd.Stderr = &lockedWriter{w: stderr}
	wait, err := proc.Start(ctx, cmd)
	if err != nil {
		return nil, program.Errorf(program.Crash, "starting solver %s: %v", argv[0], err)
	}
	s := &Solver{ctx: ctx, cmd: cmd, argv: argv, stdin: stdin, out: bufio.NewReaderSize(stdout, 1<<16),
		w: bufio.NewWriterSize(stdin, 1<<16), stderr: stderr, log: logger, waited: make(chan struct{}), dialect: dialectOf(argv)}
	go func() {
		s.waitErr = wait()
		close(s.waited)
	}()
	logger.Debug("solver started", "argv", strings.Join(argv, " "), "pid", cmd.Process.Pid)
	if err := s.Send("(set-option :print-success false)\n(set-option :produce-models true)\n"); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.identify(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

type lockedWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.w.Len() > 1<<16 {
		return len(p), nil
	}
	return l.w.Write(p)
}

// identify asks the solver its name (get-info :name, which z3, Yices and
// cvc5 answer) and takes the dialect of the solver it names, so that a
// wrapper script or a renamed binary is driven as the solver it runs; an
// answer without a known name keeps the dialect of the program's name.
// (Written past Send: it is no command that needs the logic first.)
func (s *Solver) identify() error {
	if _, err := s.w.WriteString("(get-info :name)\n"); err != nil {
		return s.failure(err)
	}
	if err := s.flush(); err != nil {
		return err
	}
	x, err := s.readSexp()
	if err != nil {
		return err
	}
	if d, ok := dialectNamed(x.String()); ok {
		s.dialect = d
	}
	return nil
}

// Pid returns the process id of the solver.
func (s *Solver) Pid() int { return s.cmd.Process.Pid }

// KeepTranscript makes the solver record everything sent to it.
func (s *Solver) KeepTranscript() {
	if s.transcript == nil {
		s.transcript = &strings.Builder{}
	}
}

// Transcript returns the text sent so far (empty unless KeepTranscript was called).
func (s *Solver) Transcript() string {
	if s.transcript == nil {
		return ""
	}
	return s.transcript.String()
}

// Stats returns counters of what was sent.
func (s *Solver) Stats() Stats { return s.stats }

// Send writes raw SMT-LIB2 text. It is buffered until the next query.
func (s *Solver) Send(text string) error {
	if s.closed {
		return program.Errorf(program.Crash, "solver already closed")
	}
	if !s.logicSent && !strings.HasPrefix(text, "(set-option") {
		s.logicSent = true
		if s.dialect.logic != "" {
			text = "(set-logic " + s.dialect.logic + ")\n" + text
		}
	}
	s.stats.BytesSent += len(text)
	if s.transcript != nil {
		s.transcript.WriteString(text)
	}
	if _, err := s.w.WriteString(text); err != nil {
		return s.failure(err)
	}
	return nil
}

// Declare declares a constant of the given sort, e.g. "(_ BitVec 32)" or "Bool".
func (s *Solver) Declare(name, sort string) error {
	s.stats.Decls++
	return s.Send("(declare-fun " + name + " () " + sort + ")\n")
}

// Define defines a named term.
func (s *Solver) Define(name, sort, body string) error {
	s.stats.Decls++
	return s.Send("(define-fun " + name + " () " + sort + " " + body + ")\n")
}

// Assert asserts a Bool term.
func (s *Solver) Assert(term string) error {
	s.stats.Assertions++
	return s.Send("(assert " + term + ")\n")
}

// Push opens a backtracking point.
func (s *Solver) Push() error { return s.Send("(push 1)\n") }

// Pop removes the assertions since the matching Push.
func (s *Solver) Pop() error { return s.Send("(pop 1)\n") }

// ReasonUnknown returns the solver's reason for the last unknown answer.
func (s *Solver) ReasonUnknown() string { return s.reason }

// CheckSat asks for satisfiability of the current assertions. For Unknown
// the reason is available from ReasonUnknown.
func (s *Solver) CheckSat() (Result, error) {
	s.assuming = false
	return s.checkSat("(check-sat)\n")
}

// CheckSatAssuming asks for satisfiability of the current assertions with
// the Boolean constants lits assumed true; after Unsat, UnsatCore returns a
// subset of lits that is unsatisfiable with the assertions (the solver must
// have been started with cores, see EnableCores).
func (s *Solver) CheckSatAssuming(lits []string) (Result, error) {
	s.assuming = true
	return s.checkSat("(check-sat-assuming (" + strings.Join(lits, " ") + "))\n")
}

// EnableCores asks the solver to produce unsat cores; it must be called
// before the first assertion.
func (s *Solver) EnableCores() error {
	if s.dialect.assumptions {
		return s.Send("(set-option :produce-unsat-assumptions true)\n")
	}
	return s.Send("(set-option :produce-unsat-cores true)\n")
}

// UnsatCore returns the assumptions of the last CheckSatAssuming that the
// solver found unsatisfiable together (after Unsat).
func (s *Solver) UnsatCore() ([]string, error) {
	cmd := "(get-unsat-core)\n"
	if s.dialect.assumptions {
		if !s.assuming {
			// unsat without assumptions: the empty core (yices refuses
			// the question after a plain check-sat)
			return nil, nil
		}
		cmd = "(get-unsat-assumptions)\n"
	}
	sx, err := s.ask(cmd)
	if err != nil {
		return nil, err
	}
	if sx.atom != "" || (len(sx.list) > 0 && sx.list[0].atom == "error") {
		return nil, s.solverError(sx)
	}
	out := make([]string, 0, len(sx.list))
	for _, x := range sx.list {
		if x.atom == "" {
			return nil, s.solverError(sx)
		}
		out = append(out, x.atom)
	}
	return out, nil
}

// ask sends a command and reads its answer.
func (s *Solver) ask(cmd string) (*sexp, error) {
	if err := s.Send(cmd); err != nil {
		return nil, err
	}
	if err := s.flush(); err != nil {
		return nil, err
	}
	return s.readSexp()
}

func (s *Solver) checkSat(cmd string) (Result, error) {
	s.stats.Checks++
	start := time.Now()
	defer func() { s.stats.SolverTime += time.Since(start) }()
	sx, err := s.ask(cmd)
	if err != nil {
		return Unknown, err
	}
	s.log.Trace("checked", "answer", sx.atom, "time", time.Since(start))
	switch sx.atom {
	case "sat":
		return Sat, nil
	case "unsat":
		return Unsat, nil
	case "unknown":
		s.reason = "unknown"
		if err := s.Send("(get-info :reason-unknown)\n"); err == nil && s.flush() == nil {
			if r, err := s.readSexp(); err == nil {
				s.reason = strings.Trim(r.String(), "()")
				s.reason = strings.TrimSpace(strings.TrimPrefix(s.reason, ":reason-unknown"))
				s.reason = strings.Trim(s.reason, "\"")
			}
		}
		return Unknown, nil
	}
	return Unknown, s.solverError(sx)
}

// Value is a model value: a bit-vector (Bits, Width), a Bool, or an Int.
type Value struct {
	Width int // bit-vector width; 0 for Bool and Int
	Bool  bool
	Int   *big.Int // the bit-vector's unsigned value, or the integer
}

// Uint64 returns the value's low 64 bits.
func (v Value) Uint64() uint64 {
	if v.Int == nil {
		if v.Bool {
			return 1
		}
		return 0
	}
	if v.Int.Sign() < 0 {
		return uint64(v.Int.Int64())
	}
	return new(big.Int).And(v.Int, new(big.Int).SetUint64(^uint64(0))).Uint64()
}

// GetValue returns the model values of the given terms (after Sat).
func (s *Solver) GetValue(terms []string) ([]Value, error) {
	out := make([]Value, 0, len(terms))
	const chunk = 512
	for i := 0; i < len(terms); i += chunk {
		j := min(i+chunk, len(terms))
		if err := s.Send("(get-value (" + strings.Join(terms[i:j], " ") + "))\n"); err != nil {
			return nil, err
		}
		if err := s.flush(); err != nil {
			return nil, err
		}
		sx, err := s.readSexp()
		if err != nil {
			return nil, err
		}
		if sx.atom != "" || len(sx.list) != j-i {
			return nil, s.solverError(sx)
		}
		for _, pair := range sx.list {
			if len(pair.list) != 2 {
				return nil, program.Errorf(program.BadOutput, "solver %s: bad get-value pair %s", s.argv[0], pair)
			}
			v, err := parseValue(pair.list[1])
			if err != nil {
				return nil, program.Errorf(program.BadOutput, "solver %s: %v", s.argv[0], err)
			}
			out = append(out, v)
		}
	}
	return out, nil
}

func parseValue(x *sexp) (Value, error) {
	switch {
	case x.atom == "true":
		return Value{Bool: true}, nil
	case x.atom == "false":
		return Value{}, nil
	case strings.HasPrefix(x.atom, "#b"):
		n, ok := new(big.Int).SetString(x.atom[2:], 2)
		if !ok {
			return Value{}, fmt.Errorf("bad value %s", x.atom)
		}
		return Value{Width: len(x.atom) - 2, Int: n}, nil
	case strings.HasPrefix(x.atom, "#x"):
		n, ok := new(big.Int).SetString(x.atom[2:], 16)
		if !ok {
			return Value{}, fmt.Errorf("bad value %s", x.atom)
		}
		return Value{Width: 4 * (len(x.atom) - 2), Int: n}, nil
	case x.atom != "":
		n, ok := new(big.Int).SetString(x.atom, 10)
		if !ok {
			return Value{}, fmt.Errorf("bad value %s", x.atom)
		}
		return Value{Int: n}, nil
	case len(x.list) == 3 && x.list[0].atom == "_" && strings.HasPrefix(x.list[1].atom, "bv"):
		n, ok := new(big.Int).SetString(x.list[1].atom[2:], 10)
		var w int
		if _, err := fmt.Sscan(x.list[2].atom, &w); !ok || err != nil {
			return Value{}, fmt.Errorf("bad value %s", x)
		}
		return Value{Width: w, Int: n}, nil
	case len(x.list) == 2 && x.list[0].atom == "-":
		v, err := parseValue(x.list[1])
		if err != nil || v.Int == nil {
			return Value{}, fmt.Errorf("bad value %s", x)
		}
		v.Int.Neg(v.Int)
		return v, nil
	}
	return Value{}, fmt.Errorf("cannot parse value %s", x)
}

// Close ends the solver process and waits for it.
func (s *Solver) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	s.w.WriteString("(exit)\n")
	s.w.Flush()
	s.stdin.Close()
	select {
	case <-s.waited:
	case <-time.After(500 * time.Millisecond):
		syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-s.waited
	}
	return nil
}

func (s *Solver) flush() error {
	if err := s.w.Flush(); err != nil {
		return s.failure(err)
	}
	return nil
}

// failure turns an I/O error into a Crash or Timeout error.
func (s *Solver) failure(err error) error {
	if cerr := s.ctx.Err(); cerr != nil {
		// killed and waited for: no solver outlives its check, and its
		// CPU time is in its budget's clock and in cegpv's rusage (a
		// solver left to be reaped later was missing from both when
		// cegpv exited first)
		s.kill()
		<-s.waited
		if errors.Is(cerr, context.DeadlineExceeded) {
			return &program.Error{Kind: program.Timeout, Err: fmt.Errorf("solver %s: %w", s.argv[0], cerr)}
		}
		return &program.Error{Kind: program.Timeout, Err: fmt.Errorf("solver %s cancelled: %w", s.argv[0], cerr)}
	}
	s.kill()
	<-s.waited
	msg := strings.TrimSpace(s.stderrText())
	if strings.Contains(msg, "out of memory") {
		// z3 -memory:N exits this way when it reaches its limit
		return program.Errorf(program.Memout, "solver %s: %s", s.argv[0], msg)
	}
	return program.Errorf(program.Crash, "solver %s failed: %v (exit: %v) %s", s.argv[0], err, s.waitErr, msg)
}

func (s *Solver) kill() {
	if !s.closed {
		s.closed = true
		syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		s.stdin.Close()
	}
}

func (s *Solver) stderrText() string {
	lw := s.cmd.Stderr.(*lockedWriter)
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return lw.w.String()
}

func (s *Solver) solverError(sx *sexp) error {
	msg := sx.String()
	if len(sx.list) == 2 && sx.list[0].atom == "error" {
		msg = sx.list[1].atom
	}
	if strings.Contains(msg, "out of memory") {
		return program.Errorf(program.Memout, "solver %s: %s", s.argv[0], msg)
	}
	return program.Errorf(program.Crash, "solver %s: unexpected answer: %s", s.argv[0], msg)
}

// sexp is a parsed s-expression: an atom or a list.
type sexp struct {
	atom string
	list []*sexp
}

func (x *sexp) String() string {
	if x.list == nil {
		return x.atom
	}
	parts := make([]string, len(x.list))
	for i, c := range x.list {
		parts[i] = c.String()
	}
	return "(" + strings.Join(parts, " ") + ")"
}

// readSexp reads one s-expression from the solver, watching the context.
func (s *Solver) readSexp() (*sexp, error) {
	type res struct {
		x   *sexp
		err error
	}
	ch := make(chan res, 1)
	go func() {
		x, err := parseSexp(s.out)
		ch <- res{x, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			return nil, s.failure(r.err)
		}
		return r.x, nil
	case <-s.ctx.Done():
		s.kill()
		<-ch
		return nil, s.failure(s.ctx.Err())
	}
}

func parseSexp(r *bufio.Reader) (*sexp, error) {
	// skip white space
	var c byte
	var err error
	for {
		c, err = r.ReadByte()
		if err != nil {
			return nil, err
		}
		if c != ' ' && c != '\n' && c != '\t' && c != '\r' {
			break
		}
	}
	switch c {
	case '(':
		x := &sexp{list: []*sexp{}}
		for {
			for {
				c, err = r.ReadByte()
				if err != nil {
					return nil, err
				}
				if c != ' ' && c != '\n' && c != '\t' && c != '\r' {
					break
				}
			}
			if c == ')' {
				return x, nil
			}
			r.UnreadByte()
			child, err := parseSexp(r)
			if err != nil {
				return nil, err
			}
			x.list = append(x.list, child)
		}
	case ')':
		return nil, fmt.Errorf("unexpected )")
	case '"':
		var b strings.Builder
		b.WriteByte('"')
		for {
			c, err = r.ReadByte()
			if err != nil {
				return nil, err
			}
			b.WriteByte(c)
			if c == '"' {
				if n, err := r.Peek(1); err == nil && n[0] == '"' {
					r.ReadByte()
					b.WriteByte('"')
					continue
				}
				break
			}
		}
		return &sexp{atom: b.String()}, nil
	case '|':
		var b strings.Builder
		b.WriteByte('|')
		for {
			c, err = r.ReadByte()
			if err != nil {
				return nil, err
			}
			b.WriteByte(c)
			if c == '|' {
				break
			}
		}
		return &sexp{atom: b.String()}, nil
	}
	var b strings.Builder
	b.WriteByte(c)
	for {
		c, err = r.ReadByte()
		if err != nil {
			if err == io.EOF && b.Len() > 0 {
				return &sexp{atom: b.String()}, nil
			}
			return nil, err
		}
		if c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '(' || c == ')' {
			r.UnreadByte()
			return &sexp{atom: b.String()}, nil
		}
		b.WriteByte(c)
	}
}
