package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
)

// A construct's model assumes that its goroutines end at the join: every
// block of theirs precedes the parent's code after it, and the next
// instance of the construct starts after all of them. That holds only if
// the join is reached on every path from the forks to the end of the
// function. A return, goto, break or continue that leaves the statements
// from the first fork to the join, or runtime.Goexit among them, lets the
// goroutines outlive the construct: their accesses then race with the
// caller's code, which no tree relates to them, and a construct entered
// again starts a fresh tree. A goto from outside into those statements
// skips the construct's start (or forks again into one already joined).
// Such a construct is unstructured. A panic is not followed: unless it is
// recovered, the program dies with it (docs/static.md says so).

// leaves explains how control can leave list[first:join] other than
// through the join, or enter list[first:join+1] other than through its
// start; it returns "" when neither can happen. body is the function body
// the list belongs to (labels are scoped to it).
// With deferred (a `defer wg.Wait()` join, deferwait.go), returns and
// calls that end the goroutine go through the join and are allowed.
func (f *finder) leaves(body *ast.BlockStmt, list []ast.Stmt, first, join int, deferred bool) string {
	region := list[first : join+1]
	labels := map[*types.Label]bool{}
	for _, s := range region {
		inspectNoLit(s, func(n ast.Node, _ []ast.Node) {
			if l, ok := n.(*ast.LabeledStmt); ok {
				if obj, ok := f.info.Defs[l.Label].(*types.Label); ok {
					labels[obj] = true
				}
			}
		})
	}
	why := ""
	for _, s := range list[first:join] {
		inspectNoLit(s, func(n ast.Node, stack []ast.Node) {
			if why == "" {
				why = f.exit(n, stack, labels, deferred)
			}
		})
	}
	if why != "" || body == nil {
		return why
	}
	inspectNoLit(body, func(n ast.Node, _ []ast.Node) {
		b, ok := n.(*ast.BranchStmt)
		if !ok || b.Tok != token.GOTO || why != "" || region[0].Pos() <= b.Pos() && b.Pos() < region[len(region)-1].End() {
			return
		}
		if obj, ok := f.info.Uses[b.Label].(*types.Label); ok && labels[obj] {
			why = "a goto from outside enters the construct past its start"
		}
	})
	return why
}

// exit explains how n, found inside the construct's statements under
// stack, leaves them before the join, or returns "".
func (f *finder) exit(n ast.Node, stack []ast.Node, labels map[*types.Label]bool, deferred bool) string {
	switch n := n.(type) {
	case *ast.ReturnStmt:
		if deferred {
			return ""
		}
		return "a return leaves the construct before its join; the goroutines outlive it"
	case *ast.CallExpr:
		if w := f.endsGoroutine(n); w != "" && !deferred {
			return w + " ends the parent before the join; the goroutines outlive it"
		}
	case *ast.BranchStmt:
		if n.Tok == token.FALLTHROUGH || n.Label == nil && enclosing(n.Tok, stack) {
			return ""
		}
		if n.Label != nil {
			if obj, ok := f.info.Uses[n.Label].(*types.Label); ok && labels[obj] {
				return ""
			}
		}
		return "a " + n.Tok.String() + " leaves the construct before its join; the goroutines outlive it"
	}
	return ""
}

// enclosing reports whether an unlabelled break or continue finds its
// target on stack: a loop, or for break a switch or select.
func enclosing(tok token.Token, stack []ast.Node) bool {
	for _, n := range stack {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return true
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			if tok == token.BREAK {
				return true
			}
		}
	}
	return false
}

// repeats explains how a worker of a pool can be started more than once
// per iteration of the loop that starts the workers, through a backward
// goto, or returns "". Memory computed from the worker's index belongs to
// one worker only if each index has one worker, so such a pool is refused.
// (A start inside an inner loop, or a loop construct's start under a
// backward goto, keeps the construct: the run time takes a tag per start,
// and the per-iteration proofs ask onePerIteration, which sees both.)
func (f *finder) repeats(loop ast.Stmt, forks []ast.Node) string {
	for _, fk := range forks {
		if gotoRepeats(loop, fk) {
			return "a backward goto can start the worker more than once per iteration"
		}
	}
	return ""
}

// gotoRepeats reports whether a goto under root can run fork again: a goto
// whose label stands before fork while the goto stands after it, or whose
// label is not under root (the label of the loop itself, which restarts
// it; any label further out is a jump out of the construct, which leaves
// refuses).
func gotoRepeats(root ast.Node, fork ast.Node) bool {
	labels := map[string]token.Pos{}
	inspectNoLit(root, func(n ast.Node, _ []ast.Node) {
		if l, ok := n.(*ast.LabeledStmt); ok {
			labels[l.Label.Name] = l.Pos()
		}
	})
	found := false
	inspectNoLit(root, func(n ast.Node, _ []ast.Node) {
		b, ok := n.(*ast.BranchStmt)
		if !ok || b.Tok != token.GOTO {
			return
		}
		l, in := labels[b.Label.Name]
		if !in || l <= fork.Pos() && fork.Pos() < b.Pos() {
			found = true
		}
	})
	return found
}

// inspectNoLit calls visit for every node under root outside function
// literals, with the stack of its ancestors below root.
func inspectNoLit(root ast.Node, visit func(n ast.Node, stack []ast.Node)) {
	var stack []ast.Node
	ast.Inspect(root, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		visit(n, stack)
		stack = append(stack, n)
		return true
	})
}
