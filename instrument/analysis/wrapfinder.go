package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// The finder sees a wrapper's Go as a fork and its Wait as the join, as
// wg.Go and wg.Wait (wrappers.go says when a type is a wrapper). The
// wrapper's own methods are synchronization, as sync's are: they get no
// checked clone and no sync fact of their own, and the goroutine their Go
// starts belongs to the construct of the caller.

// wrapPrefix starts the syncObj kind of a wrapper, followed by its type.
const wrapPrefix = "wrap:"

// wrapGo returns the sync kind of a wrapper's Go call, or "".
func (f *finder) wrapGo(call *ast.CallExpr) string {
	if r, ok := f.wraps.role(f.callee(call)); ok && r.kind == "go" && len(call.Args) == 1 {
		return wrapPrefix + r.typ
	}
	return ""
}

// wrapGoErr reports whether a wrapper's Go call runs a func() error.
func (f *finder) wrapGoErr(call *ast.CallExpr) bool {
	r, ok := f.wraps.role(f.callee(call))
	return ok && r.kind == "go" && r.errs
}

// wrapJoins returns the call in e that is the Wait of the wrapper obj
// names, on the same receiver; a Wait whose result is used must return
// error (the rewriter passes it through JoinErr) or be a pool's of the
// table that returns results (rt.Joined, rt.Joined2).
func (f *finder) wrapJoins(e ast.Expr, obj syncObj, stmt bool) *ast.CallExpr {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || !strings.HasPrefix(obj.kind, wrapPrefix) {
		return nil
	}
	r, ok := f.wraps.role(f.callee(call))
	if !ok || r.kind != "wait" || wrapPrefix+r.typ != obj.kind || recvText(call) != obj.expr || (!stmt && !r.errs && !r.valued) {
		return nil
	}
	return call
}

// wrapWait reports whether call is a wrapper's Wait: a barrier when it is
// no construct's join.
func (f *finder) wrapWait(call *ast.CallExpr) bool {
	r, ok := f.wraps.role(f.callee(call))
	return ok && r.kind == "wait"
}

// wrapMethod reports whether fn is a wrapper's Go or Wait.
func (f *finder) wrapMethod(fn *types.Func) bool {
	_, ok := f.wraps.role(fn)
	return ok
}

// dropWrapperGoroutines removes the notes of the goroutines wrappers' Go
// methods start: each is the fork of its caller's construct, whose
// function is checked there (a Go call in no construct is noted at the
// call); the wrapper's own code runs as written, as errgroup's does.
func (f *finder) dropWrapperGoroutines() {
	inGo := map[token.Pos]bool{}
	for fn, d := range f.res.Decls {
		if r, ok := f.wraps.role(fn); ok && r.kind == "go" {
			ast.Inspect(d.Body, func(n ast.Node) bool {
				if g, ok := n.(*ast.GoStmt); ok {
					inGo[g.Pos()] = true
				}
				if c, ok := n.(*ast.CallExpr); ok && r.known != "" && f.goMethod(c) != "" {
					inGo[c.Pos()] = true // a typed pool's Go handing its wrapper of f to the Pool's (knownpools.go)
				}
				return true
			})
		}
	}
	kept := f.res.Notes[:0]
	for _, n := range f.res.Notes {
		if !inGo[n.Pos] {
			kept = append(kept, n)
		}
	}
	f.res.Notes = kept
}

func isExprStmt(s ast.Stmt) bool { _, ok := s.(*ast.ExprStmt); return ok }

// noteRefusedWrappers notes each call of a method that starts a goroutine
// running its function argument, of a type that breaks the wrapper rule:
// the goroutine belongs to no construct, and the user should see why at
// the call, not only at the wrapper's go statement.
func (f *finder) noteRefusedWrappers(files []*ast.File) {
	for _, file := range files {
		ast.Inspect(file, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && f.wraps != nil {
				if fk := f.forkOf[call]; fk != nil && fk.Construct != nil {
					return true // a fork of a construct (errgroup's g.Go, known without its source): checked, whatever the type's source says
				}
				if fn := f.callee(call); fn != nil {
					if why := f.wraps.refused[fn.Origin()]; why != "" {
						f.res.Notes = append(f.res.Notes, Note{Pos: call.Pos(), Msg: types.ExprString(call.Fun) + " starts a goroutine that runs its function, and " + why})
					}
				}
			}
			return true
		})
	}
}
