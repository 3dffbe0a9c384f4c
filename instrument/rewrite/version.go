package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/dave/dst"

	"github.com/goanomaly/goanomaly/instrument/analysis"
	"github.com/goanomaly/goanomaly/instrument/plan"
	"github.com/goanomaly/goanomaly/instrument/rtnames"
)

// This file runs a construct in two versions when some of its heap proofs
// hold only if certain slices do not overlap (analysis.HeapProof.Guard):
//
//	if _ga_rt.GuardR(_ga_rt.GuardW(_ga_rt.NewGuard(), next), cur).Disjoint() {
//		for … { go func(…) { next[k] = cur[k-1] + cur[k+1] } }   // proven accesses unchecked
//	} else {
//		for … { go func(…) { *_ga_rt.W(…, &next[k], …) = … } }    // everything checked
//	}
//
// The guard costs one pass over the slice headers (a sort for the rows of
// a [][]T) at the construct's start.

// heapProof returns the heap proofs that apply to the code being rewritten:
// those of the root construct of this function, never in a clone (whose
// caller's construct the proofs know nothing of) or a nested construct.
func (w *walker) heapProof() *analysis.HeapProof {
	if w.checksAll() {
		return nil
	}
	return w.provenHeap()
}

// provenHeap is heapProof whatever the build checks.
func (w *walker) provenHeap() *analysis.HeapProof {
	if w.spec != nil {
		return w.spec // a callback's pruned copy (specialize.go)
	}
	if w.cur == nil || w.cur != w.outer || w.inClone {
		return nil
	}
	return w.res.Heap(w.cur)
}

// heapVerdict returns the proof that the access a (read when fn is R)
// needs no check in the version being rewritten.
func (w *walker) heapVerdict(a ast.Expr, fn string) (analysis.HeapVerdict, bool) {
	return w.heapVerdictOf(w.heapProof(), a, fn)
}

// heapVerdictOf returns p's proof that the access a needs no check.
func (w *walker) heapVerdictOf(p *analysis.HeapProof, a ast.Expr, fn string) (analysis.HeapVerdict, bool) {
	if p == nil {
		return analysis.HeapVerdict{}, false
	}
	v, ok := p.Verdict(a)
	if !ok || (v.Guarded && !w.guarded) || (!v.Independent && fn != rtnames.R) {
		return analysis.HeapVerdict{}, false
	}
	return v, true
}

// recordHeap records a heap proof in the plan.
func (w *walker) recordHeap(a ast.Expr, fn string, v analysis.HeapVerdict) {
	verdict := plan.ReadOnly
	if v.Independent {
		verdict = plan.Independent
	}
	w.record(a, fn, verdict, v.Why)
}

// movable reports whether a construct's statements can be put in the
// branches of an if: they declare no label of the function (a copy would
// declare it twice; one in a function literal, a goroutine's body, is the
// literal's own, and each copy has its copy), and none after the first
// declares a name the code after the join could use.
func movable(stmts []dst.Stmt) bool {
	for k, s := range stmts {
		labels := false
		dst.Inspect(s, func(n dst.Node) bool {
			switch n.(type) {
			case *dst.LabeledStmt:
				labels = true
			case *dst.FuncLit:
				return false
			}
			return !labels
		})
		if labels {
			return false
		}
		if k == 0 {
			continue
		}
		switch x := s.(type) {
		case *dst.DeclStmt:
			return false
		case *dst.AssignStmt:
			if x.Tok == token.DEFINE {
				return false
			}
		}
	}
	return true
}

// usesTask reports whether the rewritten statements use any of the task
// variables names (other than declaring them as a goroutine's parameter):
// whether they check anything, call a checked clone, or track a lock.
func usesTask(stmts []dst.Stmt, names ...string) bool {
	declared := map[*dst.Ident]bool{}
	used := false
	for _, s := range stmts {
		dst.Inspect(s, func(n dst.Node) bool {
			switch x := n.(type) {
			case *dst.Field:
				for _, id := range x.Names {
					declared[id] = true
				}
			case *dst.Ident:
				if !declared[x] && slices.Contains(names, x.Name) {
					used = true
				}
			}
			return !used
		})
	}
	return used
}

