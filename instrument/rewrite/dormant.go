package rewrite

import (
	"go/token"
	"slices"

	"github.com/dave/dst"

	"github.com/goanomaly/goanomaly/instrument/analysis"
	"github.com/goanomaly/goanomaly/instrument/rtnames"
)

// A dormant binary (Config.Dormant) keeps every root construct twice: the
// checked statements and the statements as the program wrote them, and
// lets rt.Sample pick one at each instance:
//
//	var _ga_c1 *_ga_rt.Construct
//	if _ga_i1 := _ga_rt.Sample(); _ga_i1 != 0 {
//		_ga_c1 = _ga_rt.Enter(nil, n, site)
//		_ga_c1.Sampled(_ga_i1)
//		for … { go func(_ga_k1 *_ga_rt.Task) { … checked … }(_ga_c1.Fork(i)) }
//	} else {
//		for … { go func() { … as written … }() }
//	}
//	wg.Wait()
//	_ga_c1.Join()      // a nil construct joins as a no-op
//
// The join stays after the branch, as rewritten for the checked run (a
// root's join is rewritten in plain code, so only Join is added to it),
// which lets a join that declares names (err := g.Wait()) keep them in
// scope. A construct joined by defer (deferjoin.go) puts the rest of the
// function in both branches. The checked branch is exactly what a checked
// build runs: it calls the checked clones of the functions it reaches and
// forks checked goroutines, so everything nested in a checked root
// instance is checked, and a plain instance's statements reach only the
// program's own functions, nested constructs included, as written.
//
// The plain copy is the original syntax, not rewritten at all, anchored
// line by line with /*line*/ directives; its labels are renamed (labels
// are scoped to the function, and both copies declare them).

// dormantRoot reports whether c gets a dormant branch: a construct of a
// dormant build whose parent runs no checks (a root), whose statements
// before the join declare nothing the code after the join could use.
func (w *walker) dormantRoot(c *analysis.Construct, list []dst.Stmt) bool {
	if !w.cfg.Dormant || w.outer != nil || w.task != "" || w.inClone || w.sampled != nil {
		return false
	}
	if c.Deferred != nil {
		return true
	}
	return !declaresNames(list[:len(list)-1])
}

// dormantTail reports whether root construct c, whose statements before
// the join declare names (dormantRoot is false), gets a dormant branch
// holding the rest of its statement list too, rest: the code after the
// join that may use them. Not when the rest declares a label (a goto
// from before the construct could not jump into the branch).
func (w *walker) dormantTail(c *analysis.Construct, list, rest []dst.Stmt) bool {
	if !w.cfg.Dormant || w.outer != nil || w.task != "" || w.inClone || w.sampled != nil || c.Deferred != nil {
		return false
	}
	if !declaresNames(list[:len(list)-1]) {
		return false
	}
	labels := false
	for _, s := range rest {
		dst.Inspect(s, func(n dst.Node) bool {
			_, l := n.(*dst.LabeledStmt)
			labels = labels || l
			return !labels
		})
	}
	return !labels
}

// dormantWithTail rewrites root construct c (list, its join last) and the
// statements after it, rest, into one dormant branch:
//
//	if _ga_i1 := _ga_rt.Sample(); _ga_i1 != 0 {
//		var _ga_c1 *_ga_rt.Construct
//		… checked construct, join, rest rewritten …
//	} else {
//		… construct, join and rest as written …
//	}
func (w *walker) dormantWithTail(c *analysis.Construct, list, rest []dst.Stmt) []dst.Stmt {
	plain := w.cloneAll(append(slices.Clone(list), rest...))
	v := *w
	v.sampled = c
	out := v.rewriteConstruct(c, list)
	cName := w.constructs[c]
	out = append(out, w.stmts(rest)...)
	if !usesTask(out, cName) {
		return out
	}
	suffix := cName[len("_ga_c"):]
	decls := []dst.Stmt{varStmt(cName, rtnames.Construct)}
	if w.used["_ga_t"+suffix] {
		decls = append(decls, varStmt("_ga_t"+suffix, rtnames.Task))
	}
	return []dst.Stmt{w.branch(suffix, append(decls, out...), plain)}
}

// declaresNames reports whether one of stmts declares a name in the
// enclosing block (x := …, var x …, a label is renamed instead).
func declaresNames(stmts []dst.Stmt) bool {
	for _, s := range stmts {
		switch x := s.(type) {
		case *dst.DeclStmt:
			return true
		case *dst.AssignStmt:
			if x.Tok == token.DEFINE {
				return true
			}
		}
	}
	return false
}

