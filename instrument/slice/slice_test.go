package slice_test

import (
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/goanomaly/goanomaly/instrument/slice"
)

var update = flag.Bool("update", false, "rewrite the golden files")

const rtPath = "github.com/goanomaly/goanomaly/rt"

// sliceCase loads testdata/src/name, slices it and returns the sliced
// main.go, checked against testdata/golden/name.go.golden (-update writes it),
// and the path of the sliced program, built.
func sliceCase(t *testing.T, name string) (string, string) {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "src", name))
	if err != nil {
		t.Fatal(err)
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil || packages.PrintErrors(pkgs) > 0 {
		t.Fatalf("loading %s: %v", name, err)
	}
	var in []*slice.Package
	for _, p := range pkgs {
		sp := &slice.Package{Fset: p.Fset, Files: p.Syntax, Types: p.Types, Info: p.TypesInfo}
		for _, f := range p.Syntax {
			fn := p.Fset.File(f.Pos()).Name()
			src, err := os.ReadFile(fn)
			if err != nil {
				t.Fatal(err)
			}
			sp.Names, sp.Src = append(sp.Names, fn), append(sp.Src, src)
		}
		in = append(in, sp)
	}
	res := slice.Slice(in, slice.Config{RTPath: rtPath})
	file := filepath.Join(dir, "main.go")
	out, ok := res.Files[file]
	if !ok {
		t.Fatalf("%s: nothing sliced", name)
	}
	golden := filepath.Join("testdata", "golden", name+".go.golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(golden), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, out, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != string(out) {
		t.Errorf("%s: sliced output differs from %s (-update to accept):\n%s", name, golden, out)
	}
	return string(out), build(t, file, out)
}

// build compiles the package of file with its sliced text (the sliced
// program must always compile) and returns the binary.
func build(t *testing.T, file string, src []byte) string {
	t.Helper()
	tmp := t.TempDir()
	sliced := filepath.Join(tmp, "main.go")
	if err := os.WriteFile(sliced, src, 0o666); err != nil {
		t.Fatal(err)
	}
	ov, _ := json.Marshal(map[string]map[string]string{"Replace": {file: sliced}})
	ovFile := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ovFile, ov, 0o666); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(tmp, "prog")
	cmd := exec.Command("go", "build", "-overlay", ovFile, "-o", exe, ".")
	cmd.Dir = filepath.Dir(file)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the sliced program does not compile: %v\n%s", err, out)
	}
	return exe
}

func contains(t *testing.T, out string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("sliced output lacks %q", w)
		}
	}
}

func lacks(t *testing.T, out string, gone ...string) {
	t.Helper()
	for _, g := range gone {
		if strings.Contains(out, g) {
			t.Errorf("sliced output still has %q", g)
		}
	}
}

// TestFloatWorkGoes: a gemm-like kernel keeps its checks, their
// addresses and its loops; its multiplications, the sum and the print go.
func TestFloatWorkGoes(t *testing.T) {
	out, _ := sliceCase(t, "gemm")
	contains(t, out, "_ga_rt.R(k, &A[i*n+p], 1)", "_ga_rt.RW(k, &c[j], 2)", "for j := range B[p*n : (p+1)*n]", "if _ga_n := len(c); _ga_n > 0 { _ = &c[(0)]; _ = &c[(_ga_n-1)]; }", "_ = &A[i]", "_ = i%n; _ = &B[i]")
	lacks(t, out, "alpha *", "a * b", "sum +=", "fmt.Printf", "A[i] = float64")
}

// TestFloatSteersKept: a float64 comparison decides a checked access, so
// the float64 stores that feed it stay.
func TestFloatSteersKept(t *testing.T) {
	out, _ := sliceCase(t, "steer")
	contains(t, out, "if w[i] > 0.5", "w[i] = float64(i%2) * 0.75")
	lacks(t, out, "fmt.Println(a[0])")
}

// TestStringMethodKept: fmt would call a String method holding a check,
// so that print stays; a print of a float64 goes.
func TestStringMethodKept(t *testing.T) {
	out, _ := sliceCase(t, "stringer")
	contains(t, out, "fmt.Println(c)", "_ga_rt.R(c.k, &c.v[0], 1)")
	lacks(t, out, "fmt.Println(x)", "2.5 *")
}

// TestIndexArrayKept: the int stores filling an index array a kept
// address reads stay; the float64 stores go.
func TestIndexArrayKept(t *testing.T) {
	out, _ := sliceCase(t, "intindex")
	contains(t, out, "idx[i] = (i * 3) % n", "_ga_rt.R(k, &in[idx[i]], 1)", "_ = &in[i]", "_ = &out[i]")
	lacks(t, out, "float64(i) + 0.25", "2 *")
}

// TestDroppedStorePanics: a dropped store keeps its bounds check: the
// sliced program panics where the original does.
func TestDroppedStorePanics(t *testing.T) {
	out, exe := sliceCase(t, "panics")
	contains(t, out, "_ = &b[i]")
	lacks(t, out, "1.5")
	msg, err := exec.Command(exe).CombinedOutput()
	if err == nil || !strings.Contains(string(msg), "index out of range [3] with length 3") {
		t.Errorf("the sliced program did not panic as the original: %v\n%s", err, msg)
	}
}

