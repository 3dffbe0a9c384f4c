package analysis

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
)

// An element a[k*w+d] that a worker touches in its items is checked in the
// worker's own block (workerblock.go), but the worker touches it only if
// it gets an item: when the pool also reaches a otherwise (a[it] in an
// item, a[0] after the loop, a passed on), whether the two meet depends on
// which worker took which item. Four workers, two items that read a[it]
// and add to a[w]: in a run where worker 3 takes both, nothing writes
// a[0] or a[1], and the conflict (worker 1 takes item 0 while worker 0
// reads a[1] in item 1) is not seen. The access stays in the worker's block
// (checking it per item would report two items of one worker, which no
// schedule runs together), and a note says that its conflicts are seen
// only in the schedules that show them (Coarse: still checked).
// A worker-form access of the same element before the item loop, at the
// top of the worker's body and at least as strong (a write for a write),
// runs in every worker whatever the items: it stands for the item's, and
// no note is needed.

// noteWorkerReach adds the notes of noteReach to the package's. It runs
// after Link, when what the workers own is known.
func (r *Result) noteWorkerReach() {
	if len(r.ownership().notes) == 0 {
		return
	}
	r.Notes = append(r.Notes, r.owned.notes...)
	sort.Slice(r.Notes, func(i, j int) bool { return r.Notes[i].Pos < r.Notes[j].Pos })
}

// noteReach adds to o.notes the note for root, whose worker-form uses
// are us (bases a[k*w+d], marked when in the items), when some use of
// root in construct c is of another form and one side writes.
func (r *Result) noteReach(c *Construct, root *types.Var, us []wuse, o *workerOwnership) {
	info := r.finder.info
	workerForm := map[*ast.IndexExpr]bool{}
	var inItems []*ast.IndexExpr
	for _, u := range us {
		if u.base == nil {
			continue
		}
		workerForm[u.base] = true
		if u.mark {
			inItems = append(inItems, u.base)
		}
	}
	var other ast.Expr
	otherWrites, helper := false, false
	for _, n := range r.constructCode(c) {
		var stack []ast.Node
		ast.Inspect(n, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return false
			}
			defer func() { stack = append(stack, n) }()
			id, ok := n.(*ast.Ident)
			if !ok || info.Uses[id] != root {
				return true
			}
			var parent ast.Node
			if len(stack) > 0 {
				parent = stack[len(stack)-1]
			}
			switch p := parent.(type) {
			case *ast.IndexExpr:
				if p.X == id && workerForm[p] {
					return true
				}
				if p.X == id {
					if other == nil {
						other = p
					}
					otherWrites = otherWrites || r.writtenLoc(p, c)
					return true
				}
			case *ast.CallExpr:
				if n := builtinName(p, info); n == "len" || n == "cap" {
					return true
				}
				if o.block[p] {
					helper = true // a helper indexing it by the worker's index, in an item: may write
					return true
				}
			}
			if other == nil {
				other = id
			}
			otherWrites = true // passed on, sliced, ranged: may be written
			return true
		})
	}
	if other == nil {
		return
	}
	itemWrites := helper
	uncovered := helper
	for _, b := range inItems {
		w := r.writtenLoc(b, c)
		if !r.coveredBefore(b, w, us, c) {
			uncovered = true
			itemWrites = itemWrites || w
		}
	}
	if !uncovered || !itemWrites && !otherWrites {
		return // every item use has a twin as strong that every worker runs
	}
	at := ast.Expr(other)
	if len(inItems) > 0 {
		at = inItems[0]
	}
	o.notes = append(o.notes, Note{Pos: at.Pos(), Coarse: true,
		Msg: "worker pool: " + types.ExprString(at) + " is checked in the worker's own block, which only a worker that takes an item reaches, and the pool also reaches " +
			root.Name() + " as " + types.ExprString(other) + ": their conflicts are seen only in runs where another worker takes the item that meets the element"})
}

// coveredBefore reports whether the item use b (written when w) has a
// twin every worker runs: the same k*w+d, written when b is, in a
// statement at the top of the worker's body before its item loop.
func (r *Result) coveredBefore(b *ast.IndexExpr, w bool, us []wuse, c *Construct) bool {
	var mine wuse
	for _, u := range us {
		if u.base == b {
			mine = u
		}
	}
	for _, u := range us {
		if u.base == nil || u.mark || u.k != mine.k || u.d != mine.d || w && !r.writtenLoc(u.base, c) {
			continue
		}
		for _, fk := range c.Forks {
			if fk.Body == nil || fk.ItemLoop() == nil {
				continue
			}
			for _, s := range fk.Body.Body.List {
				if s == fk.ItemLoop() {
					break
				}
				switch s.(type) {
				case *ast.AssignStmt, *ast.IncDecStmt, *ast.ExprStmt:
					if within(u.base.Pos(), s) && !insideLit(s, u.base) {
						return true
					}
				}
			}
		}
	}
	return false
}

// insideLit reports whether x lies in a function literal inside s.
func insideLit(s ast.Node, x ast.Node) bool {
	in := false
	ast.Inspect(s, func(n ast.Node) bool {
		if l, ok := n.(*ast.FuncLit); ok && within(x.Pos(), l) {
			in = true
		}
		return !in
	})
	return in
}

// constructCode is the code of c: its statements from the first fork to
// the join and the bodies of its workers.
func (r *Result) constructCode(c *Construct) []ast.Node {
	var out []ast.Node
	for _, s := range c.List[c.First:c.Join] {
		out = append(out, s)
	}
	for _, fk := range c.Forks {
		if fk.Body != nil && (fk.Lit() == nil || !within(fk.Body.Pos(), c.List[c.First])) {
			out = append(out, fk.Body)
		}
	}
	return out
}

// writtenLoc reports whether the location x is (or may be) written: the
// target of an assignment or ++/--, or its address taken.
func (r *Result) writtenLoc(x ast.Expr, c *Construct) bool {
	written := false
	for _, n := range r.constructCode(c) {
		if !within(x.Pos(), n) {
			continue
		}
		var stack []ast.Node
		ast.Inspect(n, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return false
			}
			if n == x {
				written = locWritten(stack, x)
				return false
			}
			stack = append(stack, n)
			return true
		})
	}
	return written
}

// locWritten reports whether loc, whose ancestors are stack (innermost
// last), is written there.
func locWritten(stack []ast.Node, loc ast.Expr) bool {
	for k := len(stack) - 1; k >= 0; k-- {
		switch p := stack[k].(type) {
		case *ast.ParenExpr:
			loc = p
			continue
		case *ast.SelectorExpr:
			if p.X == loc {
				loc = p
				continue
			}
		case *ast.IndexExpr:
			if p.X == loc {
				loc = p
				continue
			}
		case *ast.AssignStmt:
			for _, l := range p.Lhs {
				if l == loc {
					return true
				}
			}
		case *ast.IncDecStmt:
			return p.X == loc
		case *ast.CallExpr:
			return p.Fun == loc // a method of it, which may write
		case *ast.UnaryExpr:
			return p.Op == token.AND
		case *ast.RangeStmt:
			return p.Key == loc || p.Value == loc
		}
		return false
	}
	return false
}
