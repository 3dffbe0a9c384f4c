package rewrite

import (
	"go/token"
	"strings"

	"github.com/dave/dst"

	"github.com/goanomaly/goanomaly/instrument/rtnames"
)

// A goto may jump forward past a construct in its own block:
//
//	if len(out) == 0 {
//		goto done
//	}
//	for i := range out { wg.Go(…) }
//	wg.Wait()
//	done:
//
// Go refuses a goto that jumps over a variable declaration of the block its
// label is in, and the construct's rewrite declares its variables there
// (_ga_c1, _ga_t1 := _ga_rt.Begin(…), or var _ga_c1 *_ga_rt.Construct
// before a guard's branch): every build that checked the construct failed
// ("goto done jumps over declaration of _ga_c1"). In a file with a goto,
// declareFirst moves those declarations to the start of the statement list,
// before any goto of it, and leaves their assignments where they were. The
// variables are the rewrite's own (no user code names them, each name is
// declared once in a file), so declaring them earlier changes nothing else.

// declareFirst returns stmts with the construct variables they declare at
// their top level declared first: var _ga_… *_ga_rt.T moves as it is, and
// _ga_c1[, _ga_t1] := _ga_rt.Enter/Begin(…) becomes var declarations first
// and an assignment in place.
func declareFirst(stmts []dst.Stmt) []dst.Stmt {
	var decls, rest []dst.Stmt
	for _, s := range stmts {
		switch x := s.(type) {
		case *dst.DeclStmt:
			if rewriteVar(x) {
				decls = append(decls, x)
				continue
			}
		case *dst.AssignStmt:
			if types := constructResults(x); types != nil {
				for i, l := range x.Lhs {
					decls = append(decls, varStmt(l.(*dst.Ident).Name, types[i]))
				}
				x.Tok = token.ASSIGN
			}
		}
		rest = append(rest, s)
	}
	if len(decls) == 0 {
		return stmts
	}
	return append(decls, rest...)
}

// rewriteVar reports whether d is var _ga_name *_ga_rt.T, with no value.
func rewriteVar(d *dst.DeclStmt) bool {
	g, ok := d.Decl.(*dst.GenDecl)
	if !ok || g.Tok != token.VAR {
		return false
	}
	for _, sp := range g.Specs {
		vs, ok := sp.(*dst.ValueSpec)
		if !ok || len(vs.Values) > 0 {
			return false
		}
		for _, n := range vs.Names {
			if !strings.HasPrefix(n.Name, "_ga_") {
				return false
			}
		}
	}
	return true
}

// constructResults returns the rt types of the variables a, an assignment
// _ga_c1 := _ga_rt.Enter(…) or _ga_c1, _ga_t1 := _ga_rt.Begin(…), declares;
// nil for any other statement.
func constructResults(a *dst.AssignStmt) []string {
	if a.Tok != token.DEFINE || len(a.Rhs) != 1 {
		return nil
	}
	call, ok := a.Rhs[0].(*dst.CallExpr)
	if !ok {
		return nil
	}
	sel, ok := call.Fun.(*dst.SelectorExpr)
	if !ok {
		return nil
	}
	if x, ok := sel.X.(*dst.Ident); !ok || x.Name != rtAlias {
		return nil
	}
	var types []string
	switch sel.Sel.Name {
	case rtnames.Enter:
		types = []string{rtnames.Construct}
	case rtnames.Begin:
		types = []string{rtnames.Construct, rtnames.Task}
	default:
		return nil
	}
	if len(a.Lhs) != len(types) {
		return nil
	}
	for _, l := range a.Lhs {
		if id, ok := l.(*dst.Ident); !ok || !strings.HasPrefix(id.Name, "_ga_") {
			return nil
		}
	}
	return types
}
