package rewrite

import (
	"fmt"
	"go/ast"
	"go/token"

	"github.com/dave/dst"
	"github.com/dave/dst/decorator"

	"github.com/goanomaly/goanomaly/instrument/analysis"
)

// walker rewrites the statements and expressions of one function body.
// task is the name of the task variable in scope, or "" where code runs
// outside any construct and nothing is checked.
type walker struct {
	*fileRewriter
	dec        *decorator.Decorator
	task       string
	constructs map[*analysis.Construct]string // construct → its variable name
	used       map[string]bool                // task variables referenced
	stmtsSeen  *[]dst.Stmt                    // original statements, for line directives
	touched    *bool                          // the function changed
}

func (fr *fileRewriter) walker(dec *decorator.Decorator, task string) *walker {
	touched := false
	return &walker{fileRewriter: fr, dec: dec, task: task, constructs: map[*analysis.Construct]string{}, used: map[string]bool{}, touched: &touched, stmtsSeen: new([]dst.Stmt)}
}

// with returns a walker for a nested region whose checks use task.
func (w *walker) with(task string) *walker {
	v := *w
	v.task = task
	return &v
}

func (w *walker) astOf(n dst.Node) ast.Node { return w.dec.Ast.Nodes[n] }

// changed records a rewrite in the current function.
func (w *walker) change() {
	*w.touched = true
	w.fileRewriter.changed = true
}

// taskExpr is the task to pass: the variable in scope, or nil.
func (w *walker) taskExpr() dst.Expr {
	if w.task == "" {
		return dst.NewIdent("nil")
	}
	w.used[w.task] = true
	return dst.NewIdent(w.task)
}

// funcBody rewrites a function's body and, if anything changed, anchors
// each original statement to its line.
func (w *walker) funcBody(b *dst.BlockStmt) {
	w.block(b)
	if *w.touched {
		w.anchor()
	}
}

// anchor puts a /*line file:line:col*/ directive before every original
// statement seen, so the lines that rewriting adds shift nothing.
func (w *walker) anchor() {
	for _, s := range *w.stmtsSeen {
		a := w.astOf(s)
		if a == nil {
			continue
		}
		p := w.pkg.Fset.Position(a.Pos())
		s.Decorations().Before = dst.NewLine // the directive must sit right before the statement
		s.Decorations().Start.Append(fmt.Sprintf("/*line %s:%d:%d*/", p.Filename, p.Line, p.Column))
	}
}

func (w *walker) block(b *dst.BlockStmt) {
	if b != nil {
		b.List = w.stmts(b.List)
	}
}

// stmts rewrites a statement list, including the constructs that start in it.
func (w *walker) stmts(list []dst.Stmt) []dst.Stmt {
	var out []dst.Stmt
	for i := 0; i < len(list); i++ {
		if c := w.constructAt(list[i]); c != nil {
			n := c.Join - c.First
			out = append(out, w.construct(c, list[i:i+n+1])...)
			i += n
			continue
		}
		w.seen(list[i])
		w.stmt(list[i])
		out = append(out, list[i])
	}
	return out
}

func (w *walker) constructAt(s dst.Stmt) *analysis.Construct {
	a, _ := w.astOf(s).(ast.Stmt)
	if a == nil {
		return nil
	}
	for _, c := range w.res.Constructs {
		if c.List[c.First] == a {
			return c
		}
	}
	return nil
}

// seen records a statement of a statement list, to anchor to its line.
func (w *walker) seen(s dst.Stmt) {
	if w.astOf(s) != nil {
		*w.stmtsSeen = append(*w.stmtsSeen, s)
	}
}

func (w *walker) stmt(s dst.Stmt) {
	switch s := s.(type) {
	case *dst.AssignStmt:
		w.assign(s)
	case *dst.IncDecStmt:
		s.X = w.lval(s.X, opRW)
	case *dst.ExprStmt:
		s.X = w.rval(s.X)
	case *dst.GoStmt:
		w.goStmt(s)
	case *dst.DeferStmt:
		s.Call = w.call(s.Call).(*dst.CallExpr)
	case *dst.ReturnStmt:
		w.rvals(s.Results)
	case *dst.SendStmt:
		s.Chan, s.Value = w.rval(s.Chan), w.rval(s.Value)
	case *dst.DeclStmt:
		if g, ok := s.Decl.(*dst.GenDecl); ok {
			for _, sp := range g.Specs {
				if vs, ok := sp.(*dst.ValueSpec); ok {
					w.rvals(vs.Values)
				}
			}
		}
	case *dst.LabeledStmt:
		w.stmt(s.Stmt)
	case *dst.BlockStmt:
		w.block(s)
	case *dst.IfStmt:
		w.optStmt(s.Init)
		s.Cond = w.rval(s.Cond)
		w.block(s.Body)
		w.optStmt(s.Else)
	case *dst.ForStmt:
		w.optStmt(s.Init)
		if s.Cond != nil {
			s.Cond = w.rval(s.Cond)
		}
		w.optStmt(s.Post)
		w.block(s.Body)
	case *dst.RangeStmt:
		w.rangeStmt(s)
	case *dst.SwitchStmt:
		w.optStmt(s.Init)
		if s.Tag != nil {
			s.Tag = w.rval(s.Tag)
		}
		w.clauses(s.Body)
	case *dst.TypeSwitchStmt:
		w.optStmt(s.Init)
		w.optStmt(s.Assign)
		w.clauses(s.Body)
	case *dst.SelectStmt:
		w.clauses(s.Body)
	}
}

func (w *walker) optStmt(s dst.Stmt) {
	if s != nil {
		w.stmt(s)
	}
}

func (w *walker) clauses(b *dst.BlockStmt) {
	for _, c := range b.List {
		switch c := c.(type) {
		case *dst.CaseClause:
			w.rvals(c.List)
			c.Body = w.stmts(c.Body)
		case *dst.CommClause:
			w.optStmt(c.Comm)
			c.Body = w.stmts(c.Body)
		}
	}
}

func (w *walker) assign(s *dst.AssignStmt) {
	w.rvals(s.Rhs)
	switch s.Tok {
	case token.DEFINE:
		for i, l := range s.Lhs {
			if id, ok := w.astOf(l).(*ast.Ident); ok && w.info.Defs[id] == nil && id.Name != "_" {
				s.Lhs[i] = w.lval(l, opW) // redeclared in a :=
			}
		}
	case token.ASSIGN:
		for i, l := range s.Lhs {
			s.Lhs[i] = w.lval(l, opW)
		}
	default: // op-assign
		s.Lhs[0] = w.lval(s.Lhs[0], opRW)
	}
}

// rangeStmt rewrites a range loop. A shared slice or array ranged over with
// a value variable is read element by element: the loop body starts with a
// check of X[key].
func (w *walker) rangeStmt(s *dst.RangeStmt) {
	a, _ := w.astOf(s).(*ast.RangeStmt)
	if s.Tok == token.ASSIGN {
		if s.Key != nil {
			s.Key = w.lval(s.Key, opW)
		}
		if s.Value != nil {
			s.Value = w.lval(s.Value, opW)
		}
	}
	var elem dst.Stmt
	if w.task != "" && a != nil && a.Value != nil && s.Tok == token.DEFINE {
		elem = w.rangeElemCheck(a, s)
	}
	s.X = w.rangeX(s.X)
	w.block(s.Body)
	if elem != nil {
		s.Body.List = append([]dst.Stmt{elem}, s.Body.List...)
		w.change()
	}
}
