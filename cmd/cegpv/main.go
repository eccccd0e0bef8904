// Command cegpv verifies concurrent C/pthreads programs by
// counter-example guided program verification. The command line is
// package cli (cegpv help lists every command; cegpv help COMMAND its
// flags).
package main

import (
	"os"

	"cegpv.dev/cegpv/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], nil)) }