// TestAccumulatorGoes: a local summed in a loop and stored where nothing
// kept reads goes with its loop's value variable; the loop stays for its
// slice expression's bounds and division (evaluated once, as the range did).
func TestAccumulatorGoes(t *testing.T) {
	out, _ := sliceCase(t, "accum")
	contains(t, out, "if _ga_n := len(in[b*n/blocks : (b+1)*n/blocks]); _ga_n > 0 { }", "_ = &sums[b]")
	lacks(t, out, "s += v", "var s int64")
}

// TestHiddenReads: a value method called through a pointer loads the
// struct, and a deferred function's store to a named result is returned:
// both stores stay.
func TestHiddenReads(t *testing.T) {
	out, _ := sliceCase(t, "receivers")
	contains(t, out, "p.x = 3", "n = len(a) - 1", "if p.norm2() > 4")
}

// TestHoistedTrapsPanic: a loop left with only traps becomes the traps of
// its first and last iteration; the last is out of range, and the sliced
// program panics as the original does.
func TestHoistedTrapsPanic(t *testing.T) {
	out, exe := sliceCase(t, "hoistpanic")
	contains(t, out, "if (1) < (n+1) { _ = &b[(1)-1]; _ = &b[((n+1)-1)-1]; _ = &b[(1)]; _ = &b[((n+1)-1)]; }")
	msg, err := exec.Command(exe).CombinedOutput()
	if err == nil || !strings.Contains(string(msg), "index out of range [3] with length 3") {
		t.Errorf("the sliced program did not panic as the original: %v\n%s", err, msg)
	}
}

// TestLabeledStatementKept: a labeled simple statement stays whole (the
// edits replace statements of lists, not a label's), and so does the
// declaration of what it uses; the sliced program compiles.
func TestLabeledStatementKept(t *testing.T) {
	out, _ := sliceCase(t, "labeled")
	contains(t, out, "t := 0", "t += a[1]")
}

// TestRecoveredPanicsStay: statements whose panics have no trap (an
// integer /= or <<=, a comparison or a map key of interfaces, a range over
// a nil array pointer with a value variable) stay, and loops of traps are
// not hoisted when the program recovers (the hoisted traps would panic
// naming another index): the sliced program recovers the same panics, so
// it exits with the same code as the original (every bit set).
func TestRecoveredPanicsStay(t *testing.T) {
	out, exe := sliceCase(t, "recovered")
	contains(t, out, "v /= d", "v <<= s", "_ = x == y", "v := m[x]", "map[any]float64{x: 1.5}", "for _, v := range p {", "for _, v := range p { _ = v;", "_ = &gs[i]")
	err := exec.Command(exe).Run()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 0xff {
		t.Errorf("the sliced program exits with %v, want exit status 255 (every recovered panic)", err)
	}
}

// TestStdoutReadBackStays: a program that points os.Stdout at a file and
// reads it back keeps its prints (they are input to it, not output only).
func TestStdoutReadBackStays(t *testing.T) {
	out, exe := sliceCase(t, "streams")
	contains(t, out, "fmt.Println(3)")
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "TMPDIR="+t.TempDir()) // its file lands in the test's directory
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
		t.Errorf("the sliced program exits with %v, want exit status 3 (the number it printed and read back)", err)
	}
}

// TestResetLoopStays: a counted loop whose body may reset its counter (or
// grow its bound) is
// not surely finite: it stays with the reset (dropped, the sliced program
// would end where the original never does).
func TestResetLoopStays(t *testing.T) {
	out, _ := sliceCase(t, "resetloop")
	contains(t, out, "for i := 0; i < 3; i++ {", "if x > 1 {", "i = 0", "for i := 0; i < b.n; i++ {", "b.n++")
}

// TestAppendCopyStoresStay: append and copy store into their first
// argument's array, which other slices share: they stay when kept code
// may read its element type, whatever becomes of their results.
func TestAppendCopyStoresStay(t *testing.T) {
	out, exe := sliceCase(t, "aliases")
	contains(t, out, "ys := append(xs[:1], 1)", "n := copy(dst, src)")
	lacks(t, out, "2.5 *")
	err := exec.Command(exe).Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
		t.Errorf("the sliced program exits with %v, want exit status 3", err)
	}
}

// TestHeaderVarsUsed: a kept header's variables that only dropped code
// read get _ = v, and the sliced program compiles.
func TestHeaderVarsUsed(t *testing.T) {
	out, _ := sliceCase(t, "headers")
	contains(t, out, "case v := <-ch: _ = v;", "if v, ok := m[1]; ok { _ = v;", "for x, y := 0.5, 1; y < 3; y++ { _ = x;")
	lacks(t, out, "sum += v", "fmt.Println(sum)")
}

// TestPlainArgsAddressReaches: an &x given to a runtime entry point that
// runs code with it (Acquire), or to the function PlainArgs1 returns, is
// more than an address: the code may load through it, so the store p.n = 3
// into x stays.
func TestPlainArgsAddressReaches(t *testing.T) {
	out, _ := sliceCase(t, "plainaddr")
	contains(t, out, "p.n = 3", "_ga_rt.PlainArgs1[any](runtime.KeepAlive)(&c)")
	lacks(t, out, "out[0] = 1.5")
}
