package cli

import (
	"fmt"
	"io"
	"time"

	"cegpv.dev/cegpv/report"
)

// verifyProgress shows, below the log of `verify -v`, how long the check
// has run and how much of --timeout is left: a line redrawn every second
// on a terminal, a line every 10 s otherwise. It returns the writer for
// the log and the function that ends the status line.
func verifyProgress(stderr io.Writer, file string, timeout time.Duration) (io.Writer, func()) {
	tty := isTerminal(stderr)
	p := report.NewProgress(stderr, tty)
	every := 10 * time.Second
	if tty {
		every = time.Second
	}
	start := time.Now()
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				el := time.Since(start).Round(time.Second)
				s := fmt.Sprintf("cegpv verify %s: %s elapsed", file, el)
				if timeout > 0 {
					s += fmt.Sprintf(", %s left of --timeout %s", max(0, timeout-el).Round(time.Second), timeout)
				}
				p.Set(s)
			}
		}
	}()
	return p.Writer(), func() {
		close(done)
		<-finished
		p.Done()
	}
}