// dormant rewrites root construct c (its statements list, the join last
// unless it is deferred) into the branch between its checked and its
// written copy.
func (w *walker) dormant(c *analysis.Construct, list []dst.Stmt) []dst.Stmt {
	plain := w.cloneAll(list)
	v := *w
	v.sampled = c
	out := v.rewriteConstruct(c, list)
	cName := w.constructs[c]
	if !usesTask(out, cName) {
		return out // elided: every access proven, it runs as written in every build
	}
	suffix := cName[len("_ga_c"):]
	var decls, post []dst.Stmt
	pre := out
	if c.Deferred == nil {
		plain = plain[:len(plain)-1] // the join, which stays after the branch
		at := slices.Index(out, list[len(list)-1])
		if at < 0 {
			panic("internal error: the rewritten join of a construct is not among its statements")
		}
		pre, post = out[:at], out[at:]
		for len(pre) > 0 {
			if _, ok := pre[0].(*dst.DeclStmt); !ok {
				break
			}
			decls, pre = append(decls, pre[0]), pre[1:] // an elided construct's variables (version.go)
		}
		if len(decls) == 0 {
			decls = append(decls, varStmt(cName, rtnames.Construct))
			if w.used["_ga_t"+suffix] {
				decls = append(decls, varStmt("_ga_t"+suffix, rtnames.Task))
			}
		}
	}
	return append(append(decls, w.branch(suffix, pre, plain)), post...)
}

// branch is `if _ga_i1 := _ga_rt.Sample(); _ga_i1 != 0 { checked } else { plain }`;
// plain is the copy as written, its labels renamed and its statements
// anchored to their lines.
func (w *walker) branch(suffix string, checked, plain []dst.Stmt) dst.Stmt {
	renameLabels(plain)
	w.anchorCopy(plain)
	iName := "_ga_i" + suffix
	w.change()
	return &dst.IfStmt{
		Init: &dst.AssignStmt{Lhs: []dst.Expr{dst.NewIdent(iName)}, Tok: token.DEFINE, Rhs: []dst.Expr{w.rtCall(rtnames.Sample)}},
		Cond: &dst.BinaryExpr{X: dst.NewIdent(iName), Op: token.NEQ, Y: &dst.BasicLit{Kind: token.INT, Value: "0"}},
		Body: &dst.BlockStmt{List: checked},
		Else: &dst.BlockStmt{List: plain},
	}
}

// enterStmts is the statement entering construct c (see enter), followed
// in a dormant binary's checked branch by _ga_c1.Sampled(_ga_i1), which
// names the root instance in reports when sampling.
func (w *walker) enterStmts(c *analysis.Construct, cName, tName string, parent dst.Expr, tok token.Token) []dst.Stmt {
	out := []dst.Stmt{w.enter(c, cName, tName, parent, tok)}
	if w.sampled == c {
		iName := "_ga_i" + cName[len("_ga_c"):]
		out = append(out, &dst.ExprStmt{X: &dst.CallExpr{
			Fun:  &dst.SelectorExpr{X: dst.NewIdent(cName), Sel: dst.NewIdent(rtnames.Sampled)},
			Args: []dst.Expr{dst.NewIdent(iName)},
		}})
	}
	return out
}

// varStmt is `var name *_ga_rt.typ`.
func varStmt(name, typ string) dst.Stmt {
	return &dst.DeclStmt{Decl: &dst.GenDecl{Tok: token.VAR, Specs: []dst.Spec{&dst.ValueSpec{
		Names: []*dst.Ident{dst.NewIdent(name)},
		Type:  &dst.StarExpr{X: &dst.SelectorExpr{X: dst.NewIdent(rtAlias), Sel: dst.NewIdent(typ)}},
	}}}}
}

// renameLabels renames the labels stmts declare, and the break, continue
// and goto statements naming them, to _ga_plain_<label>.
func renameLabels(stmts []dst.Stmt) {
	declared := map[string]bool{}
	for _, s := range stmts {
		dst.Inspect(s, func(n dst.Node) bool {
			if l, ok := n.(*dst.LabeledStmt); ok {
				declared[l.Label.Name] = true
			}
			return true
		})
	}
	if len(declared) == 0 {
		return
	}
	for _, s := range stmts {
		dst.Inspect(s, func(n dst.Node) bool {
			switch x := n.(type) {
			case *dst.LabeledStmt:
				x.Label.Name = "_ga_plain_" + x.Label.Name
			case *dst.BranchStmt:
				if x.Label != nil && declared[x.Label.Name] {
					x.Label.Name = "_ga_plain_" + x.Label.Name
				}
			}
			return true
		})
	}
}

// anchorCopy records the statements of every statement list in stmts
// (and stmts themselves) to be anchored to their lines, as the walker
// does for the statements it rewrites: the copy is printed where the
// checked one's lines were added.
func (w *walker) anchorCopy(stmts []dst.Stmt) {
	for _, s := range stmts {
		w.seen(s)
		dst.Inspect(s, func(n dst.Node) bool {
			var list []dst.Stmt
			switch x := n.(type) {
			case *dst.BlockStmt:
				list = x.List
			case *dst.CaseClause:
				list = x.Body
			case *dst.CommClause:
				list = x.Body
			}
			for _, s := range list {
				w.seen(s)
			}
			return true
		})
	}
}
