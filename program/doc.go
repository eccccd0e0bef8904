// Package program is the goto-program model that every stage of cegpv speaks:
// the front end produces it, the slicer, reconstruction and refinement
// translate it, backends check it and the interpreter executes it.
//
// A Program is a set of global variables, named aggregate types and functions.
// A Func is a flat list of labelled instructions (Instr). Control flow is
// explicit: an instruction falls through to the next one unless it is a Goto
// whose guard holds, a Return, or an Exit.
//
// # Invariants (checked by Check)
//
//   - Every label is unique in the whole program and has the form
//     "<func>.<n>" as produced by the front end, or any other string that
//     does not repeat; labels are stable across translations: a translation
//     keeps the label of every instruction it keeps, and gives new labels to
//     the instructions it adds (see Fresh).
//   - Goto targets name instructions of the same function.
//   - Every Ref names a variable that is in scope: a parameter or local of
//     the enclosing function, or a global. Local names are unique within their
//     function and never equal a global's name, so a name resolves without
//     scopes.
//   - Expressions are typed and already converted: operands of arithmetic and
//     comparison operators have identical types (the front end inserts the C
//     usual arithmetic conversions as explicit Casts), the value assigned has
//     the type of the location, conditions are scalars. Shift operands may
//     differ; the result has the type of the left operand.
//   - Expressions are pure: calls, allocation and thread operations are
//     instructions. The only choice inside an expression is Nondet.
//   - Only a Skip is marked Sliced (slice.Abstract's replacement of an
//     instruction that touches only sliced variables); Visible and
//     SharedVisible, the step sets every stage of the loop agrees on, are
//     defined by that mark, never by a message.
//
// # Semantics
//
// One instruction is one atomic step of one thread. The front end splits C
// statements so that, outside atomic sections, an instruction makes at most
// one access to shared memory (globals, heap, and locals whose address is
// taken), which makes the step semantics equal to C's interleaving semantics.
//
// Integers are bit-vectors of their type's width in two's complement;
// arithmetic wraps. Division and remainder by zero follow SMT-LIB: x/0 is
// all ones for unsigned (and -1 or 1 for signed, per bvsdiv), x%0 is x. Shifts
// by an amount >= width give 0 (left, logical right) or the sign fill
// (arithmetic right). Cast to _Bool is "!= 0"; other integer casts truncate or
// extend by the source signedness.
//
// Memory is a set of objects (globals, the locals of each activation, heap
// blocks); every object stores the scalar cells of its type (Type.Cells)
// at the byte offsets of gcc's layout (Type.Size, Field.Offset, CellOffset).
// A pointer is an object plus a byte offset; pointer arithmetic moves by
// the pointee's size, and an access resolves its byte offset to a cell
// with Type.Resolve (a character access to one byte of an integer cell is
// exact; what the model does not compute is an error, never a value).
// Pointers into different objects are never equal.
//
// Assume(c) blocks the thread while c is false (so assume(0) ends it for
// good); Assert(c) fails when c is false, which is a property violation.
// Lock(p) is the atomic step {assume(*p == 0); *p = 1}; Unlock(p) sets *p =
// 0. AtomicBegin/AtomicEnd bracket a section in which no other thread runs;
// calling a Func with Atomic set runs its whole body as such a section.
// Sections nest. Spawn creates thread number k (k-th Spawn executed in the
// run, main is 0) and stores k in its handle; Join(t) waits until thread t
// has ended. Return from a thread's start function, or Exit, ends the thread;
// the returned value, or Exit's Rhs, is the thread's result (a null pointer
// when there is none), which a Join with a Lhs stores there.
// ThreadID is the number of the thread that evaluates it (pthread_self()).
// Nondet(T) is any value of T.
package program
