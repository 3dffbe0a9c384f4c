package soundfuzz

import (
	"flag"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// knownHoles are the families whose known bug (the issue class in the
// value) is not fixed on this branch: TestSoundnessSeeds and
// FuzzSoundness log their failures and do not fail on them. Remove an
// entry when the fix merges; SOUNDFUZZ_STRICT=1 ignores the list.
var knownHoles = map[string]string{}

func strict() bool { return os.Getenv("SOUNDFUZZ_STRICT") == "1" }

// corpus reads testdata/fuzz/FuzzSoundness, the seed inputs (one or more
// per family), in name order.
func corpus(t testing.TB) (names []string, inputs [][]byte) {
	files, err := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzSoundness", "*"))
	if err != nil {
		t.Fatal(err)
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
		names = append(names, filepath.Base(f))
		inputs = append(inputs, []byte(s))
	}
	return names, inputs
}

// TestSoundnessSeeds builds every seed program of the corpus in one module,
// pruned and conservatively (two goanomaly builds in all), runs each and
// judges it against its truth. Families in knownHoles are reported, not
// failed.
func TestSoundnessSeeds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds with goanomaly")
	}
	names, inputs := corpus(t)
	var progs []*Program
	for i, in := range inputs {
		p, err := Build(in, pkgName(len(progs)), modPath)
		if err != nil {
			t.Fatalf("%s: %v", names[i], err)
		}
		progs = append(progs, p)
	}
	results := runPrograms(t, progs)
	type count struct{ programs, checked, noted, failed int }
	byFamily := map[string]*count{}
	for _, r := range results {
		c := byFamily[r.Prog.Family]
		if c == nil {
			c = &count{}
			byFamily[r.Prog.Family] = c
		}
		if r.Mode == modes[0] {
			c.programs++
		}
		c.checked += r.Verdict.Checked
		c.noted += r.Verdict.Noted
		if !r.failed() {
			continue
		}
		c.failed++
		if class, known := knownHoles[r.Prog.Family]; known && !strict() {
			t.Logf("known hole (%s):\n%s", class, r.describe())
			continue
		}
		t.Errorf("%s", r.describe())
	}
	var fams []string
	for f := range byFamily {
		fams = append(fams, f)
	}
	sort.Strings(fams)
	for _, f := range fams {
		c := byFamily[f]
		t.Logf("%-16s %d program(s); conflicting elements reported %d, noted %d (both builds); %d failing build(s)", f, c.programs, c.checked, c.noted, c.failed)
		if _, known := knownHoles[f]; known && c.failed == 0 {
			t.Logf("%s is in knownHoles but its seeds pass: remove it if the fix has merged", f)
		}
	}
}

func pkgName(i int) string { return "p" + strconv.Itoa(1000 + i)[1:] }

// FuzzSoundness generates a program from each input, builds it pruned and
// conservatively, runs both and fails when either misses a conflict of the
// program's truth or reports one it rules out. Outside fuzzing the corpus
// runs in TestSoundnessSeeds, batched; here each input is its own module.
func FuzzSoundness(f *testing.F) {
	fuzzing := flag.Lookup("test.fuzz").Value.String() != ""
	f.Fuzz(func(t *testing.T, data []byte) {
		if !fuzzing {
			t.Skip("the corpus runs in TestSoundnessSeeds")
		}
		p, err := Build(data, pkgName(0), modPath)
		if err != nil {
			t.Fatal(err)
		}
		if class, known := knownHoles[p.Family]; known && !strict() {
			t.Skipf("%s is a known hole (%s)", p.Family, class)
		}
		for _, r := range runPrograms(t, []*Program{p}) {
			if r.failed() {
				t.Errorf("%s", r.describe())
			}
		}
	})
}

// TestSoundnessRandom is the batched sweep: SOUNDFUZZ_RANDOM=N programs from
// random inputs (SOUNDFUZZ_SEED, default 1), built 25 to a module, every
// failure reported (go test -fuzz stops at the first). Skipped unless set.
func TestSoundnessRandom(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("SOUNDFUZZ_RANDOM"))
	if n == 0 {
		t.Skip("set SOUNDFUZZ_RANDOM=N (and SOUNDFUZZ_FAMILIES=a,b to sweep only those families)")
	}
	seed, _ := strconv.ParseInt(os.Getenv("SOUNDFUZZ_SEED"), 10, 64)
	r := rand.New(rand.NewSource(seed + 1))
	// SOUNDFUZZ_FAMILIES=loop/cyclic,loop/mirror: only those families.
	var only []int
	for _, name := range strings.Split(os.Getenv("SOUNDFUZZ_FAMILIES"), ",") {
		for i, f := range families {
			if name != "" && f.name == name {
				only = append(only, i)
			}
		}
	}
	perFamily := map[string]int{}
	failures := map[string]int{}
	for done := 0; done < n; {
		var progs []*Program
		var inputs [][]byte
		for len(progs) < 25 && done+len(progs) < n {
			data := make([]byte, 4+r.Intn(16))
			r.Read(data)
			if len(only) > 0 {
				data[0] = byte(only[r.Intn(len(only))])
			}
			p, err := Build(data, pkgName(len(progs)), modPath)
			if err != nil {
				t.Fatalf("%q: %v", data, err)
			}
			progs = append(progs, p)
			inputs = append(inputs, data)
		}
		done += len(progs)
		for _, res := range runPrograms(t, progs) {
			if res.Mode == modes[0] {
				perFamily[res.Prog.Family]++
			}
			if !res.failed() {
				continue
			}
			failures[res.Prog.Family]++
			var in []byte
			for i, p := range progs {
				if p == res.Prog {
					in = inputs[i]
				}
			}
			if class, known := knownHoles[res.Prog.Family]; known && !strict() {
				t.Logf("known hole (%s), input %q:\n%s", class, in, res.describe())
				continue
			}
			t.Errorf("input %q:\n%s", in, res.describe())
		}
	}
	var fams []string
	for f := range perFamily {
		fams = append(fams, f)
	}
	sort.Strings(fams)
	for _, f := range fams {
		t.Logf("%-16s %4d program(s), %d failing build(s)", f, perFamily[f], failures[f])
	}
}
