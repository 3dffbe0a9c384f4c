package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// skipped are the testdata files not copied, and why.
var skipped = map[string]string{
	"cgo_test.go":      "TestNoRaceCgoSync runs 'go run -race cgo_test_main.go' (a separate cgo program) through internal/testenv; it tests the race runtime's cgo synchronization, nothing goanomaly instruments",
	"cgo_test_main.go": "package main with import \"C\", the program cgo_test.go runs",
}

// adaptation rewrites one file so that it builds outside the Go tree and
// without -race. Adaptations never touch a test's accesses or assertions.
type adaptation struct {
	file, why string
	old       *regexp.Regexp
	repl      string
	shim      string // declarations added to the package (shim_racesuite_test.go)
}

var adaptations = []adaptation{
	{
		file: "mop_test.go", why: "runtime.RaceDisable exists only in -race builds; a no-op here (TestNoRaceIssue60934 tests the race runtime's own state)",
		old: regexp.MustCompile(`\bruntime\.RaceDisable\(\)`), repl: "raceDisable()",
		shim: "func raceDisable() {}\n",
	},
	{
		file: "synctest_test.go", why: "internal/synctest is importable only in the Go tree; testing/synctest.Test(t, …) runs the same bubble",
		old: regexp.MustCompile(`"internal/synctest"`), repl: `"testing/synctest"`,
	},
	{
		file: "synctest_test.go",
		old:  regexp.MustCompile(`synctest\.Run\(func\(\) \{`), repl: "synctest.Test(t, func(*testing.T) {",
	},
}

// funcDecl is one top-level function of the suite.
type funcDecl struct {
	name       string
	file       string // base name
	start, end int    // lines
	refs       []string
}

// testFunc is one TestRace* or TestNoRace* function.
type testFunc struct {
	funcDecl
	race  bool     // TestRace*: a race is expected
	notes []string // unstructured-construct notes in it or in what it calls
}

// scratch is the scratch module holding the copied tests.
type scratch struct {
	dir, src, goVersion string
	pkg                 string
	files               []string // copied, sorted
	funcs               map[string]*funcDecl
	tests               []*testFunc
}

// newScratch copies the race testdata into a new module in dir.
func newScratch(dir string) (*scratch, error) {
	goroot, err := goEnv("GOROOT")
	if err != nil {
		return nil, err
	}
	ver, err := goEnv("GOVERSION")
	if err != nil {
		return nil, err
	}
	s := &scratch{dir: dir, src: filepath.Join(goroot, "src", "runtime", "race", "testdata"), goVersion: ver, funcs: map[string]*funcDecl{}}
	names, err := filepath.Glob(filepath.Join(s.src, "*.go"))
	if err != nil {
		return nil, err
	}
	var shim strings.Builder
	for _, name := range names {
		base := filepath.Base(name)
		if _, skip := skipped[base]; skip {
			continue
		}
		if err := s.copyFile(base, &shim); err != nil {
			return nil, err
		}
	}
	if len(s.files) == 0 {
		return nil, fmt.Errorf("no test files in %s", s.src)
	}
	if shim.Len() > 0 {
		code := fmt.Sprintf("package %s\n\n// Written by racesuite: stand-ins for -race-only runtime functions.\n\n%s", s.pkg, shim.String())
		if err := os.WriteFile(filepath.Join(dir, "shim_racesuite_test.go"), []byte(code), 0o666); err != nil {
			return nil, err
		}
	}
	mod := fmt.Sprintf("module racetest\n\ngo %s\n", langVersion(ver))
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o666); err != nil {
		return nil, err
	}
	sort.Slice(s.tests, func(i, j int) bool { return s.tests[i].name < s.tests[j].name })
	return s, nil
}

