package loop

// Test hooks, for the tests of package loop_test.

// WithoutLimit leaves out the generalisation's search on the program
// itself, so that ddmin runs on loop-free programs too.
func WithoutLimit(o Options) Options { o.hooks.noLimit = true; return o }

// AcceptingUnproven makes the generalisation accept every candidate
// without a search: unsound, the tests' mutation check.
func AcceptingUnproven(o Options) Options { o.hooks.acceptUnproven = true; return o }
