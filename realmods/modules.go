package main

// module is a public module whose parallel helpers run work the caller
// passes as a function value, and the races the harness plants there.
type module struct {
	name     string   // the short name; its planted tests are in testdata/<name>
	path     string   // module path
	version  string   // the version to download; "latest": what the proxy serves
	pristine []string // the packages with parallel code whose own tests must pass
	cases    []planted
	benches  []benchSet // -bench: the module's own benchmarks that run its parallel code
}

// benchSet is one package's benchmarks for -bench: a go test -bench
// regexp over the benchmarks the module ships (none is ours), chosen so
// that the work runs in the module's parallel helpers.
type benchSet struct {
	pkg string // package directory in the module, "./blur"
	re  string // the -bench regexp
}

// planted is one test of testdata/<module>: a race planted in a callback
// of the module's parallel API, or the clean variant that must stay silent.
type planted struct {
	pkg   string // package directory in the module, "./iter"
	test  string // test function
	label string // the table's case: "counter", "iter.ForEach row", "clean"
	clean bool   // the clean variant: no report allowed
}

// plantedFile is the base name of every planted test file; a report counts
// as the planted race's when it names this file.
const plantedFile = "realmods_test.go"

// four returns the usual cases of one package: the four planted races and
// the clean variant, named Test<prefix>Counter, …Row, …Append, …Map, …Clean.
func four(pkg, prefix, api string, races ...string) []planted {
	var cs []planted
	for _, r := range races {
		cs = append(cs, planted{pkg: pkg, test: "Test" + prefix + title(r), label: api + r})
	}
	return append(cs, planted{pkg: pkg, test: "Test" + prefix + "Clean", label: api + "clean", clean: true})
}

func title(s string) string { return string(s[0]-'a'+'A') + s[1:] }

// modules are the modules of issue 10's acceptance, in its order. bild has
// one version on the proxy today; "latest" follows it. gonum's quad has no
// row to plant in (its integrand sees only x), and Dgemm takes no callback:
// its package runs pristine only.
var modules = []module{
	{
		name: "imaging", path: "github.com/disintegration/imaging", version: "v1.6.2",
		pristine: []string{"."},
		cases:    four(".", "Realmods", "parallel ", "counter", "row", "append", "map"),
		// all of these run their rows through the package's parallel
		// helper. Two sets: go test runs a benchmark without sub-benchmarks
		// that matches only the first level of a two-level -bench, but
		// does not print its result.
		benches: []benchSet{
			{".", `^Benchmark(Blur|Sharpen|Grayscale|Convolve3x3)$`},
			{".", `^BenchmarkResize$/^(Down|Up)_Linear_JPEG$`},
		},
	},
	{
		name: "lo", path: "github.com/samber/lo", version: "v1.53.0",
		// lo's release leaves its tests out (its go.mod says so): parallel
		// has none, and the root package's example test, the one test
		// file left, does not build without them (undefined: foo).
		pristine: []string{"./parallel"},
		cases:    four("./parallel", "Realmods", "parallel.Map ", "counter", "row", "append", "map"),
		// no benches: the release ships no test of parallel
	},
	{
		name: "conc", path: "github.com/sourcegraph/conc", version: "v0.3.0",
		pristine: []string{"./..."},
		cases: append(append(
			four("./iter", "RealmodsIter", "iter.ForEach ", "counter", "row", "append", "map"),
			four("./pool", "RealmodsPool", "pool.Go ", "counter", "append", "map")...),
			four(".", "RealmodsWaitGroup", "WaitGroup.Go ", "counter", "row", "map")...),
		benches: []benchSet{{"./iter", `^BenchmarkForEach$`}, {"./pool", `^BenchmarkPool$`}},
	},
	{
		name: "bild", path: "github.com/anthonynsimon/bild", version: "latest",
		pristine: []string{"./parallel", "./adjust", "./blend", "./blur", "./channel", "./clone", "./convolution", "./effect", "./noise", "./transform"},
		cases:    four("./parallel", "Realmods", "parallel.Line ", "counter", "row", "append", "map"),
		// bild's blur has no benchmark; these run through parallel.Line.
		// The smallest of each family: Convolve8 takes 1.1 s plain and
		// 81 s under goanomaly on the 2-CPU machine, ResizeHalf reads a
		// 4096×4096 image.
		benches: []benchSet{
			{"./convolution", `^BenchmarkConvolve3$`},
			{"./adjust", `^BenchmarkApply$`},
			{"./effect", `^BenchmarkMedian1$`},
			{"./transform", `^Benchmark(Resize1x|Rotation256|Translate)$`},
			{"./noise", `^BenchmarkUniformColored$`},
		},
	},
	{
		name: "gonum", path: "gonum.org/v1/gonum", version: "v0.17.0",
		pristine: []string{"./blas/gonum", "./integrate/quad"},
		cases:    four("./integrate/quad", "Realmods", "quad.Fixed ", "counter", "append", "map"),
		// quad ships no benchmark; Dgemm forks one goroutine per 64×64
		// block of C once there are 4 blocks (Med = 100 has 4)
		benches: []benchSet{{"./blas/gonum", `^BenchmarkDgemm(MedMedMed|MedMedMedTT|LgSmLg|LgLgSm)$`}},
	},
}

// userModule is testdata/<name>: a module of its own that requires lo and
// calls parallel.Map with a racy callback (racy) and a clean one (clean),
// run with goanomaly run as a user would, nothing rewritten by hand.
var userModule = struct{ name, racy, clean string }{"louser", ".", "./clean"}
