package slicediff

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/goanomaly/goanomaly/instrument/soundfuzz"
)

// program is one run of a built binary: exe (a file of the group's output
// directory) with args.
type program struct {
	name string
	pkg  string // its import path (a package that does not compile drops it)
	exe  string
	args []string
	want wantRaces
}

// wantRaces is what a program's unsliced checked run must report, so that
// a racy variant that plants nothing (or a clean kernel that starts
// racing) fails before the comparison means anything.
type wantRaces int

const (
	anyRaces  wantRaces = iota // fuzz programs: their truth is soundfuzz's business
	noRaces                    // clean kernels and examples
	someRaces                  // racy variants
)

// unchecked are the racy variants whose planted race goanomaly does not
// check, with its note: their checked build must report nothing (so the
// comparison is trivial for them), and the test says so when one starts
// reporting, to move it back to the programs that must.
// None today: gesummv's pool, fed by its parent, was the last one
// (analysis/parentfeed.go).
var unchecked = map[string]string{}

// group is a set of programs built by one goanomaly build of pkgs (into a
// directory, one binary per package) in dir, with env added.
type group struct {
	name  string
	dir   string
	pkgs  []string
	env   []string
	progs []program
	out   string // -o: a directory (pkgs/ ending), or a file for one package
	// main, if set, writes the command that runs progs (the fuzz module's
	// cmd/fz), and pkgs is that command; else pkgs[i] builds progs[i].
	main func(progs []program)
}

// without returns g without the programs whose package is in broken.
func (g group) without(broken map[string]string) group {
	h := g
	h.progs, h.pkgs = nil, nil
	for i, p := range g.progs {
		if _, ok := broken[p.pkg]; ok {
			continue
		}
		h.progs = append(h.progs, p)
		if g.main == nil {
			h.pkgs = append(h.pkgs, g.pkgs[i])
		}
	}
	if g.main != nil {
		h.pkgs = g.pkgs
		g.main(h.progs)
	}
	return h
}

// root is the repository's root, where bench/ and examples/ are.
const root = "../.."

// modulePath is goanomaly's module path.
const modulePath = "github.com/goanomaly/goanomaly"

// kernels are bench/'s kernels with small arguments: each runs in well
// under a second checked, forks several goroutines per construct under
// GOMAXPROCS=1 (sizes that default to GOMAXPROCS are given), and its racy
// variant in bench/testdata reports its planted race with them.
var kernels = []struct{ name, args string }{
	{"callbacks", "-n 1000 -parallel"},
	{"fem", "-n 8 -iters 2 -chunks 4"},
	{"finegrained", "-regions 3 -width 4"},
	{"histogram", "-n 1000 -chunks 4"},
	{"jacobi", "-n 16 -sweeps 2 -chunks 4"},
	{"matmul", "-n 8 -reps 1"},
	{"nbody", "-n 40 -steps 2 -block 16"},
	{"prefixscan", "-n 100 -reps 2 -blocks 4"},
	{"search", "-n 10 -steps 2"},
}

// polybench are the PolyBench ports with the small sizes of
// bench/polybench/README.md, and four workers where the port defaults to
// GOMAXPROCS (one here, where the racy variants would not race).
var polybench = []struct{ name, args string }{
	{"2mm", "-ni 20 -nj 15 -nk 10 -nl 25"},
	{"atax", "-m 100 -n 50 -bs 8 -reps 2"},
	{"bicg", "-n 100 -m 50 -reps 2 -workers 4"},
	{"covariance", "-m 40 -n 50 -bs 4"},
	{"doitgen", "-nr 8 -nq 6 -np 8 -reps 1"},
	{"fdtd-2d", "-tmax 3 -nx 40 -ny 30 -bs 4"},
	{"gemm", "-ni 40 -nj 30 -nk 20 -bs 4"},
	{"gesummv", "-n 100 -bs 4 -reps 2 -workers 4"},
	{"heat-3d", "-n 20 -tsteps 2 -bs 2"},
	{"jacobi-2d", "-n 40 -tsteps 3 -workers 4"},
	{"lu", "-n 40 -workers 4"},
	{"mvt", "-n 100 -bs 8 -reps 2"},
	{"syrk", "-n 40 -m 20 -workers 4"},
	{"trmm", "-m 30 -n 40 -workers 4"},
}

// polybench2d are the [][]float64 PolyBench ports with the small sizes
// of bench/polybench2d/README.md (polybench's).
var polybench2d = []struct{ name, args string }{
	{"2mm", "-ni 20 -nj 15 -nk 10 -nl 25"},
	{"atax", "-m 100 -n 50 -bs 8 -reps 2"},
	{"bicg", "-n 100 -m 50 -reps 2 -workers 4"},
	{"covariance", "-m 40 -n 50 -bs 4"},
	{"doitgen", "-nr 8 -nq 6 -np 8 -reps 1"},
	{"fdtd-2d", "-tmax 3 -nx 40 -ny 30 -bs 4"},
	{"gemm", "-ni 40 -nj 30 -nk 20 -bs 4"},
	{"gesummv", "-n 100 -bs 4 -reps 2 -workers 4"},
	{"heat-3d", "-n 20 -tsteps 2 -bs 2"},
	{"jacobi-2d", "-n 40 -tsteps 3 -workers 4"},
	{"lu", "-n 40 -workers 4"},
	{"mvt", "-n 100 -bs 8 -reps 2"},
	{"syrk", "-n 40 -m 20 -workers 4"},
	{"trmm", "-m 30 -n 40 -workers 4"},
}

// examples are examples/'s programs (a group per example: both variants
// are named racy and clean) with small arguments.
var examples = []struct{ name, args string }{
	{"search", "-steps 40"},
	{"fem", "-nx 12 -ny 12"},
}

