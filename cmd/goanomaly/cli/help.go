package cli

import (
	"fmt"
	"io"
	"os"
)

const topUsage = `goanomaly builds, runs and tests Go programs checked for access anomalies:
data races and schedule-dependent ordering in parallel loops.

Usage:

	goanomaly <command> [arguments]

The commands are:

	build       compile packages and dependencies, checked
	run         compile and run a checked Go program
	test        test packages, checked
	vet         report what the static stage found, without building
	version     print goanomaly's version

Use "goanomaly help <command>" for more information about a command.

Additional help topics:

	environment the GOANOMALY variable, read by checked programs
`

// doc is the help of one command or topic.
type doc struct {
	usage string // the usage line, without "usage: "
	long  string
}

const ownFlags = `
goanomaly's own flags, accepted wherever a go flag is:

	-quiet
		do not print the static stage's notes (constructs it cannot check).
	-debug
		dump the plan (what is checked and why) of each package as JSON to
		standard error; -debug=file writes it to file instead (the file
		then holds only the JSON, one object per package; the build's own
		debug lines stay on standard error).
	-keep
		keep the work directory (rewritten files, overlay, go.mod copy) and
		print its name. -work does the same and is also passed to go.
	-deps=none|constructs|all
		which packages of other modules in the import graph are rewritten
		too: none; every package of each module one of whose packages holds
		a parallel construct (constructs, the default); or every package
		outside the standard library (all). A module from the module cache
		is built from a copy of it (in the user cache directory) that the
		go.mod copy replaces it by; the module cache is only read.

-race, -msan and -asan are refused: goanomaly replaces the race detector,
and the two instrumentations cannot be combined in one binary. The same
holds when GOFLAGS sets them.
`

// commandDoc returns the help of a command or topic.
func commandDoc(name string) doc {
	switch name {
	case "build":
		return doc{"goanomaly build [-o output] [build flags] [packages]", `
Build compiles the packages named by the import paths, like go build, with
every package of the main module (or of the go.work workspace's modules) in
their import graph rewritten to check its parallel loops at run time, and,
as -deps says, the packages of the dependency modules that hold parallel
loops. The standard library is built plain. The build flags and package
patterns are go build's (see 'go help build'); -overlay is merged with
goanomaly's own. The user's source files, go.mod and go.sum are never
written: rewritten files live in a temporary work directory, given to the go
command with -overlay. A package with errors is built as written, so that
the go command reports them; the exit status is the go command's.
` + ownFlags}
	case "run":
		return doc{"goanomaly run [build flags] [-exec xprog] package [arguments...]", `
Run compiles the named main package (a package path, or a list of .go files
of one directory) checked, as goanomaly build does, and runs it with the
arguments that follow, as go run does: everything after the package,
including a "--", is the program's. Unlike go run, goanomaly run exits with
the program's own exit status (66 when the runtime reported a data race, by
default), not 1 and "exit status N".
` + ownFlags}
	case "test":
		return doc{"goanomaly test [build/test flags] [packages] [build/test flags & test binary flags]", `
Test runs go test with the packages under test and the main module's
packages they import checked (and dependencies, as -deps says). Flags are go test's, with the same rules:
known flags before and after the package list, test flags (-run, -count, -v,
-bench, ...) passed on to the test binary, and everything after -args to it
untouched. The exit status is go test's.

After go test, it prints the reports of passing packages whose output go
test hid (package-list mode without -v or -json), and a summary line per
checked test binary (on standard error with -json; none with -quiet).
Checked test binaries are not answered from the test cache.
` + ownFlags}
	case "vet":
		return doc{"goanomaly vet [build flags] [packages]", `
Vet runs the static stage on the packages and prints what it could not check
(notes, with positions), without building. With -debug it dumps each
package's full plan: constructs, accesses, and the verdict for each.
` + ownFlags}
	case "version":
		return doc{"goanomaly version", `
Version prints goanomaly's version, the Go version it was built with, and
the platform.
`}
	case "environment":
		return doc{"GOANOMALY='option=value ...' ./checked-program", `
A checked program reads options from the GOANOMALY environment variable, a
space-separated list of option=value:

	log_path=file      write reports to file.<pid> instead of standard error
	halt_on_error=1    exit after the first report
	exitcode=66        exit status when a data race was reported
	format=text|json|sarif
	                   report format (sarif: one SARIF 2.1.0 log at exit)
	protocol=waitfree|locked
	                   waitfree (atomic swaps, at least one report per
	                   anomalous variable) or locked (a lock per location,
	                   the exact pairs)
	nondet=error       make NONDETERMINISM reports set the exit status too
	atomics=1          report conflicting atomic operations as NONDETERMINISM
	summary=1          print a summary of what was checked at exit
	max_shadow=N       shadow cells per tree before new addresses go unchecked

A binary built with -dormant runs as written unless told otherwise:

	check=1            check every root construct instance
	check=0            check none (the default), whatever sample says
	sample=P           check a fraction P (0 to 1) of root construct
	                   instances, each with everything nested in it; reports
	                   name the instance, and the closing lines count the
	                   instances checked and skipped
	sample_seed=N      the seed of sample's choice: the same seed and the
	                   same sequence of root instances choose the same ones

goanomaly itself reads GOANOMALYCACHE: the directory (absolute) it writes
the runtime's copy to, instead of goanomaly in the user cache directory.
`}
	}
	return doc{}
}

// help prints the help of a command, or the command list.
func help(args []string, w io.Writer) int {
	if len(args) == 0 {
		usage(w)
		return 0
	}
	if len(args) > 1 {
		fmt.Fprintln(os.Stderr, "usage: goanomaly help command\n\nToo many arguments given.")
		return 2
	}
	d := commandDoc(args[0])
	if d.usage == "" {
		fmt.Fprintf(os.Stderr, "goanomaly help %s: unknown help topic. Run 'goanomaly help'.\n", args[0])
		return 2
	}
	fmt.Fprintf(w, "usage: %s\n%s", d.usage, d.long)
	return 0
}
