package external

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"cegpv.dev/cegpv/internal/proc"
	"cegpv.dev/cegpv/program"
)

// Printed is a program printed for a checker, in a temporary directory.
type Printed struct {
	Dir   string          // the temporary directory (removed by Remove)
	File  string          // the C file, inside Dir
	Lines program.LineMap // line -> label, as returned by program.Print
	// Probes maps a line to its probe variables, in text order (see the
	// package documentation); "" for an occurrence left unprobed.
	Probes map[int][]string
	// Switch holds the lines of multi-target gotos whose last probe is the
	// selector of the printed switch.
	Switch map[int]bool
	// Reads holds the lines of guarded gotos whose guard is printed with a
	// read probe (see readProbes).
	Reads map[int]bool
	Text  []byte
}

// Remove deletes the temporary directory.
func (pr *Printed) Remove() error {
	if pr == nil || pr.Dir == "" {
		return nil
	}
	return proc.RemoveTemp(pr.Dir)
}

var (
	nondetCall  = regexp.MustCompile(`__VERIFIER_nondet_[A-Za-z0-9_]+\(\)`)
	nondetProto = regexp.MustCompile(`^(?:extern\s+)?(.*?)\s*\b(__VERIFIER_nondet_[A-Za-z0-9_]+)\(void\);\s*$`)
)

// PrintOptions adapt the printed text to a checker.
type PrintOptions struct {
	// InlineAtomic prints the body of each atomic function (Func.Atomic)
	// between __VERIFIER_atomic_begin() (on its opening brace's line) and
	// __VERIFIER_atomic_end() (before each return, on its line, and on the
	// closing brace's line) and renames it __cegpv_atomic_*, so that a
	// checker's own treatment of __VERIFIER_atomic_* functions does not
	// apply (ESBMC 8.4 misses interleavings between two calls of such
	// functions; see package esbmc). Lines do not move.
	InlineAtomic bool
}

// Print prints p with program.Print into a new temporary directory (in
// tmpDir, "" for the system's) as name, with probes on its nondeterministic
// values.
func Print(p *program.Program, tmpDir, name string, opts PrintOptions) (*Printed, error) {
	var buf bytes.Buffer
	lm, err := program.Print(&buf, p)
	if err != nil {
		return nil, err
	}
	text, probes, sw := addProbes(p, buf.Bytes(), lm)
	text, reads := readProbes(p, text, lm, probes)
	text = handles(p, text, lm)
	if opts.InlineAtomic {
		if text, err = inlineAtomic(p, text, lm); err != nil {
			return nil, err
		}
	}
	dir, err := proc.TempDir(tmpDir, "cegpv-ext-")
	if err != nil {
		return nil, program.Errorf(program.Internal, "temporary directory: %v", err)
	}
	pr := &Printed{Dir: dir, File: filepath.Join(dir, name), Lines: lm, Probes: probes, Switch: sw, Reads: reads, Text: text}
	if err := os.WriteFile(pr.File, text, 0o644); err != nil {
		pr.Remove()
		return nil, program.Errorf(program.Internal, "writing %s: %v", pr.File, err)
	}
	return pr, nil
}

// ReadName is the read probe of the guarded goto on a line.
func ReadName(line int) string { return fmt.Sprintf("__cegpv_rd_%d", line) }

