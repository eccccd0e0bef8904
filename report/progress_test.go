package report

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// On a terminal the status is one line redrawn in place, and lines
// printed (a wrong verdict, log lines) go above it; elsewhere every status
// is a line of its own.
func TestProgress(t *testing.T) {
	var tty, plain bytes.Buffer
	for _, c := range []struct {
		buf *bytes.Buffer
		tty bool
	}{{&tty, true}, {&plain, false}} {
		b := NewBenchProgress(NewProgress(c.buf, c.tty), 3)
		t0 := b.start
		b.now = func() time.Time { return t0.Add(10 * time.Second) }
		b.Finish(Row{Status: "correct"}, "plain TRUE a.c")
		b.Progress.Writer().Write([]byte("log line\n"))
		b.Finish(Row{Status: "incorrect false"}, "plain FALSE b.c")
		b.Done()
	}
	// the status line shows from the start
	wantTTY := "\r\x1b[K[0/3] 0 correct, started" +
		"\r\x1b[K[1/3] 1 correct, 10s elapsed, about 20s left  plain TRUE a.c" +
		"\r\x1b[Klog line\n[1/3] 1 correct, 10s elapsed, about 20s left  plain TRUE a.c" +
		"\r\x1b[KINCORRECT FALSE plain FALSE b.c\n[1/3] 1 correct, 10s elapsed, about 20s left  plain TRUE a.c" +
		"\r\x1b[K[2/3] 1 correct, 10s elapsed, about 5s left  plain FALSE b.c\n"
	if tty.String() != wantTTY {
		t.Errorf("terminal output %q\nwant %q", tty.String(), wantTTY)
	}
	wantPlain := "plain TRUE a.c  [1/3] 1 correct, 10s elapsed, about 20s left\nlog line\nplain FALSE b.c  [2/3] 1 correct, 10s elapsed, about 5s left\n"
	if plain.String() != wantPlain {
		t.Errorf("plain output %q\nwant %q", plain.String(), wantPlain)
	}
	if strings.Contains(plain.String(), "\r") {
		t.Error("carriage return in plain output")
	}
}