// elide returns a construct whose pruned version checks nothing, written
// as the program wrote it: no tree, no forks, no join. With a guard, the
// checked version still runs when the guard fails:
//
//	var _ga_c1 *_ga_rt.Construct
//	if guard { <the statements as written> } else { _ga_c1 = _ga_rt.Enter(…); <checked> }
//	wg.Wait()
//	_ga_c1.Join()
func (w *walker) elide(c *analysis.Construct, plain, checked []dst.Stmt, guard []analysis.GuardSpan, join dst.Stmt, parent dst.Expr) []dst.Stmt {
	cName := w.constructs[c]
	tName := "_ga_t" + cName[len("_ga_c"):]
	as := w.with("")
	as.silent, as.cur = true, nil
	w.constructs[c] = "" // its forks are plain goroutines in this copy
	for _, s := range plain {
		w.seen(s)
		as.stmt(s)
	}
	w.constructs[c] = cName
	if len(guard) == 0 {
		return append(plain, join)
	}
	rtType := func(name string) dst.Expr {
		return &dst.StarExpr{X: &dst.SelectorExpr{X: dst.NewIdent(rtAlias), Sel: dst.NewIdent(name)}}
	}
	decl := func(name, typ string) dst.Stmt {
		return &dst.DeclStmt{Decl: &dst.GenDecl{Tok: token.VAR, Specs: []dst.Spec{&dst.ValueSpec{Names: []*dst.Ident{dst.NewIdent(name)}, Type: rtType(typ)}}}}
	}
	out := []dst.Stmt{decl(cName, rtnames.Construct)}
	if w.used[tName] {
		out = append(out, decl(tName, rtnames.Task))
	}
	else_ := append(w.enterStmts(c, cName, tName, parent, token.ASSIGN), checked...)
	out = append(out, &dst.IfStmt{Cond: w.guardExpr(guard), Body: &dst.BlockStmt{List: plain}, Else: &dst.BlockStmt{List: else_}})
	return append(out, w.joined(c, join, cName)...)
}

// cloneAll copies statements with cloneMapped.
func (w *walker) cloneAll(stmts []dst.Stmt) []dst.Stmt {
	out := make([]dst.Stmt, len(stmts))
	for i, s := range stmts {
		out[i] = w.cloneMapped(s)
	}
	return out
}

// guardExpr builds p != nil && … && _ga_rt.GuardX(…(_ga_rt.NewGuard(), s)…).Disjoint():
// the paths are evaluated only when every pointer on them is non-nil (a
// nil one makes the checked version run, which dereferences it as the
// program does).
func (w *walker) guardExpr(spans []analysis.GuardSpan) dst.Expr {
	g := dst.Expr(w.rtCall(rtnames.NewGuard))
	var nils []ast.Expr
	var conds []dst.Expr    // conditions on values (a row x*w+t does not wrap), tested first
	var condNils []ast.Expr // the pointers those conditions read through, tested before them
	condSeen := map[string]bool{}
	condKeys := map[string]bool{} // each condition once: go test's vet fails a package on "redundant and"
	seen := map[string]bool{}
	for _, s := range spans {
		if s.Cond != nil {
			for _, c := range conjuncts(s.Cond) {
				if k := types.ExprString(c); !condKeys[k] {
					condKeys[k] = true
					conds = append(conds, exprFromAST(c))
					condNils = append(condNils, w.pointersIn(c, condSeen)...)
				}
			}
			continue
		}
		fn := map[[2]bool]string{{false, false}: rtnames.GuardR, {false, true}: rtnames.GuardW, {true, false}: rtnames.GuardRowsR, {true, true}: rtnames.GuardRowsW}[[2]bool{s.Rows, s.Write}]
		if s.Rows && s.Depth > 1 {
			fn = map[bool]string{false: rtnames.GuardPlanesR, true: rtnames.GuardPlanesW}[s.Write]
		}
		switch {
		case s.Rows && s.Lo != nil:
			g = w.rtCall(rtnames.GuardRowsWRange, g, exprFromAST(s.Path), exprFromAST(s.Lo), exprFromAST(s.Hi))
		case s.Cells && s.Sel != nil:
			g = w.rtCall(rtnames.GuardInjectiveCellsOf, g, exprFromAST(s.Path), exprFromAST(s.Sel), zeroOf(s.Elem))
		case s.Cells:
			g = w.rtCall(rtnames.GuardInjectiveCells, g, exprFromAST(s.Path), zeroOf(s.Elem))
		case s.Injective:
			g = w.rtCall(rtnames.GuardInjective, g, exprFromAST(s.Path))
		case s.Len:
			g = w.rtCall(rtnames.GuardRLen, g, exprFromAST(s.Path))
		case s.Lo != nil:
			g = w.rtCall(rtnames.GuardWRange, g, exprFromAST(s.Path), exprFromAST(s.Lo), exprFromAST(s.Hi))
		default:
			g = w.rtCall(fn, g, exprFromAST(s.Path))
		}
		paths := []ast.Expr{s.Path}
		if s.Sel != nil {
			paths = append(paths, s.Sel)
		}
		if s.Lo != nil {
			paths = append(paths, s.Lo, s.Hi)
		}
		for _, e := range paths {
			nils = append(nils, w.pointersIn(e, seen)...)
		}
	}
	// The terms in the order they must be tested, joined left to right
	// (a && b && c parses as (a && b) && c, so it prints without parens).
	var terms []dst.Expr
	for _, p := range condNils {
		terms = append(terms, &dst.BinaryExpr{X: exprFromAST(p), Op: token.NEQ, Y: dst.NewIdent("nil")})
	}
	for _, c := range conds {
		terms = append(terms, &dst.ParenExpr{X: c})
	}
	for _, p := range nils {
		terms = append(terms, &dst.BinaryExpr{X: exprFromAST(p), Op: token.NEQ, Y: dst.NewIdent("nil")})
	}
	terms = append(terms, &dst.CallExpr{Fun: &dst.SelectorExpr{X: g, Sel: dst.NewIdent(rtnames.Disjoint)}})
	cond := terms[0]
	for _, t := range terms[1:] {
		cond = &dst.BinaryExpr{X: cond, Op: token.LAND, Y: t}
	}
	return cond
}