// readProbes prints the guard of every guarded single-target goto that
// reads shared memory (a global, a local whose address is taken, or
// through a pointer), in a program with threads, as an assignment to a
// read probe: `if ((__cegpv_rd_<line> = (c))) goto L;`, the probe an int
// local of the function declared on its opening brace's line. A checker's
// trace shows no read, only stores; the probe's state shows when the
// guard was evaluated (after which writes of other threads), which the
// trace follower needs to place the branch in the interleaving (ESBMC on
// user_lock_param_unsafe.c: a check of count >= 0 made while another
// thread had count at -1, placed by the follower at the thread's next
// state, after count was back at 0, could not be followed). Lines with
// nondet probes keep theirs only (their states place the branch already).
// Lines do not move.
func readProbes(p *program.Program, text []byte, lm program.LineMap, probes map[int][]string) ([]byte, map[int]bool) {
	reads := map[int]bool{}
	if !p.Spawns() {
		return text, reads
	}
	lines := strings.Split(string(text), "\n")
	ix := program.NewIndex(p)
	decls := map[int][]string{}
	for _, line := range lm.Lines() {
		l := lm[line]
		in, f := ix.Instr[l], ix.Func[l]
		if in == nil || f == nil || in.Op != program.OpGoto || in.Rhs == nil || len(in.Targets) != 1 ||
			len(probes[line]) > 0 || program.HasNondet(in.Rhs) || line < 1 || line > len(lines) || !program.SharedAccess(f, in.Rhs, false) {
			continue
		}
		src := lines[line-1]
		i, j := strings.Index(src, "if ("), strings.LastIndex(src, ") goto ")
		if i < 0 || j < i+4 || !strings.HasSuffix(src, ";") {
			continue
		}
		brace := openingBrace(lines, line)
		if brace < 1 {
			continue
		}
		v := ReadName(line)
		lines[line-1] = src[:i] + "if ((" + v + " = (" + src[i+4:j] + ")))" + src[j+1:]
		decls[brace] = append(decls[brace], "int "+v+";")
		reads[line] = true
	}
	declare(lines, decls)
	return []byte(strings.Join(lines, "\n")), reads
}

// openingBrace returns the line of the opening brace of the function
// whose body holds line (program.Print puts it alone at column 0, where a
// printer step may have appended declarations), or 0.
func openingBrace(lines []string, line int) int {
	brace := line - 1
	for brace >= 1 && !strings.HasPrefix(lines[brace-1], "{") {
		brace--
	}
	return brace
}

// declare appends to each opening-brace line of decls its declarations,
// in order: no line moves.
func declare(lines []string, decls map[int][]string) {
	for brace, ds := range decls {
		lines[brace-1] += " " + strings.Join(ds, " ")
	}
}

// ProbeName is the probe variable of the k-th nondet call on a line.
func ProbeName(line, k int) string { return fmt.Sprintf("__cegpv_nd_%d_%d", line, k) }

// addProbes rewrites the printed text (see the package documentation).
// A line is probed only when its nondet calls are exactly its
// instruction's scalar Nondet operands (plus the selector of a
// multi-target goto), each of a known C return type.
func addProbes(p *program.Program, text []byte, lm program.LineMap) ([]byte, map[int][]string, map[int]bool) {
	lines := strings.Split(string(text), "\n")
	ret := map[string]string{}
	for _, l := range lines {
		if m := nondetProto.FindStringSubmatch(l); m != nil {
			ret[m[2]] = m[1]
		}
	}
	if _, ok := ret["__VERIFIER_nondet_int"]; !ok {
		ret["__VERIFIER_nondet_int"] = "int"
	}
	ix := program.NewIndex(p)
	probes := map[int][]string{}
	sw := map[int]bool{}
	decls := map[int][]string{} // opening-brace line -> declarations
	for _, line := range lm.Lines() {
		in := ix.Instr[lm[line]]
		if in == nil || line < 1 || line > len(lines) {
			continue
		}
		n := 0
		for _, e := range in.Operands() {
			program.Walk(e, func(x program.Expr) bool {
				if _, ok := x.(*program.Nondet); ok {
					n++
				}
				return true
			})
		}
		multi := in.Op == program.OpGoto && len(in.Targets) > 1
		want := n
		if multi {
			want++
		}
		src := lines[line-1]
		locs := nondetCall.FindAllStringIndex(src, -1)
		if want == 0 || len(locs) != want {
			continue
		}
		var names []string
		ok := true
		for _, loc := range locs {
			fn := strings.TrimSuffix(src[loc[0]:loc[1]], "()")
			t := ret[fn]
			if t == "" || strings.ContainsAny(t, "*[") || strings.Contains(t, "struct") || strings.Contains(t, "union") {
				ok = false
				break
			}
			names = append(names, t)
		}
		if !ok {
			continue
		}
		brace := openingBrace(lines, line)
		if brace < 1 {
			continue
		}
		var b strings.Builder
		last := 0
		var vars []string
		for k, loc := range locs {
			v := ProbeName(line, k)
			vars = append(vars, v)
			decls[brace] = append(decls[brace], names[k]+" "+v+";")
			b.WriteString(src[last:loc[0]])
			b.WriteString("(" + v + " = " + src[loc[0]:loc[1]] + ")")
			last = loc[1]
		}
		b.WriteString(src[last:])
		lines[line-1] = b.String()
		probes[line] = vars
		if multi {
			sw[line] = true
		}
	}
	declare(lines, decls)
	return []byte(strings.Join(lines, "\n")), probes, sw
}