// copyFile copies one file, adapting it, and records its functions.
func (s *scratch) copyFile(base string, shim *strings.Builder) error {
	data, err := os.ReadFile(filepath.Join(s.src, base))
	if err != nil {
		return err
	}
	for _, a := range adaptations {
		if a.file == base {
			if !a.old.Match(data) {
				return fmt.Errorf("%s: adaptation %q no longer applies; update racesuite/scratch.go", base, a.old)
			}
			data = a.old.ReplaceAll(data, []byte(a.repl))
			shim.WriteString(a.shim)
		}
	}
	if err := os.WriteFile(filepath.Join(s.dir, base), data, 0o666); err != nil {
		return err
	}
	s.files = append(s.files, base)
	return s.parse(base, data)
}

// parse records the top-level functions of one file and the identifiers
// each refers to.
func (s *scratch) parse(base string, data []byte) error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, base, data, parser.SkipObjectResolution)
	if err != nil {
		return err
	}
	if s.pkg == "" {
		s.pkg = f.Name.Name
	} else if f.Name.Name != s.pkg {
		return fmt.Errorf("%s: package %s, others are %s", base, f.Name.Name, s.pkg)
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		decl := &funcDecl{name: fd.Name.Name, file: base, start: fset.Position(fd.Pos()).Line, end: fset.Position(fd.End()).Line}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				decl.refs = append(decl.refs, id.Name)
			}
			return true
		})
		if fd.Recv == nil {
			s.funcs[decl.name] = decl
		}
		if race, ok := testKind(fd); ok {
			s.tests = append(s.tests, &testFunc{funcDecl: *decl, race: race})
		}
	}
	return nil
}

// testKind says whether fd is a TestRace* (true) or TestNoRace* (false)
// test function.
func testKind(fd *ast.FuncDecl) (race, ok bool) {
	if fd.Recv != nil || fd.Type.Params.NumFields() != 1 {
		return false, false
	}
	switch name := fd.Name.Name; {
	case strings.HasPrefix(name, "TestRace"):
		return true, true
	case strings.HasPrefix(name, "TestNoRace"):
		return false, true
	}
	return false, false
}

// matching returns the tests whose names match re.
func (s *scratch) matching(re *regexp.Regexp) []*testFunc {
	var out []*testFunc
	for _, t := range s.tests {
		if re.MatchString(t.name) {
			out = append(out, t)
		}
	}
	return out
}

// enclosing returns the top-level function of file containing line, or "".
func (s *scratch) enclosing(file string, line int) string {
	for _, d := range s.funcs {
		if d.file == file && d.start <= line && line <= d.end {
			return d.name
		}
	}
	return ""
}

// attribute gives each note to the test function it is in, or to every test
// that calls (directly or through other functions of the suite) the helper
// it is in.
func (s *scratch) attribute(notes []note) {
	byFunc := map[string][]string{}
	for _, n := range notes {
		if fn := s.enclosing(n.file, n.line); fn != "" {
			byFunc[fn] = append(byFunc[fn], n.String())
		}
	}
	for _, t := range s.tests {
		for _, fn := range s.reachable(t.name) {
			t.notes = append(t.notes, byFunc[fn]...)
		}
	}
}

// reachable returns the suite's functions reachable from fn by reference,
// fn first.
func (s *scratch) reachable(fn string) []string {
	seen := map[string]bool{fn: true}
	order := []string{fn}
	for i := 0; i < len(order); i++ {
		d := s.funcs[order[i]]
		if d == nil {
			continue
		}
		for _, r := range d.refs {
			if _, ok := s.funcs[r]; ok && !seen[r] {
				seen[r] = true
				order = append(order, r)
			}
		}
	}
	return order
}

// goEnv returns go env key.
func goEnv(key string) (string, error) {
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %v", key, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// langVersion turns "go1.26.8" (or "go1.27rc1", "devel …") into "1.26".
func langVersion(v string) string {
	m := regexp.MustCompile(`^go(\d+)\.(\d+)`).FindStringSubmatch(v)
	if m == nil {
		return "1.26"
	}
	return m[1] + "." + m[2]
}
