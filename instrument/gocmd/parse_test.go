package gocmd

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		cmd, args    string
		words        string // Line.Words(), space-separated
		patterns     string
		prog         string // run's program arguments
		quiet        bool
		debug        string
		conservative bool
		dormant      bool
		slice        bool
	}{
		{cmd: "build", args: "-o out -tags a,b ./...", words: "-o out -tags a,b ./...", patterns: "./..."},
		{cmd: "build", args: "-v -x=true -ldflags=-s . ./x", words: "-v -x=true -ldflags=-s . ./x", patterns: ". ./x"},
		{cmd: "build", args: "-quiet -debug=plan.json -keep -trimpath .", words: "-trimpath .", patterns: ".", quiet: true, debug: "plan.json"},
		{cmd: "build", args: "-conservative -trimpath .", words: "-trimpath .", patterns: ".", conservative: true},
		{cmd: "build", args: "-dormant -trimpath .", words: "-trimpath .", patterns: ".", dormant: true},
		{cmd: "run", args: "-dormant . arg", words: ".", patterns: ".", prog: "arg", dormant: true},
		{cmd: "run", args: "-slice . arg", words: ".", patterns: ".", prog: "arg", slice: true},
		{cmd: "vet", args: "-slice ./...", words: "./...", patterns: "./...", slice: true},
		{cmd: "test", args: "-slice -run X .", words: "-run X .", patterns: ".", slice: true},
		{cmd: "build", args: "-debug --gcflags -N ./a", words: "--gcflags -N ./a", patterns: "./a", debug: "-"},
		{cmd: "build", args: "-- ./a", words: "./a", patterns: "./a"},
		{cmd: "build", args: "-race=false .", words: "-race=false .", patterns: "."},
		{cmd: "run", args: "-tags x ./cmd/x -- a b", words: "-tags x ./cmd/x", patterns: "./cmd/x", prog: "-- a b"},
		{cmd: "run", args: ". -v arg", words: ".", patterns: ".", prog: "-v arg"},
		{cmd: "run", args: "main.go util.go x.go.txt -quiet", words: "main.go util.go", patterns: "main.go util.go", prog: "x.go.txt -quiet"},
		{cmd: "run", args: "-exec echo .", words: "-exec echo .", patterns: "."},
		{cmd: "test", args: "-run TestX ./...", words: "-run TestX ./...", patterns: "./..."},
		{cmd: "test", args: "./a ./b -v -count=1 -run X", words: "./a ./b -v -count=1 -run X", patterns: "./a ./b"},
		{cmd: "test", args: "-count 1 . -quiet -args -quiet x", words: "-count 1 . -args -quiet x", patterns: ".", quiet: true},
		{cmd: "test", args: ". -custom v -run X", words: ". -custom v -run X", patterns: "."},
		{cmd: "test", args: ". -custom=v extra -run X", words: ". -custom=v extra -run X", patterns: "."},
		{cmd: "test", args: "-test.run X -test.v . -- -v", words: "-test.run X -test.v . -- -v", patterns: "."},
		{cmd: "test", args: "-c -o t.test -exec prog -vet=off -json .", words: "-c -o t.test -exec prog -vet=off -json .", patterns: "."},
		{cmd: "vet", args: "-tags t ./...", words: "-tags t ./...", patterns: "./..."},
	}
	for _, tt := range tests {
		l, err := Parse(tt.cmd, strings.Fields(tt.args))
		if err != nil {
			t.Errorf("%s %s: %v", tt.cmd, tt.args, err)
			continue
		}
		check := func(what string, got []string, want string) {
			if w := strings.Fields(want); !reflect.DeepEqual(got, w) && len(got)+len(w) > 0 {
				t.Errorf("%s %s: %s = %q, want %q", tt.cmd, tt.args, what, got, w)
			}
		}
		check("Words", l.Words(), tt.words)
		check("Patterns", l.Patterns, tt.patterns)
		check("ProgArgs", l.ProgArgs, tt.prog)
		if l.Conservative != tt.conservative {
			t.Errorf("%s %s: conservative %v, want %v", tt.cmd, tt.args, l.Conservative, tt.conservative)
		}
		if l.Slice != tt.slice {
			t.Errorf("%s %s: slice %v, want %v", tt.cmd, tt.args, l.Slice, tt.slice)
		}
		if l.Dormant != tt.dormant {
			t.Errorf("%s %s: dormant %v, want %v", tt.cmd, tt.args, l.Dormant, tt.dormant)
		}
		if l.Quiet != tt.quiet || l.Debug != tt.debug {
			t.Errorf("%s %s: quiet %v debug %q, want %v %q", tt.cmd, tt.args, l.Quiet, l.Debug, tt.quiet, tt.debug)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ cmd, args, want string }{
		{"build", "-race .", "-race is not supported: goanomaly replaces the race detector"},
		{"test", "./... -msan", "-msan is not supported"},
		{"run", "-asan=1 .", "-asan is not supported"},
		{"build", "-nosuch .", "flag provided but not defined: -nosuch"},
		{"run", "-o x .", "flag provided but not defined: -o"},
		{"build", "-tags", "flag needs an argument: -tags"},
		{"run", "", "no go files listed"},
		{"run", "-v", "no go files listed"},
		{"build", "-v -C dir .", "-C flag must be first"},
		{"build", "-deps=foo .", `invalid value "foo" for flag -deps: want none, constructs or all`},
		{"build", "-slice -dormant .", "-slice cannot be combined with -dormant"},
		{"test", ". -deps", "flag needs an argument: -deps"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.cmd, strings.Fields(tt.args))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s %s: error %v, want %q", tt.cmd, tt.args, err, tt.want)
		}
	}
	for _, cmd := range []string{"build", "run", "test"} {
		if _, err := Parse(cmd, []string{"-h"}); !errors.Is(err, ErrHelp) {
			t.Errorf("%s -h: %v, want ErrHelp", cmd, err)
		}
	}
}