// conjuncts splits e at its top-level &&s.
func conjuncts(e ast.Expr) []ast.Expr {
	if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && b.Op == token.LAND {
		return append(conjuncts(b.X), conjuncts(b.Y)...)
	}
	return []ast.Expr{e}
}

// zeroOf is a zero of the basic type under t, T(0), which tells the
// runtime the size of the cells a cells guard reads.
func zeroOf(t types.Type) dst.Expr {
	b := t.Underlying().(*types.Basic)
	return &dst.CallExpr{Fun: dst.NewIdent(b.Name()), Args: []dst.Expr{&dst.BasicLit{Kind: token.INT, Value: "0"}}}
}

// pointersOn lists the pointers a guard path goes through (p of p.f.g),
// outermost first, that are not in seen yet: each must be non-nil for the
// guard to evaluate the path.
func (w *walker) pointersOn(path ast.Expr, seen map[string]bool) []ast.Expr {
	var nils []ast.Expr
	for e := path; ; {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			break
		}
		e = sel.X
		if _, ptr := underlying(w.info.TypeOf(e)).(*types.Pointer); ptr && !seen[types.ExprString(e)] {
			seen[types.ExprString(e)] = true
			nils = append([]ast.Expr{e}, nils...)
		}
	}
	return nils
}

// pointersIn lists the pointers a guard's condition or path reads through
// (the paths analysis.pathAtStart puts in it, m.nodes and *width: the
// program's own nodes, whose types are known), each once, a pointer after
// the ones reading it needs (pp before *pp in (*pp).n and **pp): the
// guard tests them in this order.
func (w *walker) pointersIn(cond ast.Expr, seen map[string]bool) []ast.Expr {
	var nils []ast.Expr
	ast.Inspect(cond, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			nils = append(nils, w.pointersIn(x.X, seen)...)
			nils = append(nils, w.pointersOn(x, seen)...)
			return false
		case *ast.StarExpr:
			nils = append(nils, w.pointersIn(x.X, seen)...)
			if _, ptr := underlying(w.info.TypeOf(x.X)).(*types.Pointer); ptr && !seen[types.ExprString(x.X)] {
				seen[types.ExprString(x.X)] = true
				nils = append(nils, x.X)
			}
			return false
		}
		return true
	})
	return nils
}

// cloneMapped copies s, and maps each node of the copy to the original's
// syntax node, so the copy is rewritten with the same type information.
func (w *walker) cloneMapped(s dst.Stmt) dst.Stmt {
	c := dst.Clone(s).(dst.Stmt)
	var from, to []dst.Node
	dst.Inspect(s, func(n dst.Node) bool {
		if n != nil {
			from = append(from, n)
		}
		return true
	})
	dst.Inspect(c, func(n dst.Node) bool {
		if n != nil {
			to = append(to, n)
		}
		return true
	})
	for i, n := range from {
		if a, ok := w.dec.Ast.Nodes[n]; ok && i < len(to) {
			w.dec.Ast.Nodes[to[i]] = a
		}
	}
	return c
}
