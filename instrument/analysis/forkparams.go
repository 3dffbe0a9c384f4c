package analysis

import (
	"go/ast"
	"go/types"
)

// bindForkParams binds the parameters of the goroutine literal to the
// arguments of its go statement, go func(i int){…}(i), so that the proofs
// read the parameter as the value it was given: the loop index, a constant,
// or a local nothing assigns after its declaration (a chunk bound lo, hi
// computed in the iteration). The arguments are evaluated when the
// goroutine starts; each of these still has that value wherever the body
// reads the parameter (the index is the iteration's own since go1.22,
// which newHeapPass requires, and the loop assigns it nowhere else, which
// loopOwned requires), provided the body never assigns the parameter.
// The binding is the one callees walked in place get (indirect.go), so
// every form, footprint and magnitude reads i as the index itself.
func (h *heapPass) bindForkParams() {
	gs, ok := h.fk.Node.(*ast.GoStmt)
	if !ok || ast.Unparen(gs.Call.Fun) != h.fk.Body || gs.Call.Ellipsis.IsValid() {
		return
	}
	params := params(h.fk.Body.Type.Params, h.info)
	if len(params) != len(gs.Call.Args) {
		return
	}
	for k, pv := range params {
		arg := ast.Unparen(gs.Call.Args[k])
		if pv == nil || !h.immutable(pv) || !h.isInt(arg) || !types.Identical(pv.Type(), h.info.TypeOf(arg)) {
			continue
		}
		if _, isConst := h.r.finder.intConst(arg); isConst {
			h.bind[pv] = arg
			continue
		}
		id, ok := arg.(*ast.Ident)
		if !ok {
			continue
		}
		if v, _ := h.info.Uses[id].(*types.Var); v != nil && (v == h.c.Index || h.immutable(v) && h.def(v) != nil) {
			h.bind[pv] = arg
		}
	}
}
