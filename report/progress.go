package report

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Progress shows the state of a long run. On a terminal it is one status
// line redrawn in place (carriage return, erase to the end of the line);
// elsewhere (a file, a pipe) every status is a line of its own. Lines
// printed with Print, and the log lines written through Writer, stay: on
// a terminal the status line is erased before them and drawn again after.
// Progress is safe for concurrent use.
type Progress struct {
	mu     sync.Mutex
	w      io.Writer
	tty    bool
	status string
}

// NewProgress returns a Progress writing to w; tty says whether w is a
// terminal.
func NewProgress(w io.Writer, tty bool) *Progress { return &Progress{w: w, tty: tty} }

// Set replaces the status line.
func (p *Progress) Set(status string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.status = status
	if p.tty {
		fmt.Fprintf(p.w, "\r\x1b[K%s", status)
		return
	}
	fmt.Fprintln(p.w, status)
}

// Print writes a line that stays.
func (p *Progress) Print(line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.write([]byte(strings.TrimSuffix(line, "\n") + "\n"))
}

func (p *Progress) write(b []byte) {
	if p.tty && p.status != "" {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.w.Write(b)
		fmt.Fprint(p.w, p.status)
		return
	}
	p.w.Write(b)
}

// Writer returns a writer for log output that keeps the status line
// below it.
func (p *Progress) Writer() io.Writer { return progressWriter{p} }

type progressWriter struct{ p *Progress }

func (w progressWriter) Write(b []byte) (int, error) {
	w.p.mu.Lock()
	defer w.p.mu.Unlock()
	w.p.write(b)
	return len(b), nil
}

// Done ends the status line (on a terminal, the last status stays).
func (p *Progress) Done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty && p.status != "" {
		fmt.Fprintln(p.w)
	}
	p.status = ""
}

// BenchProgress counts the finished runs of a bench and shows done/total,
// the runs answered correctly, the time elapsed and an estimate of the
// time left: the time elapsed per finished run so far (parallel jobs
// included) times the runs left.
type BenchProgress struct {
	*Progress
	mu     sync.Mutex
	total  int
	done   int
	solved int
	start  time.Time
	now    func() time.Time
}

// NewBenchProgress starts counting total runs.
func NewBenchProgress(p *Progress, total int) *BenchProgress {
	b := &BenchProgress{Progress: p, total: total, start: time.Now(), now: time.Now}
	if b.tty {
		// the status line from the start, not only once a first run ends
		b.Set(fmt.Sprintf("[0/%d] 0 correct, started", total))
	}
	return b
}

// Finish records a finished run: its Row, the line describing it (printed
// as a line of its own when not on a terminal, or when the verdict is
// wrong), and redraws the status.
func (b *BenchProgress) Finish(r Row, line string) {
	b.mu.Lock()
	b.done++
	if r.Status == "correct" {
		b.solved++
	}
	status := b.statusLocked()
	b.mu.Unlock()
	if !b.tty {
		b.Print(line + "  " + status)
		return
	}
	if strings.HasPrefix(r.Status, "incorrect") {
		b.Print(strings.ToUpper(r.Status) + " " + line)
	}
	b.Set(status + "  " + line)
}

func (b *BenchProgress) statusLocked() string {
	el := b.now().Sub(b.start)
	s := fmt.Sprintf("[%d/%d] %d correct, %s elapsed", b.done, b.total, b.solved, el.Round(time.Second))
	if b.done > 0 && b.done < b.total {
		left := time.Duration(float64(el) / float64(b.done) * float64(b.total-b.done))
		s += fmt.Sprintf(", about %s left", left.Round(time.Second))
	}
	return s
}