var atomicName = regexp.MustCompile(`\b__VERIFIER_atomic_[A-Za-z0-9_]+\b`)

// inlineAtomic implements PrintOptions.InlineAtomic.
func inlineAtomic(p *program.Program, text []byte, lm program.LineMap) ([]byte, error) {
	lines := strings.Split(string(text), "\n")
	ix := program.NewIndex(p)
	var order []int
	for line := range lm {
		order = append(order, line)
	}
	sort.Ints(order)
	opened := map[int]bool{}
	any := false
	for _, line := range order {
		f := ix.Func[lm[line]]
		in := ix.Instr[lm[line]]
		if f == nil || !f.Atomic || in == nil {
			continue
		}
		any = true
		brace := openingBrace(lines, line)
		if brace < 1 {
			return nil, program.Errorf(program.Internal, "printing atomic function %s: no opening brace", f.Name)
		}
		if !opened[brace] {
			opened[brace] = true
			lines[brace-1] += " __VERIFIER_atomic_begin();"
			end := brace + 1
			for end <= len(lines) && lines[end-1] != "}" {
				end++
			}
			if end > len(lines) {
				return nil, program.Errorf(program.Internal, "printing atomic function %s: no closing brace", f.Name)
			}
			lines[end-1] = "__VERIFIER_atomic_end(); }"
		}
		if in.Op == program.OpReturn {
			src := lines[line-1]
			i := strings.Index(src, "return")
			if i < 0 {
				return nil, program.Errorf(program.Internal, "printing atomic function %s: no return at line %d", f.Name, line)
			}
			pre, ret := src[:i], strings.TrimSuffix(strings.TrimSpace(src[i+len("return"):]), ";")
			if in.Rhs == nil || strings.TrimSpace(ret) == "" {
				lines[line-1] = pre + "{ __VERIFIER_atomic_end(); return; }"
			} else {
				lines[line-1] = pre + "{ " + program.TypeDecl(f.Result, "__cegpv_ret") + " = " + strings.TrimSpace(ret) + "; __VERIFIER_atomic_end(); return __cegpv_ret; }"
			}
		}
	}
	out := strings.Join(lines, "\n")
	if !any {
		return []byte(out), nil
	}
	out = atomicName.ReplaceAllStringFunc(out, func(n string) string {
		if n == "__VERIFIER_atomic_begin" || n == "__VERIFIER_atomic_end" {
			return n
		}
		return "__cegpv_atomic_" + strings.TrimPrefix(n, "__VERIFIER_atomic_")
	})
	if !strings.Contains(out, "__VERIFIER_atomic_begin(void);") {
		// on the first line (the header comment), so that no line moves
		first, rest, _ := strings.Cut(out, "\n")
		out = first + " void __VERIFIER_atomic_begin(void); void __VERIFIER_atomic_end(void);\n" + rest
	}
	return []byte(out), nil
}

// handles gives each pthread_create without a handle (printed with a null
// handle, as SV-COMP 2015's pthread-wmm tasks write it) a local handle of
// its function, declared on the line of the function's opening brace: the
// checkers' pthread_create writes through the handle (ESBMC 8.4 reports a
// NULL dereference in its pthread library otherwise). Lines do not move.
func handles(p *program.Program, text []byte, lm program.LineMap) []byte {
	lines := strings.Split(string(text), "\n")
	ix := program.NewIndex(p)
	declared := map[int]bool{}
	for line, l := range lm {
		in := ix.Instr[l]
		if in == nil || in.Op != program.OpSpawn || in.Lhs != nil || line > len(lines) {
			continue
		}
		src := lines[line-1]
		if !strings.Contains(src, "pthread_create(0, ") {
			continue
		}
		brace := openingBrace(lines, line)
		if brace < 1 {
			continue
		}
		lines[line-1] = strings.Replace(src, "pthread_create(0, ", "pthread_create(&__cegpv_handle, ", 1)
		if !declared[brace] {
			declared[brace] = true
			lines[brace-1] += " pthread_t __cegpv_handle;"
		}
	}
	return []byte(strings.Join(lines, "\n"))
}
