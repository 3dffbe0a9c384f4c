package analysis

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"
)

// Before go1.22 a loop variable is one variable for the whole loop, and the
// loop writes it at each iteration. findShared then leaves a captured loop
// variable shared, so its reads are checked; the write of a three-clause
// loop is its post statement (i++), which the rewriter checks like any
// statement of the parent. The write of a range loop (for k, v := range x)
// is implicit: nothing in the rewritten code checks it, so a construct
// whose goroutines may read such a variable is refused with a note that
// names the file's version.

// demoteOldRangeVars turns each construct that forks inside a range loop of
// a file older than go1.22, whose key or value variable a closure captures,
// into unchecked goroutines with a note.
func (f *finder) demoteOldRangeVars() {
	f.demote(func(c *Construct) string {
		for _, fk := range c.Forks {
			if reason := f.oldRangeVar(fk.Node); reason != "" {
				return reason
			}
		}
		return ""
	})
}

// oldRangeVar says why a goroutine started at n may read a range variable
// that its loop overwrites unchecked, or "".
func (f *finder) oldRangeVar(n ast.Node) string {
	for _, file := range f.files {
		if n.Pos() < file.Pos() || n.End() > file.End() || PerIterationLoopVars(f.info, file) {
			continue
		}
		path, _ := astutil.PathEnclosingInterval(file, n.Pos(), n.End())
		for _, p := range path {
			rs, ok := p.(*ast.RangeStmt)
			if !ok || rs.Tok != token.DEFINE {
				continue
			}
			for _, e := range []ast.Expr{rs.Key, rs.Value} {
				id, ok := e.(*ast.Ident)
				if !ok {
					continue
				}
				if v, ok := f.info.Defs[id].(*types.Var); ok && f.res.Shared[v] {
					return fmt.Sprintf("the file's language version is %s: range variable %s is one variable for the whole loop, and the loop's writes of it are not checked", f.info.FileVersions[file], v.Name())
				}
			}
		}
	}
	return ""
}
