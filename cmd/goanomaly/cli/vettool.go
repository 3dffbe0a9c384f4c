package cli

import "strings"

// VetTool reports whether args (without the program name) are the go
// command invoking goanomaly as a vet tool, go vet -vettool=$(which
// goanomaly), rather than a goanomaly command. The go command runs a vet
// tool as
//
//	tool -V=full            to identify it, for its build cache
//	tool -flags             to learn the flags it accepts, as JSON
//	tool [flags] unit.cfg   to analyze one package, described by unit.cfg
//
// None of these can be a goanomaly command line, which starts with a
// command name. Main then hands over to unitchecker.Main before parsing
// anything itself.
func VetTool(args []string) bool {
	switch {
	case len(args) == 0:
		return false
	case len(args) == 1 && (args[0] == "-V=full" || args[0] == "-flags"):
		return true
	}
	// Flags, some perhaps with their value in the next argument (-tags x),
	// then the config file.
	return strings.HasSuffix(args[len(args)-1], ".cfg") &&
		(len(args) == 1 || strings.HasPrefix(args[0], "-"))
}