func TestParseDeps(t *testing.T) {
	tests := []struct {
		cmd, args string
		want      Deps
		words     string
	}{
		{"build", ".", DepsConstructs, "."},
		{"build", "-deps=none .", DepsNone, "."},
		{"vet", "-deps all ./...", DepsAll, "./..."},
		{"test", ". -run X -deps=all -deps constructs", DepsConstructs, ". -run X"},
		{"run", "-deps=none . -deps=all", DepsNone, "."},
	}
	for _, tt := range tests {
		l, err := Parse(tt.cmd, strings.Fields(tt.args))
		if err != nil {
			t.Errorf("%s %s: %v", tt.cmd, tt.args, err)
			continue
		}
		if l.Deps != tt.want || strings.Join(l.Words(), " ") != tt.words {
			t.Errorf("%s %s: Deps %q, words %q; want %q, %q", tt.cmd, tt.args, l.Deps, l.Words(), tt.want, tt.words)
		}
	}
}

func TestFlagDrop(t *testing.T) {
	l, err := Parse("build", strings.Fields("-overlay o.json -modfile=alt.mod -o x ."))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(l.Words("overlay", "modfile"), " "); got != "-o x ." {
		t.Errorf("Words(overlay, modfile) = %q", got)
	}
	env := []string{"GOFLAGS=-modfile=env.mod -tags=a"}
	if v, _ := l.Effective("modfile", env); v != "alt.mod" {
		t.Errorf("Effective(modfile) = %q, want the command line's", v)
	}
	if v, ok := l.Effective("tags", env); !ok || v != "a" {
		t.Errorf("Effective(tags) = %q, %v, want GOFLAGS's", v, ok)
	}
	if err := CheckGOFLAGS([]string{"GOFLAGS=-v -race"}); err == nil {
		t.Error("CheckGOFLAGS accepted -race")
	}
}
