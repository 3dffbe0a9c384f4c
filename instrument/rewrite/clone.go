package rewrite

import (
	"fmt"
	"go/ast"

	"github.com/dave/dst"
	"github.com/dave/dst/decorator"
)

// clone returns the checked copy of a function called from construct code:
// the same declaration named _ga_<name>, taking the caller's task first,
// every shared access checked with it:
//
//	func f(x int) int { … }   →   func _ga_f(_ga_t *_ga_rt.Task, x int) int { … }
//
// The copy is decorated afresh from the original syntax, so it shares the
// analysis of the original, and each of its statements is anchored to the
// original's line.
func (fr *fileRewriter) clone(fd *ast.FuncDecl) dst.Decl {
	dec := decorator.NewDecorator(fr.pkg.Fset)
	n, err := dec.DecorateNode(fd)
	if err != nil {
		panic(fmt.Sprintf("internal error: decorating %s: %v", fd.Name.Name, err))
	}
	cd := n.(*dst.FuncDecl)
	cd.Name.Name = cloneName(fd.Name.Name)
	nameFields(cd.Type.Params, "_ga_p") // func f(int, string): the task's name must not mix with none
	cd.Type.Params.List = append([]*dst.Field{taskParam("_ga_t")}, cd.Type.Params.List...)
	p := fr.pkg.Fset.Position(fd.Type.Func)
	cd.Decs.Start.Replace("\n", lineDirective(p, true))
	cd.Decs.Start = append(dst.Decorations{"\n"}, cd.Decs.Start...)
	w := fr.walker(dec, "_ga_t")
	w.inClone = true
	w.block(cd.Body)
	w.callbackItemsDecl(cd.Body, "_ga_t", fd) // a block per item if its goroutine drains the channel
	fr.wrapExits(dec, cd.Body)
	cd.Body.List = append(w.freshFields(fd.Recv, fd.Type.Params, fd.Type.Results), cd.Body.List...)
	w.anchor()
	fr.changed = true
	return cd
}
