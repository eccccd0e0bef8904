package backend

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"cegpv.dev/cegpv/program"
)

// Dumped returns be writing every program it is asked about into dir, in
// the order of the checks: check-N.c (the input as the checker read it,
// Result.Input, else the program printed) and check-N.log (the bounds,
// the verdict and the backend's output), so that `--dump` shows what the
// backend was given and said in every mode, plain too. An incremental
// backend stays incremental (its instances are not dumped: the CEGPV
// loop dumps its programs itself). A file that cannot be written is
// reported to warn and does not change the check.
func Dumped(be Backend, dir string, warn func(error)) Backend {
	d := &dumped{Backend: be, dir: dir, warn: warn}
	return Wrap(be, d.Check)
}

type dumped struct {
	Backend
	dir  string
	warn func(error)
	mu   sync.Mutex
	n    int
}

func (d *dumped) Check(ctx context.Context, p *program.Program, b Bounds) (Result, error) {
	res, err := d.Backend.Check(ctx, p, b)
	d.mu.Lock()
	d.n++
	n := d.n
	d.mu.Unlock()
	in := []byte(res.Input)
	if len(in) == 0 {
		var buf bytes.Buffer
		if _, perr := program.Print(&buf, p); perr != nil {
			fmt.Fprintf(&buf, "/* cannot print the program: %v */\n", perr)
		}
		in = buf.Bytes()
	}
	var log bytes.Buffer
	fmt.Fprintf(&log, "backend %s, bounds %s\nverdict %s %s\n", d.Backend.Name(), b, res.Verdict, res.Reason)
	if err != nil {
		fmt.Fprintf(&log, "error: %v\n", err)
	}
	fmt.Fprintf(&log, "\n%s", res.Log)
	base := filepath.Join(d.dir, fmt.Sprintf("check-%d", n))
	if werr := os.MkdirAll(d.dir, 0o755); werr != nil {
		d.warn(werr)
	} else if werr := os.WriteFile(base+".c", in, 0o644); werr != nil {
		d.warn(werr)
	} else if werr := os.WriteFile(base+".log", log.Bytes(), 0o644); werr != nil {
		d.warn(werr)
	}
	return res, err
}
