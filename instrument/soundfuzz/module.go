package soundfuzz

import (
	"fmt"
	"strings"
)

// viewSource is the module's other package: a reinterpretation through
// unsafe that the construct's own package does not import.
const viewSource = `// Package view reinterprets memory.
package view

import "unsafe"

// Float32s returns u's elements as float32s, sharing u's memory.
func Float32s(u []uint32) []float32 {
	if len(u) == 0 {
		return nil
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(&u[0])), len(u))
}
`

// Module returns the files, by slash path, of module mod holding progs
// (built for mod) as packages pkgs, the view package they may import, and
// a command cmd/fz that runs the program its first argument names.
// syncVersion and syncSum are the golang.org/x/sync version to require and
// its go.sum lines, so the module builds from the module cache. It is
// exported for the other harnesses that build generated programs (the
// sliced build's differential test, bench/slicediff).
func Module(mod string, progs []*Program, pkgs []string, syncVersion, syncSum string) map[string]string {
	files := map[string]string{
		"go.mod":       "module " + mod + "\n\ngo 1.26\n\nrequire golang.org/x/sync " + syncVersion + "\n",
		"go.sum":       syncSum,
		"view/view.go": viewSource,
	}
	var main strings.Builder
	main.WriteString("package main\n\nimport (\n\t\"os\"\n\n")
	for _, pkg := range pkgs {
		fmt.Fprintf(&main, "\t%q\n", mod+"/"+pkg)
	}
	main.WriteString(")\n\nfunc main() {\n\tswitch os.Args[1] {\n")
	for _, pkg := range pkgs {
		fmt.Fprintf(&main, "\tcase %q:\n\t\t%s.Main()\n", pkg, pkg)
	}
	main.WriteString("\t}\n}\n")
	files["cmd/fz/main.go"] = main.String()
	for i, p := range progs {
		files[pkgs[i]+"/prog.go"] = string(p.Source)
	}
	return files
}
