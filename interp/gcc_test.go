package interp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"cegpv.dev/cegpv/frontend"
	P "cegpv.dev/cegpv/program"
)

// TestAgainstGCC runs small sequential C programs through the front end
// and the interpreter, and compiled by gcc, and compares the final value
// of the global r: a differential test of the lowering of each statement
// and expression form (the for loop with a declaration once lost its
// condition and nothing else noticed, since every engine shares the
// lowering).
func TestAgainstGCC(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not installed")
	}
	progs := map[string]string{
		"for with declaration": "for (int i = 0; i < 5; i++) r += i;",
		"for":                  "int i; for (i = 3; i > 0; i--) r = r * 2 + i;",
		"for without parts":    "int i = 0; for (;;) { if (++i > 4) break; r += i; }",
		"for with comma":       "int i, j; for (i = 0, j = 10; i < j; i++, j--) r += j - i;",
		"nested for":           "for (int i = 0; i < 3; i++) for (int j = 0; j < i; j++) r += 10 * i + j;",
		"continue in for":      "for (int i = 0; i < 6; i++) { if (i % 2) continue; r += i; }",
		"while":                "int n = 27; while (n != 1) { n = n % 2 ? 3 * n + 1 : n / 2; r++; }",
		"do while":             "int i = 0; do { r += i; i += 3; } while (i < 10);",
		"do while continue":    "int i = 0; do { i++; if (i == 2) continue; r += i; } while (i < 5);",
		"switch fallthrough":   "for (int i = 0; i < 5; i++) switch (i) { case 0: r += 1; case 1: r += 10; break; case 3: r += 100; default: r += 1000; }",
		"goto":                 "int i = 0; again: r += i; if (++i < 4) goto again;",
		"short circuit":        "int a = 0, b = 0; if (a++ || b++) r = 1; if (a++ && b++) r += 2; r = r * 100 + a * 10 + b;",
		"ternary and comma":    "int a = 5; r = (a > 3 ? a++ : a--, a * 2);",
		"compound assignment":  "r = 7; r += 3; r *= 4; r -= 5; r /= 3; r %= 7; r <<= 3; r >>= 1; r |= 5; r &= 29; r ^= 6;",
		"increments":           "int a = 3; int b = a++ + ++a; r = a * 100 + b;",
		"unsigned wrap":        "unsigned u = 0; u = u - 1; r = (int)(u / 65536u) + (u > 5);",
		"signed division":      "r = (-7 / 2) * 100 + (-7 % 2) * 10 + (7 % -2);",
		"shifts":               "int a = -16; r = (a >> 2) + (1 << 10) + (int)(0x80000000u >> 31);",
		"char conversion":      "signed char c = 200; unsigned char d = 300; r = c * 1000 + d;",
		"array":                "int a[5]; for (int i = 0; i < 5; i++) a[i] = i * i; r = a[1] + a[4] * 10;",
		"pointer":              "int a[3] = {1, 2, 3}; int *p = a; p++; *p += 5; r = a[1] * 10 + *(p + 1);",
		"struct":               "struct s { int x; int y; } u = {1, 2}, v; v = u; v.y = 7; r = u.y * 10 + v.y;",
		"block scope":          "int x = 1; { int x = 2; r = x; } r = r * 10 + x;",
	}
	dir := t.TempDir()
	for name, body := range progs {
		t.Run(name, func(t *testing.T) {
			src := "int r;\nint main(void) {\n" + body + "\nreturn 0;\n}\n"
			p, err := frontend.Lower("prog.c", []byte(src), frontend.Options{Model: P.LP64})
			if err != nil {
				t.Fatalf("lower: %v", err)
			}
			out, err := Simulate(p, SimOptions{})
			if err != nil || out.Status != Completed {
				t.Fatalf("interpreter: %v %v", out.Status, err)
			}
			got := out.Final["r"].Bits
			c := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".c")
			wrap := "#include <stdio.h>\n#define main prog_main\n" + src + "#undef main\nint main(void) { prog_main(); printf(\"%d\\n\", r); return 0; }\n"
			if err := os.WriteFile(c, []byte(wrap), 0o644); err != nil {
				t.Fatal(err)
			}
			bin := strings.TrimSuffix(c, ".c")
			if b, err := exec.Command("gcc", "-w", "-o", bin, c).CombinedOutput(); err != nil {
				t.Fatalf("gcc: %v\n%s", err, b)
			}
			b, err := exec.Command(bin).Output()
			if err != nil {
				t.Fatal(err)
			}
			want, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("interpreter r = %d, gcc r = %d\n%s", got, want, src)
			}
		})
	}
}
