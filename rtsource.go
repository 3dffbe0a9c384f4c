// Package goanomaly carries the source of the runtime package rt inside the
// goanomaly command, so that a build of any other module can import rt
// without a network fetch and without a write to the user's tree (see
// instrument/overlay, which writes it out once to a stable cache directory).
package goanomaly

import (
	"embed"
	"io/fs"
)

// ModulePath is the module path of goanomaly; the runtime that checked code
// imports is RuntimePath inside it.
const ModulePath = "github.com/goanomaly/goanomaly"

// RuntimePath is the import path of the runtime package linked into checked
// programs.
const RuntimePath = ModulePath + "/rt"

// source holds go.mod (for the language version rt is written in) and the
// rt tree. Test files and testdata are filtered out when it is written.
//
//go:embed go.mod rt
var source embed.FS

// Source returns the embedded files: go.mod and rt/... of this module.
func Source() fs.FS { return source }
