// Package gocmd knows the go command's command line: which flags go build,
// go run and go test accept and which of them take a value (copied from
// cmd/go), where the package list starts and ends, GOFLAGS, and how to run
// the go command with its output streamed and its exit status kept.
package gocmd

// Kind says how a flag takes its value.
type Kind uint8

// The kinds of flag.
const (
	Unknown Kind = iota // not a flag of this command
	Bool                // -f or -f=v; never takes the next argument
	Value               // -f v or -f=v
)

// buildFlagKind is cmd/go's AddBuildFlags, AddBuildFlagsNX and AddCoverFlags
// (cmd/go/internal/work/build.go, Go 1.26), shared by build, run, test and vet.
func buildFlagKind(name string) Kind {
	switch name {
	case "a", "n", "x", "v", "asan", "cover", "json", "linkshared", "modcacherw",
		"msan", "race", "trimpath", "work", "buildvcs":
		return Bool
	case "p", "asmflags", "buildmode", "compiler", "covermode", "coverpkg",
		"gcflags", "gccgoflags", "installsuffix", "ldflags", "mod", "modfile",
		"overlay", "pgo", "pkgdir", "tags", "toolexec",
		"debug-actiongraph", "debug-runtime-trace", "debug-trace":
		return Value
	}
	return Unknown
}

// testFlagKind is cmd/go/internal/test/testflag.go's flag set (Go 1.26): the
// build flags (without -json, whose meaning differs), go test's own flags,
// and the flags it forwards to the test binary, also under their test. names.
func testFlagKind(name string) Kind {
	switch name {
	case "c", "json", "artifacts", "benchmem", "failfast", "fullpath", "short":
		return Bool
	case "o", "exec", "vet", "coverprofile":
		return Value
	}
	if k := testBinaryFlagKind(name); k != Unknown {
		return k
	}
	if len(name) > 5 && name[:5] == "test." {
		return testBinaryFlagKind(name[5:])
	}
	return buildFlagKind(name)
}

// testBinaryFlagKind is go test's passFlagToTest table with each flag's kind.
func testBinaryFlagKind(name string) Kind {
	switch name {
	case "artifacts", "benchmem", "failfast", "fullpath", "short", "v":
		return Bool
	case "bench", "benchtime", "blockprofile", "blockprofilerate", "count",
		"coverprofile", "cpu", "cpuprofile", "fuzz", "fuzzminimizetime",
		"fuzztime", "list", "memprofile", "memprofilerate", "mutexprofile",
		"mutexprofilefraction", "outputdir", "parallel", "run", "shuffle", "skip",
		"timeout", "trace":
		return Value
	}
	return Unknown
}

// runFlagKind is go run's flag set: the build flags and -exec.
func runFlagKind(name string) Kind {
	if name == "exec" {
		return Value
	}
	return buildFlagKind(name)
}

// flagKind returns the kind of flag name for the go subcommand cmd.
// goanomaly build also takes -o, as go build does.
func flagKind(cmd, name string) Kind {
	switch cmd {
	case "test":
		return testFlagKind(name)
	case "run":
		return runFlagKind(name)
	case "build":
		if name == "o" {
			return Value
		}
	}
	return buildFlagKind(name)
}

// ownFlagKind is the kind of goanomaly's own flags, which every command takes
// and which the go command never sees.
func ownFlagKind(name string) Kind {
	switch name {
	case "quiet", "keep", "debug", "conservative", "dormant", "slice", "hb":
		return Bool // -debug=file names a file; see Line.Debug
	case "deps":
		return Value
	}
	return Unknown
}

// refused names the go flags that cannot be combined with goanomaly, and why.
func refused(name string) string {
	switch name {
	case "race":
		return "goanomaly replaces the race detector, and the two instrumentations cannot be combined in one binary; use go build -race for a race-detector build"
	case "msan", "asan":
		return "the sanitizer's instrumentation cannot be combined with goanomaly's in one binary; use go build -" + name + " for a sanitizer build"
	}
	return ""
}
