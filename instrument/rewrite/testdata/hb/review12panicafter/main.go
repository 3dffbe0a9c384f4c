// A function that ends in panic(…) whose argument calls an interface
// method (golang.org/x/tools/go/ssa's Function.typeOf ends in
// panic(fmt.Sprintf(…, e.Pos()))): the -hb rewrite puts _ga_hb.After()
// after the statement, which is then no longer the function's terminating
// statement, and the build breaks ("missing return").
package main

import "fmt"

type node interface{ Pos() int }

type lit struct{ p int }

func (l lit) Pos() int { return l.p }

func typeOf(types map[int]string, e node) string {
	if t, ok := types[e.Pos()]; ok {
		return t
	}
	panic(fmt.Sprintf("no type for %T @ %d", e, e.Pos()))
}

func main() {
	fmt.Println(typeOf(map[int]string{3: "int"}, lit{3}))
}