// suiteGroup is one group of the repository's own programs: dir/<name> for
// each name, with args, wanting want.
func suiteGroup(name, dir string, progs []struct{ name, args string }, want wantRaces) group {
	g := group{name: name, dir: root, out: "bin/"}
	for _, p := range progs {
		g.pkgs = append(g.pkgs, "./"+dir+"/"+p.name)
		g.progs = append(g.progs, program{name: dir + "/" + p.name, pkg: modulePath + "/" + dir + "/" + p.name, exe: filepath.Base(p.name), args: strings.Fields(p.args), want: want})
	}
	return g
}

// suiteGroups are the groups of the repository's own programs.
func suiteGroups() []group {
	gs := []group{
		suiteGroup("bench", "bench", kernels, noRaces),
		suiteGroup("bench-racy", "bench/testdata", kernels, someRaces),
		suiteGroup("polybench", "bench/polybench", polybench, noRaces),
		suiteGroup("polybench-racy", "bench/polybench/testdata", polybench, someRaces),
		suiteGroup("polybench2d", "bench/polybench2d", polybench2d, noRaces),
		suiteGroup("polybench2d-racy", "bench/polybench2d/testdata", polybench2d, someRaces),
	}
	for _, ex := range examples {
		clean := []struct{ name, args string }{{"clean", ex.args}}
		racy := []struct{ name, args string }{{"racy", ex.args}}
		g := suiteGroup("examples-"+ex.name, "examples/"+ex.name, clean, noRaces)
		r := suiteGroup("", "examples/"+ex.name, racy, someRaces)
		g.pkgs, g.progs = append(g.pkgs, r.pkgs...), append(g.progs, r.progs...)
		gs = append(gs, g)
	}
	return gs
}

// fuzzCount is how many random programs of the soundness fuzzer join its
// seed corpus (SLICEDIFF_FUZZ overrides; the inputs come from a fixed
// seed, SLICEDIFF_FUZZ_SEED, so a run is reproducible).
const fuzzCount = 40

// fuzzGroup writes a module with the soundness fuzzer's seed corpus (every
// family) and fuzzCount random programs into dir, and returns its group:
// one command cmd/fz that runs the program its argument names.
func fuzzGroup(t *testing.T, dir string) group {
	inputs, names := corpus(t)
	n, seed := envInt(t, "SLICEDIFF_FUZZ", fuzzCount), envInt(t, "SLICEDIFF_FUZZ_SEED", 1)
	r := rand.New(rand.NewSource(int64(seed)))
	for i := range n {
		data := make([]byte, 4+r.Intn(16))
		r.Read(data)
		inputs, names = append(inputs, data), append(names, fmt.Sprintf("random %d of seed %d", i, seed))
	}
	const mod = "fz"
	var progs []*soundfuzz.Program
	var pkgs []string
	g := group{name: "soundfuzz", dir: dir, out: "bin/fz", pkgs: []string{"./cmd/fz"},
		env: []string{"GOFLAGS=-mod=mod", "GOPROXY=off", "GOTOOLCHAIN=local"}}
	for i, in := range inputs {
		pkg := fmt.Sprintf("p%03d", i)
		p, err := soundfuzz.Build(in, pkg, mod)
		if err != nil {
			t.Fatalf("soundfuzz input %q (%s): %v", in, names[i], err)
		}
		progs, pkgs = append(progs, p), append(pkgs, pkg)
		g.progs = append(g.progs, program{name: fmt.Sprintf("%s %s (%s, input %q)", pkg, p.Family, names[i], in), pkg: mod + "/" + pkg, exe: "fz", args: []string{pkg}})
	}
	version, sum := syncVersion(t), syncSum(t)
	writeFiles(t, dir, soundfuzz.Module(mod, progs, pkgs, version, sum))
	g.main = func(progs []program) {
		var pkgs []string
		for _, p := range progs {
			pkgs = append(pkgs, p.args[0])
		}
		const main = "cmd/fz/main.go"
		writeFiles(t, dir, map[string]string{main: soundfuzz.Module(mod, nil, pkgs, version, sum)[main]})
	}
	return g
}

// writeFiles writes files (by slash path) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	for name, src := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// corpus returns the soundness fuzzer's seed inputs (one or more per
// family), in name order.
func corpus(t *testing.T) (inputs [][]byte, names []string) {
	files, err := filepath.Glob(filepath.Join(root, "instrument", "soundfuzz", "testdata", "fuzz", "FuzzSoundness", "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("the soundness fuzzer's corpus: %v (%d files)", err, len(files))
	}
	sort.Strings(files)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if len(lines) != 2 || lines[0] != "go test fuzz v1" || !strings.HasPrefix(lines[1], "[]byte(") {
			t.Fatalf("%s: not a []byte fuzz input", f)
		}
		s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")"))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		inputs, names = append(inputs, []byte(s)), append(names, "seed "+filepath.Base(f))
	}
	return inputs, names
}

// syncVersion is the golang.org/x/sync version goanomaly's module
// requires (in the module cache: the fuzz module builds without network).
func syncVersion(t *testing.T) string {
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`golang.org/x/sync (v\S+)`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod does not require golang.org/x/sync")
	}
	return string(m[1])
}

// syncSum is goanomaly's go.sum lines for golang.org/x/sync.
func syncSum(t *testing.T) string {
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, l := range strings.Split(string(sum), "\n") {
		if strings.HasPrefix(l, "golang.org/x/sync ") {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// envInt is the integer in environment variable name, or def.
func envInt(t *testing.T, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		t.Fatalf("%s=%q: want a count", name, s)
	}
	return n
}
