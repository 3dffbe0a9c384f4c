package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Loop nests (coalesce.go's rule, one level up). The rule refused any body
// with a nested loop, so bench/unstructured/pipeline's digest
//
//	for range rounds {
//		for _, w := range r.words { h ^= w; h *= K }   // r.words a [8]uint64
//	}
//
// checked the copy of r.words (RA, rangelen.go) once per round, 16 times a
// record, though nothing in the nest can change r or its words. A range
// loop nested in the body is now accepted as one more statement of it
// (nestedLoop) when
//   - it ranges over an int, a slice, an array or a pointer to an array
//     with := or no variables: it ends after len(X) iterations, whatever
//     its body does (that body is held to the rule's statements: no
//     break, goto, return or loop but such range loops);
//   - its body makes no check (no shared location in it, checkedIn):
//     loops whose bodies are checked are left to be coalesced themselves,
//     as before (the nest's rule would keep their checks in the inner
//     loop, conditional);
//   - a value over a slice or a pointer to an array (an element read per
//     iteration) only when the loop is reached in every outer iteration
//     and X is pure and invariant in the outer loop: the loop then reads
//     all of X, X[0:len(X)], in every outer iteration (it runs to its
//     end), one candidate of its own kind (cand.fixed, wholeValues),
//     moved as a ReadSpan of the whole of X when its group holds only
//     such spans (reads, in body order), kept in the inner loop else;
//   - every operation of its body that can panic is made safe by a
//     condition tested before the outer loop, as the rule requires of
//     any conditional statement (the inner loop's variables are not
//     invariant, so an index by them refuses the nest).
// The nested loop's range expression is evaluated when the statement is
// reached, before its first iteration, whether it runs any: at top level
// (and not after a continue) it is an access of every iteration of the
// outer loop, a candidate when its address is invariant, and moves before
// the outer loop guarded by lo < hi as any other. An X the loop does not
// evaluate (rangeUnevaluated) is not an access at all. A range expression
// of a loop nested deeper is conditional (its loop may run no iteration).
//
// The loop written twice (coalesce_fast.go) is the whole nest: when a
// condition fails, the slow copy checks every access, and its inner loops
// may be coalesced on their own there.

// nestedLoop checks range loop s nested in the body of the loop being
// coalesced; uncond: the statement is reached in every iteration.
func (w *walker) nestedLoop(c *coalescing, s *ast.RangeStmt, uncond bool, order *int) {
	if !c.ok {
		return
	}
	if !w.nestable(s) || w.checkedIn(s.Body) {
		c.ok = false
		return
	}
	if !w.rangeUnevaluated(s) {
		w.expr(c, s.X, uncond, order)
	}
	if _, isArr := underlying(w.info.TypeOf(s.X)).(*types.Array); rangeValue(s) != nil && !isArr {
		w.wholeValues(c, s, uncond, order)
	}
	w.nested(c, s.Body, order)
}

// wholeValues makes the element reads of nested loop s, a range with a
// value over a slice or a pointer to an array, one candidate: the whole of
// X, read in every iteration of the outer loop when s is reached in every
// iteration, runs to its end (no break), and X is the same slice in each
// (pure and invariant; the temporary rangetemp.go assigns it in the body
// holds X's value, the same then). Otherwise the outer loop is refused:
// s coalesces itself, as before.
func (w *walker) wholeValues(c *coalescing, s *ast.RangeStmt, uncond bool, order *int) {
	if !uncond || !pure(s.X) || !w.invariant(c, s.X) || !w.safe(c, s.X) {
		c.ok = false
		return
	}
	var base ast.Expr = s.X
	if isPointer(w.info.TypeOf(s.X)) {
		w.nonNil(c, s.X)
		base = &ast.SliceExpr{X: s.X}
	}
	c.cands[s.Value] = &cand{base: base, fixed: true, order: *order}
	c.values[s.Value] = true
	*order++
}

// nestable reports whether range loop s, nested in a coalesced loop, ends
// after len(X) iterations whatever its body does.
func (w *walker) nestable(s *ast.RangeStmt) bool {
	if s.Tok == token.ASSIGN {
		return false // it would write the outer loop's variables
	}
	switch t := underlying(w.info.TypeOf(s.X)).(type) {
	case *types.Basic:
		return isInteger(t)
	case *types.Array:
		return true // a value is read at the copy, X's own check
	case *types.Slice:
		return true
	case *types.Pointer:
		isArr, _ := arrayRange(t)
		return isArr
	}
	return false // a map, channel, string or function
}

// checkedIn reports whether body may make a check: some location it
// names is shared (sharedLoc, before any proof).
func (w *walker) checkedIn(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok && addressable(e, w.info) && w.sharedLoc(e) {
			found = true
		}
		return !found
	})
	return found
}
